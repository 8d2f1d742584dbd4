import { describe, expect, it } from 'vitest';
import { mathText } from './math-text';

describe('mathText', () => {
  it('reads fractions, accents, sums and scripts as plain text', () => {
    expect(mathText('\\bar{W}=\\frac{1}{n}\\sum W_i')).toBe('W̄=1/n ∑ Wᵢ');
    expect(mathText('\\frac{a+b}{2}')).toBe('(a+b)/2');
    expect(mathText('x^{2} + y_{n+1}')).toBe('x² + yₙ₊₁');
    expect(mathText('e^{i\\pi}')).toBe('e^(iπ)');
    expect(mathText('\\sqrt{x^2 + 1}')).toBe('√(x² + 1)');
  });

  it('names Greek letters, relations and functions, and drops sizing commands', () => {
    expect(mathText('\\alpha \\le \\beta')).toBe('α ≤ β');
    expect(mathText('O(n \\log n)')).toBe('O(n log n)');
    expect(mathText('\\left( \\frac{1}{2} \\right)')).toBe('( 1/2 )');
    expect(mathText('x \\in \\mathbb{R}')).toBe('x ∈ ℝ');
    expect(mathText('\\text{if } x > 0')).toBe('if x > 0');
  });

  it('keeps the name of a command it does not know, and plain text as it is', () => {
    expect(mathText('\\foo{x}')).toBe('foox');
    expect(mathText('E = mc^2')).toBe('E = mc²');
    expect(mathText('T_1 + T_2')).toBe('T₁ + T₂');
  });
});
