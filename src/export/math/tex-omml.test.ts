import { describe, expect, it } from 'vitest';
import { texToOmml } from './tex-omml';

describe('texToOmml', () => {
  it('writes TeX as Office Math: fractions, scripts and roots as Word structures', () => {
    const omml = texToOmml('\\frac{a}{b} + \\sqrt{x^2}', false);
    expect(omml).toMatch(
      /^<m:oMath xmlns:m="http:\/\/schemas.openxmlformats.org\/officeDocument\/2006\/math"/,
    );
    expect(omml).toContain('<m:f>');
    expect(omml).toContain('<m:rad>');
    expect(omml).toContain('<m:sSup>');
    // The TeX source annotation is not written as text.
    expect(omml).not.toContain('\\frac');
  });

  it('throws for TeX KaTeX cannot parse', () => {
    expect(() => texToOmml('\\frac{1}{', true)).toThrow(/KaTeX parse error/);
  });

  /** The text of the formula's runs, in order. */
  function runs(omml: string): string[] {
    return [...omml.matchAll(/<m:t\b[^>]*>([^<]*)<\/m:t>|<m:t\/>/g)].map((match) => match[1] ?? '');
  }

  it('keeps TeX spacing as Unicode spaces Word shows (\\quad between two equations)', () => {
    const text = runs(texToOmml('\\dot{x} = Ax + Bu, \\quad y = Cx', true)).join('');
    expect(text).toMatch(/Bu,\u2003y=Cx$/);
    expect(runs(texToOmml('a \\qquad b', false)).join('')).toBe('a\u2003\u2003b');
    expect(runs(texToOmml('a \\, b', false)).join('')).toBe('a\u2009b');
    expect(runs(texToOmml('a \\: b', false)).join('')).toBe('a\u205fb');
    expect(runs(texToOmml('a \\; b', false)).join('')).toBe('a\u2004b');
    expect(runs(texToOmml('a ~ b', false)).join('')).toBe('a\u00a0b');
    expect(runs(texToOmml('a \\enspace b', false)).join('')).toBe('a\u2002b');
  });

  it('leaves out a negative space and keeps no placeholder characters', () => {
    const omml = texToOmml('a \\! b + \\text{if } x', false);
    expect(runs(omml).join('')).not.toMatch(/[\uE000-\uF8FF]/);
    expect(runs(omml).join('')).toMatch(/^ab/);
  });
});
