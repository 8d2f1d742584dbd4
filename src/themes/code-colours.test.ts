import { describe, expect, it } from 'vitest';
import { BUILTIN_TOKENS } from './builtin-themes';
import { CODE_TEXT_TOKENS, codeColourDefaultsCss } from './code-colours';
import { contrastRatio, parseCssColour } from './contrast';
import { checkThemeCss } from './css-safety';
import { themeStylesheet } from './theme-css';

/** The custom properties of a generated block, by name. */
function tokensOf(css: string): Record<string, string> {
  return Object.fromEntries(
    [...css.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((match) => [match[1], match[2]]),
  );
}

function ratio(text: string, background: string): number {
  return contrastRatio(parseCssColour(text)!, parseCssColour(background)!);
}

/** A package stylesheet as the app stores it: through the safety check. */
const checked = (css: string) => checkThemeCss(css).css;

describe('the built-in code colours', () => {
  it.each(['light', 'dark'] as const)('reach 4.5:1 on the %s code background', (scheme) => {
    const tokens = BUILTIN_TOKENS[scheme];
    for (const name of CODE_TEXT_TOKENS)
      expect(ratio(tokens[name]!, tokens['--color-code-bg']!), name).toBeGreaterThanOrEqual(4.5);
    expect(ratio(tokens['--code-addition']!, tokens['--code-addition-bg']!)).toBeGreaterThanOrEqual(4.5);
    expect(ratio(tokens['--code-deletion']!, tokens['--code-deletion-bg']!)).toBeGreaterThanOrEqual(4.5);
  });
});

describe('codeColourDefaultsCss', () => {
  it('gives a light theme with a dark code background the dark colours', () => {
    const css = checked(':root { --color-bg: #fafafa; --color-code-bg: #282c34; }');
    const tokens = tokensOf(codeColourDefaultsCss(css, false));
    for (const name of CODE_TEXT_TOKENS) {
      expect(tokens[name], name).toBeDefined();
      expect(ratio(tokens[name]!, '#282c34'), name).toBeGreaterThanOrEqual(4.5);
    }
    expect(tokens['--code-string']).toBe(BUILTIN_TOKENS.dark['--code-string']);
    expect(tokens['--code-addition-bg']).toBe(BUILTIN_TOKENS.dark['--code-addition-bg']);
  });

  it('gives a dark theme with a light code background the light colours', () => {
    const tokens = tokensOf(
      codeColourDefaultsCss(checked(':root { --color-code-bg: rgb(255 255 255); }'), true),
    );
    expect(tokens['--code-keyword']).toBe(BUILTIN_TOKENS.light['--code-keyword']);
    expect(tokens['--color-code-text']).toBe(BUILTIN_TOKENS.light['--color-code-text']);
  });

  it('moves a default colour just far enough on a tinted background', () => {
    // Solarized's base2: GitHub-light's keyword red is 4.37:1 on it.
    const tokens = tokensOf(codeColourDefaultsCss(checked(':root { --color-code-bg: #eee8d5; }'), false));
    for (const name of CODE_TEXT_TOKENS)
      expect(ratio(tokens[name]!, '#eee8d5'), name).toBeGreaterThanOrEqual(4.5);
  });

  it('leaves the colours a theme sets to the theme', () => {
    const css = checked(
      ':root { --color-code-bg: #282c34; --code-keyword: #c678dd; }\n@media (min-width: 1px) { :root { --code-string: #98c379; } }',
    );
    const tokens = tokensOf(codeColourDefaultsCss(css, false));
    expect(tokens['--code-keyword']).toBeUndefined();
    expect(tokens['--code-string']).toBeUndefined();
    expect(tokens['--code-comment']).toBeDefined();
  });

  it('adds nothing when the theme keeps the built-in code background, or sets every colour', () => {
    expect(codeColourDefaultsCss(checked(':root { --color-bg: #fdf6e3; }'), false)).toBe('');
    const all = [
      ...CODE_TEXT_TOKENS,
      '--code-addition',
      '--code-addition-bg',
      '--code-deletion',
      '--code-deletion-bg',
    ]
      .map((name) => `${name}: #123456;`)
      .join(' ');
    expect(codeColourDefaultsCss(checked(`:root { --color-code-bg: #000; ${all} }`), false)).toBe('');
  });

  it('adds nothing a second time', () => {
    const css = checked(':root { --color-code-bg: #282c34; }');
    const once = codeColourDefaultsCss(css, false);
    expect(once).not.toBe('');
    expect(codeColourDefaultsCss(once + css, false)).toBe('');
  });

  it('follows var() to the colour the page computes, and composites a translucent one', () => {
    const viaVar = tokensOf(
      codeColourDefaultsCss(
        checked(':root { --surface-2: #1e1e1e; --color-code-bg: var(--surface-2); }'),
        false,
      ),
    );
    expect(viaVar['--code-keyword']).toBe(BUILTIN_TOKENS.dark['--code-keyword']);
    // A dark theme's own background under a faint white wash is still dark.
    const wash = tokensOf(
      codeColourDefaultsCss(
        checked(':root { --color-bg: #0d1117; --color-code-bg: rgb(255 255 255 / 6%); }'),
        true,
      ),
    );
    expect(wash['--code-keyword']).toBe(BUILTIN_TOKENS.dark['--code-keyword']);
  });

  it('ignores a code background only some screens get, and one it cannot read', () => {
    expect(codeColourDefaultsCss(checked('@media print { :root { --color-code-bg: #000; } }'), false)).toBe(
      '',
    );
    expect(
      codeColourDefaultsCss(checked(':root { --color-code-bg: color-mix(in srgb, #000, #fff); }'), false),
    ).toBe('');
  });

  it('comes before the theme in the stylesheets for exports and the preview', () => {
    const theme = checked(':root { --color-code-bg: #282c34; --code-keyword: #c678dd; }');
    const sheet = themeStylesheet({ is_dark: false, css: theme });
    const defaults = sheet.indexOf(`--code-string: ${BUILTIN_TOKENS.dark['--code-string']}`);
    expect(defaults).toBeGreaterThan(0);
    expect(defaults).toBeLessThan(sheet.indexOf('#c678dd'));
  });
});
