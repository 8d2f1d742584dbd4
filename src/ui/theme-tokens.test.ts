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
