import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every custom property the UI's styles read is one the app defines. A name
 * nothing defines (`--surface` for `--color-surface`) silently takes its
 * fallback, which is the light theme's colour: the dark theme then draws
 * white menus with near-white text.
 */
const UI = join(process.cwd(), 'src', 'ui');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.(svelte|css|ts)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('theme tokens', () => {
  it('every var(--name) in src/ui is defined somewhere in the app', () => {
    const sources = files(UI).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    const defined = new Set<string>();
    for (const { text } of sources) {
      // A declaration (`--name:`), Svelte's `style:--name=`, or a setProperty('--name', …).
      for (const match of text.matchAll(/(?:^|[\s;{(:'"])(--[\w-]+)\s*[:=]|setProperty\(\s*'(--[\w-]+)'/gm)) {
        defined.add((match[1] ?? match[2])!);
      }
    }
    const undefinedUses = sources.flatMap(({ path, text }) =>
      [...text.matchAll(/var\(\s*(--[\w-]+)/g)]
        .map((match) => match[1]!)
        .filter((name) => !defined.has(name))
        .map((name) => `${path.slice(UI.length + 1)}: ${name}`),
    );
    expect(undefinedUses).toEqual([]);
    // The check sees the tokens at all.
    expect(defined.has('--color-surface')).toBe(true);
  });
});

/** WCAG 2 contrast of two `#rrggbb` colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string): number => {
    const [r, g, b] = [1, 3, 5].map((at) => {
      const value = parseInt(hex.slice(at, at + 2), 16) / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The custom properties one rule of app.css declares, by the text that opens the rule. */
function tokensOf(css: string, opening: string): Map<string, string> {
  const start = css.indexOf(opening);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = css.slice(start + opening.length, css.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((match) => [match[1]!, match[2]!.trim()]));
}

describe('placeholders', () => {
  const css = readFileSync(join(UI, 'app.css'), 'utf8');

  it('are drawn in a token colour, not the browser grey (3.9:1 on the dark theme)', () => {
    expect(css).toMatch(/::placeholder\s*\{[^}]*color:\s*var\(--color-text-muted\)[^}]*opacity:\s*1;/);
  });

  it.each([
    ['light', ':root {'],
    ['dark', ":root[data-theme='dark'] {"],
    ['dark by the system', ":root:not([data-theme='light']) {"],
  ])('read at 4.5:1 or more on every field background of the %s theme', (_theme, opening) => {
    const tokens = tokensOf(css, opening);
    const placeholder = tokens.get('--color-text-muted')!;
    for (const background of ['--color-bg', '--color-surface', '--color-surface-raised']) {
      expect(contrast(placeholder, tokens.get(background)!), background).toBeGreaterThanOrEqual(4.5);
    }
  });
});
