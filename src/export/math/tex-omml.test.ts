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
});
