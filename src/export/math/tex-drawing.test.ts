import { describe, expect, it } from 'vitest';
import { multiply, parseTransform } from './matrix';
import { cubicPath, texToDrawing, TexError } from './tex-drawing';

describe('texToDrawing', () => {
  it('typesets TeX into paths with its size around the baseline', () => {
    const drawing = texToDrawing('\\frac{a}{b}', true);
    // Numerator above the baseline, denominator below it, a bar between.
    expect(drawing.ascent).toBeGreaterThan(500);
    expect(drawing.descent).toBeGreaterThan(300);
    expect(drawing.width).toBeGreaterThan(400);
    expect(drawing.shapes.map((shape) => shape.kind)).toEqual(['path', 'path', 'path']);
    const [numerator, denominator] = drawing.shapes;
    // y grows downwards: the numerator sits higher (more negative) than the denominator.
    expect(numerator?.matrix[5]).toBeLessThan(0);
    expect(denominator?.matrix[5]).toBeGreaterThan(0);
  });

  it('keeps a character the math font lacks as text', () => {
    const drawing = texToDrawing('\\text{速度}=v', false);
    expect(
      drawing.shapes
        .filter((shape) => shape.kind === 'text')
        .map((shape) => shape.kind === 'text' && shape.text),
    ).toEqual(['速', '度']);
  });

  it('clips the stretched middle of a tall delimiter to its box', () => {
    const drawing = texToDrawing('\\left(\\begin{matrix}a\\\\b\\\\c\\end{matrix}\\right)', true);
    const clipped = drawing.shapes.filter((shape) => shape.clip);
    expect(clipped).toHaveLength(2);
    expect(clipped[0]?.clip?.height).toBeGreaterThan(0);
  });

  it('throws TexError with MathJax message for TeX it cannot read', () => {
    expect(() => texToDrawing('\\frac{1}{', true)).toThrow(new TexError('Missing close brace'));
    expect(() => texToDrawing('\\nosuchcommand x', false)).toThrow(
      /Undefined control sequence \\nosuchcommand/,
    );
  });
});

describe('cubicPath', () => {
  it('turns quadratic and smooth quadratic curves into exact cubics, absolute', () => {
    expect(cubicPath('M0 0Q3 3 6 0T12 0')).toBe('M0 0C2 2 4 2 6 0C8 -2 10 -2 12 0');
    expect(cubicPath('m1 1h2v2z')).toBe('M1 1H3V3Z');
  });
});

describe('matrix', () => {
  it('reads SVG transforms in order and composes them', () => {
    expect(parseTransform('translate(10,20) scale(2)')).toEqual([2, 0, 0, 2, 10, 20]);
    expect(parseTransform('translate(0 -0.5)')).toEqual([1, 0, 0, 1, 0, -0.5]);
    expect(parseTransform('scale(1,-1)')).toEqual([1, 0, 0, -1, 0, 0]);
    expect(multiply([2, 0, 0, 2, 10, 20], [1, 0, 0, 1, 3, 4])).toEqual([2, 0, 0, 2, 16, 28]);
    expect(parseTransform(undefined)).toEqual([1, 0, 0, 1, 0, 0]);
  });
});
