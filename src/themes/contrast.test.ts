import { describe, expect, it } from 'vitest';
import {
  composite,
  contrastRatio,
  parseCssColour,
  readableOn,
  relativeLuminance,
  schemeForBackground,
  toHex,
} from './contrast';

const colour = (text: string) => {
  const parsed = parseCssColour(text);
  if (!parsed) throw new Error(`not a colour: ${text}`);
  return parsed;
};

describe('parseCssColour', () => {
  it('reads hex, rgb() and hsl() in their usual spellings', () => {
    expect(parseCssColour('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseCssColour('#282C34')).toEqual({ r: 40, g: 44, b: 52, a: 1 });
    expect(parseCssColour('#00000080')?.a).toBeCloseTo(0.5, 2);
    expect(parseCssColour('rgb(40, 44, 52)')).toEqual({ r: 40, g: 44, b: 52, a: 1 });
    expect(parseCssColour('rgb(40 44 52 / 50%)')).toEqual({ r: 40, g: 44, b: 52, a: 0.5 });
    expect(parseCssColour('rgba(40,44,52,0.25)')?.a).toBe(0.25);
    expect(toHex(colour('hsl(220, 13%, 18%)'))).toBe('#282c34');
    expect(toHex(colour('hsl(0deg 100% 50%)'))).toBe('#ff0000');
    expect(parseCssColour('white')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
  });

  it('gives null for what it cannot resolve on its own', () => {
    for (const text of ['var(--x)', 'color-mix(in srgb, red, blue)', 'rebeccapurple', '#12', 'rgb(1, 2)', ''])
      expect(parseCssColour(text), text).toBeNull();
  });
});

describe('luminance and contrast (WCAG 2)', () => {
  it('match the reference values', () => {
    expect(relativeLuminance(colour('#000'))).toBe(0);
    expect(relativeLuminance(colour('#fff'))).toBe(1);
    expect(contrastRatio(colour('#000'), colour('#fff'))).toBe(21);
    expect(contrastRatio(colour('#fff'), colour('#000'))).toBe(21);
    // GitHub-light's comment grey on its code background: the 4.27:1 that fell short of AA.
    expect(contrastRatio(colour('#6e7781'), colour('#f6f8fa'))).toBeCloseTo(4.27, 2);
    expect(contrastRatio(colour('#777'), colour('#777'))).toBe(1);
  });

  it('composites a translucent colour over the page', () => {
    expect(toHex(composite(colour('rgb(0 0 0 / 50%)'), colour('#ffffff')))).toBe('#808080');
  });
});

describe('schemeForBackground', () => {
  it('gives dark code colours to dark backgrounds and light ones to light', () => {
    expect(schemeForBackground(colour('#282c34'))).toBe('dark');
    expect(schemeForBackground(colour('#1f232a'))).toBe('dark');
    expect(schemeForBackground(colour('#f6f8fa'))).toBe('light');
    expect(schemeForBackground(colour('#eee8d5'))).toBe('light');
    // Either side of the mid-grey where black and white text contrast equally.
    expect(schemeForBackground(colour('#707070'))).toBe('dark');
    expect(schemeForBackground(colour('#808080'))).toBe('light');
  });
});

describe('readableOn', () => {
  it('keeps a colour that already reaches 4.5:1', () => {
    expect(toHex(readableOn(colour('#0550ae'), colour('#f6f8fa')))).toBe('#0550ae');
  });

  it('darkens on light backgrounds and lightens on dark ones, just enough', () => {
    const onPaper = readableOn(colour('#6e7781'), colour('#eee8d5'));
    expect(contrastRatio(onPaper, colour('#eee8d5'))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(onPaper, colour('#eee8d5'))).toBeLessThan(4.7);
    expect(relativeLuminance(onPaper)).toBeLessThan(relativeLuminance(colour('#6e7781')));

    const onDark = readableOn(colour('#cf222e'), colour('#282c34'));
    expect(contrastRatio(onDark, colour('#282c34'))).toBeGreaterThanOrEqual(4.5);
    expect(relativeLuminance(onDark)).toBeGreaterThan(relativeLuminance(colour('#cf222e')));
  });

  it('reaches 4.5:1 on any grey, even the middle one', () => {
    for (let level = 0; level <= 255; level += 5) {
      const background = { r: level, g: level, b: level, a: 1 };
      for (const text of ['#cf222e', '#8b949e', '#a5d6ff', '#777777'])
        expect(
          contrastRatio(readableOn(colour(text), background), background),
          `${text} on ${level}`,
        ).toBeGreaterThanOrEqual(4.5);
    }
  });
});
