import { rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { themeStylesheet } from '../../themes/theme-css';
import { DEFAULT_PDF_PALETTE, paletteFromThemeCss, parseCssColor, rootCustomProperties } from './pdf-palette';

function hex(value: string) {
  const n = Number.parseInt(value.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

describe('paletteFromThemeCss', () => {
  it('reads the built-in light theme: its tokens, on paper-white pages', () => {
    const palette = paletteFromThemeCss(themeStylesheet({ is_dark: false, css: null }), false);
    expect(palette).toEqual({
      text: hex('#1d2127'),
      heading: hex('#1d2127'),
      link: hex('#2f5d8a'),
      muted: hex('#5b6470'),
      codeBackground: hex('#f6f8fa'),
      codeText: hex('#1f2328'),
      inlineCode: hex('#1f2328'),
      tableBorder: hex('#d0d7de'),
      tableHeaderBackground: hex('#f6f8fa'),
      quoteBar: hex('#d0d7de'),
      rule: hex('#dcdfe4'),
      highlight: hex('#fff4d6'),
    });
  });

  it('reads the built-in dark theme: a dark page background under light text', () => {
    const palette = paletteFromThemeCss(themeStylesheet({ is_dark: true, css: null }), true);
    expect(palette.background).toEqual(hex('#16181d'));
    expect(palette.text).toEqual(hex('#e6e8eb'));
    expect(palette.link).toEqual(hex('#7fb0e0'));
    expect(palette.codeBackground).toEqual(hex('#1f232a'));
    expect(palette.codeText).toEqual(hex('#e6edf3'));
    expect(palette.tableHeaderBackground).toEqual(hex('#22262d'));
    expect(palette.quoteBar).toEqual(hex('#3d444d'));
  });

  it("takes a package theme's root tokens over the built-in ones, falling back where it cannot read a colour", () => {
    const css = themeStylesheet({
      is_dark: true,
      css: [
        ':root { --color-bg: rgb(16 32 48); --color-text: #fed; --color-accent: var(--brand); }',
        'html, body { --color-text-muted: rgba(255, 255, 255, 50%); --color-code-bg: teal; }',
        '@media print { :root { --color-text: #000000; } }',
        '.markdown-preview { --color-quote-border: #ff0000; }',
        ':root { --color-table-border: #11223380; }',
      ].join('\n'),
    });
    const palette = paletteFromThemeCss(css, true);
    const bg = { red: 16 / 255, green: 32 / 255, blue: 48 / 255 };
    expect(palette.background).toEqual(rgb(bg.red, bg.green, bg.blue));
    expect(palette.text).toEqual(hex('#ffeedd'));
    // var() and named colours are not read: the built-in dark token stands in.
    expect(palette.link).toEqual(hex('#7fb0e0'));
    expect(palette.codeBackground).toEqual(hex('#1f232a'));
    // Rules in @media and on other elements do not reach the page root.
    expect(palette.quoteBar).toEqual(hex('#3d444d'));
    // Translucent colours are mixed over the page background.
    expect(palette.muted.red).toBeCloseTo(0.5 + bg.red / 2, 5);
    expect(palette.muted.blue).toBeCloseTo(0.5 + bg.blue / 2, 5);
    const alpha = 0x80 / 255;
    expect(palette.tableBorder.green).toBeCloseTo((0x22 / 255) * alpha + bg.green * (1 - alpha), 5);
  });

  it("draws headings in the theme's heading colour, and in the text colour where it sets none", () => {
    const themed = (css: string, isDark = false) =>
      paletteFromThemeCss(themeStylesheet({ is_dark: isDark, css }), isDark);
    expect(themed(':root { --color-heading: #2c3e50; }').heading).toEqual(hex('#2c3e50'));
    expect(themed(':root { --color-heading: #2c3e50; }').text).toEqual(hex('#1d2127'));
    // A token naming another is followed, to the theme's token or the built-in one.
    expect(themed(':root { --color-heading: var(--brand); --brand: #aa0000; }').heading).toEqual(
      hex('#aa0000'),
    );
    expect(themed(':root { --color-heading: var(--color-accent); }', true).heading).toEqual(hex('#7fb0e0'));
    // Nothing readable: the text colour, as the note's stylesheet falls back.
    expect(themed(':root { --color-text: #223344; }').heading).toEqual(hex('#223344'));
    expect(themed(':root { --color-heading: var(--nowhere); --color-text: #223344; }').heading).toEqual(
      hex('#223344'),
    );
    expect(themed(':root { --color-heading: var(--color-heading); }').heading).toEqual(hex('#1d2127'));
  });

  it('falls back to the built-in tokens for a stylesheet it cannot parse', () => {
    expect(paletteFromThemeCss('}}} :root { --color-text: ', false).text).toEqual(hex('#1d2127'));
    expect(paletteFromThemeCss('', true).background).toEqual(hex('#16181d'));
  });

  it('keeps the print colours without a theme', () => {
    expect(DEFAULT_PDF_PALETTE.background).toBeUndefined();
    expect(DEFAULT_PDF_PALETTE.text).toEqual(rgb(0.12, 0.16, 0.22));
  });
});

describe('rootCustomProperties', () => {
  it('keeps the last root declaration of each custom property and ignores other properties', () => {
    const tokens = rootCustomProperties(
      ':root { --a: #111; color: red; } html { --a: #222; --b: 1px } html body, :root > p, .x:root { --a: #333 }',
    );
    expect([...tokens]).toEqual([
      ['--a', '#222'],
      ['--b', '1px'],
    ]);
  });
  it('reads a root rule as the theme CSS safety guards it', () => {
    const guarded = ':root:not([data-secure-ui],[data-secure-ui] *), p { --color-bg: #0b1021 }';
    expect(rootCustomProperties(guarded).get('--color-bg')).toBe('#0b1021');
  });
});

describe('parseCssColor', () => {
  it('reads hex, rgb() and rgba() in both syntaxes', () => {
    expect(parseCssColor('#abc')).toEqual({ r: 0xaa / 255, g: 0xbb / 255, b: 0xcc / 255, a: 1 });
    expect(parseCssColor('#00000080')).toEqual({ r: 0, g: 0, b: 0, a: 0x80 / 255 });
    expect(parseCssColor('rgb(255, 0, 51)')).toEqual({ r: 1, g: 0, b: 0.2, a: 1 });
    expect(parseCssColor('rgba(0 0 0 / 25%)')).toEqual({ r: 0, g: 0, b: 0, a: 0.25 });
    expect(parseCssColor('rgb(100%, 50%, 0%, 0.5)')).toEqual({ r: 1, g: 0.5, b: 0, a: 0.5 });
  });

  it('refuses what it does not read', () => {
    for (const value of [
      'red',
      'var(--x)',
      'hsl(0 0% 0%)',
      '#12345',
      'rgb(1, 2)',
      '#111 #222',
      '',
      'rgb(calc(1) 2 3)',
    ])
      expect(parseCssColor(value), value).toBeUndefined();
  });
});
