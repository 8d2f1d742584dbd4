import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { textOutline } from './text-outline';
import { FONT_PATH } from './testing/poppler';

const font = fontkit.create(readFileSync(FONT_PATH));

/** The points a path passes through (every coordinate pair of its commands). */
function points(d: string): Array<[number, number]> {
  const numbers = (d.match(/-?[\d.]+(?:e-?\d+)?/g) ?? []).map(Number);
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index + 1 < numbers.length; index += 2)
    pairs.push([numbers[index] ?? 0, numbers[index + 1] ?? 0]);
  return pairs;
}

describe('text as glyph outlines', () => {
  it('sets each character at its advance, upright above the baseline, at the size asked', () => {
    const size = 1000;
    const one = textOutline(font, '速', size);
    const two = textOutline(font, '速度', size);
    expect(one.d).toMatch(/^M/);
    expect(two.width).toBeCloseTo(2 * one.width, 0);
    // A CJK character is about an em wide and tall; y points down, so its top is negative.
    expect(one.width).toBeGreaterThan(900);
    const ys = points(one.d).map(([, y]) => y);
    expect(Math.min(...ys)).toBeLessThan(-700);
    expect(Math.max(...ys)).toBeLessThan(200);
    // The second character starts right of the first.
    const xs = points(two.d).map(([x]) => x);
    expect(Math.max(...xs)).toBeGreaterThan(one.width);
    // Only lines and cubic curves: PDF has no quadratics.
    expect(two.d).not.toMatch(/[QqTt]/);
    expect(textOutline(font, '速', 10).width).toBeCloseTo(one.width / 100, 3);
  });
});
