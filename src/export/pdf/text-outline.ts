import type { Font } from '@pdf-lib/fontkit';
import svgpath from 'svgpath';
import { cubicPath } from '../math/tex-drawing';

/**
 * `text` set in `font` at `size` as one SVG path (y down, the baseline at y = 0, starting
 * at x = 0), with its advance width. A formula's `\text{}` characters that the math font
 * lacks (CJK) are drawn this way rather than as text: the formula's invisible text layer
 * already holds them, and visible text under it would be copied and found a second time.
 */
export function textOutline(font: Font, text: string, size: number): { d: string; width: number } {
  const scale = size / font.unitsPerEm;
  const run = font.layout(text);
  let x = 0;
  const parts: string[] = [];
  run.glyphs.forEach((glyph, index) => {
    const position = run.positions[index];
    const d = glyph.path.toSVG();
    if (d)
      parts.push(
        svgpath(d)
          .translate((position?.xOffset ?? 0) + x, position?.yOffset ?? 0)
          .scale(scale, -scale)
          .toString(),
      );
    x += position?.xAdvance ?? glyph.advanceWidth;
  });
  const d = parts.join('');
  return { d: d ? cubicPath(d) : '', width: x * scale };
}
