import { describe, expect, it } from 'vitest';
import { mathAlphanumeric } from './math-alphanumerics';

describe('mathAlphanumeric', () => {
  it("takes the Letterlike Symbols where the block has holes, and the block's letters elsewhere", () => {
    expect(mathAlphanumeric('CHNPQRZ', 'double-struck')).toBe('ℂℍℕℙℚℝℤ');
    expect(mathAlphanumeric('ABab09', 'double-struck')).toBe('𝔸𝔹𝕒𝕓𝟘𝟡');
    expect(mathAlphanumeric('BEFHILMRego', 'script')).toBe('ℬℰℱℋℐℒℳℛℯℊℴ');
    expect(mathAlphanumeric('ACaz', 'script')).toBe('𝒜𝒞𝒶𝓏');
    expect(mathAlphanumeric('CHIRZgz', 'fraktur')).toBe('ℭℌℑℜℨ𝔤𝔷');
    expect(mathAlphanumeric('Rr', 'bold-fraktur')).toBe('𝕽𝖗');
    expect(mathAlphanumeric('Az09', 'monospace')).toBe('𝙰𝚣𝟶𝟿');
  });

  it('keeps what a variant has no letter for, and text of variants Word styles itself', () => {
    expect(mathAlphanumeric('α1+', 'script')).toBe('α1+');
    expect(mathAlphanumeric('x', 'bold')).toBe('x');
    expect(mathAlphanumeric('x', 'normal')).toBe('x');
  });
});
