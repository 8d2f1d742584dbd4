import { describe, expect, it } from 'vitest';
import { TexError } from './tex-drawing';
import { texToLinearText } from './tex-linear';

/** Noto Sans SC's coverage in short: Greek, ² ³ ¹, √ and the common operators, no subscript letters. */
const notoLike = (codePoint: number) =>
  !(codePoint >= 0x2070 && codePoint <= 0x209f) &&
  ![0x1d40, 0x1d62, 0x2c7c, 0x227b, 0x0302].includes(codePoint);

describe('texToLinearText', () => {
  it('writes a transfer function as one searchable line in Unicode', () => {
    const tex = 'G(s)=\\frac{1}{s^2+2\\zeta\\omega_n s+\\omega_n^2}';
    expect(texToLinearText(tex, true)).toBe('G(s) = 1/(s² + 2ζωₙs + ωₙ²)');
  });

  it('falls back to ASCII scripts and TeX names for what the font lacks, ending a script with a space', () => {
    const tex = 'G(s)=\\frac{1}{s^2+2\\zeta\\omega_n s+\\omega_n^2}';
    expect(texToLinearText(tex, true, notoLike)).toBe('G(s) = 1/(s² + 2ζω_n s + ω_n^2)');
    expect(texToLinearText('A^TP+PA=-Q,\\ Q\\succ 0', false, notoLike)).toBe('A^T P + PA = −Q, Q \\succ 0');
  });

  it('keeps operators, sums, roots, accents, primes and matrices readable', () => {
    expect(texToLinearText('\\int_0^1 x^2\\,dx = \\frac{1}{3}', true)).toBe('∫₀¹ x² dx = 1/3');
    expect(texToLinearText('\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}', true)).toBe('∑ᵢ₌₁ⁿ i = (n(n + 1))/2');
    expect(texToLinearText('\\sum_{i=1}^{n} i', true, notoLike)).toBe('∑_(i=1)^n i');
    expect(texToLinearText("f'(x) = -\\sqrt{x+1}", false)).toBe('f′(x) = −√(x + 1)');
    expect(texToLinearText('\\hat{x}', false)).toBe('x̂');
    expect(texToLinearText('\\hat{x}', false, notoLike)).toBe('hat(x)');
    expect(texToLinearText('\\begin{pmatrix}a&b\\\\c&d\\end{pmatrix}', true)).toBe('(a b; c d)');
    expect(texToLinearText('\\text{速度} = \\frac{s}{t}', true)).toBe('速度 = s/t');
  });

  it('throws TexError for TeX it cannot read', () => {
    expect(() => texToLinearText('\\frac{1}{', false)).toThrow(TexError);
  });
});
