import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { testExportContext } from '../test-context';
import { createHarfBuzzSubsetter } from './font-subset';
import { createPdfExporter } from './pdf-exporter';
import { pdfStreams } from './testing/content-streams';
import {
  FONT_PATH,
  MONO_FONT_PATH,
  WASM_PATH,
  fileLoader,
  poppler,
  render,
  words,
  type Raster,
} from './testing/poppler';

const exporter = createPdfExporter(
  fileLoader(FONT_PATH),
  async () => createHarfBuzzSubsetter(async () => readFileSync(WASM_PATH)),
  fileLoader(MONO_FONT_PATH),
);

async function exportPdf(markdown: string) {
  return exporter.export(documentFromMarkdown(markdown, '控制'), testExportContext({ include_title: false }));
}

/** Dark pixels in a box given in points from the page's top left. */
function ink(page: Raster, dpi: number, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const scale = dpi / 72;
  let count = 0;
  for (let y = Math.floor(box.y0 * scale); y < Math.ceil(box.y1 * scale); y++)
    for (let x = Math.floor(box.x0 * scale); x < Math.ceil(box.x1 * scale); x++) {
      const [r = 255, g = 255, b = 255] = page.pixel(x, y);
      if (r + g + b < 300) count += 1;
    }
  return count;
}

const CONTROL = [
  '传递函数 $G(s)=\\frac{1}{s^2+2\\zeta\\omega_n s+\\omega_n^2}$，阻尼比 $\\zeta$ 决定超调。',
  '',
  'Lyapunov 方程',
  '',
  '$$',
  'A^TP+PA=-Q',
  '$$',
  '',
  '其中 $Q \\succ 0$。',
  '',
].join('\n');

describe('PDF formulas as text', () => {
  it('puts each formula, inline and displayed, into the text layer as one readable line', async () => {
    const { data, warnings } = await exportPdf(CONTROL);
    expect(warnings).toEqual([]);
    const text = poppler('pdftotext', data);
    // Noto Sans SC has ζ, ω and ² but no subscript letters: ωₙ is written ω_n.
    expect(text).toContain('传递函数 G(s) = 1/(s² + 2ζω_n s + ω_n^2)，阻尼比 ζ 决定超调。');
    expect(text).toContain('A^T P + PA = −Q');
    // The font lacks ≻: its TeX name, not a lost character.
    expect(text).toContain('其中 Q \\succ 0。');
    // The glyphs the text uses are in the embedded subset, so nothing maps to the empty glyph.
    expect(text).not.toContain('\ufffd');
  });

  it('keeps the drawing visible and the text invisible over it', async () => {
    const { data } = await exportPdf('Energy $E=mc^2$ here.\n');
    const cells = words(data);
    const at = (word: string) => {
      const cell = cells.find((item) => item.text === word);
      if (!cell) throw new Error(`no word ${word} in ${cells.map((item) => item.text).join(' ')}`);
      return cell;
    };
    // The text sits where the formula is drawn, between the words around it.
    const energy = at('Energy');
    const here = at('here.');
    const formula = cells.filter((cell) => cell.x0 > energy.x1 && cell.x1 < here.x0);
    expect(formula.map((cell) => cell.text).join(' ')).toBe('E = mc²');
    expect(Math.abs((formula[0]?.y1 ?? 0) - energy.y1)).toBeLessThan(3);
    // Drawn in text render mode 3 (invisible), inside its own graphics state.
    const streams = pdfStreams(data).join('\n');
    expect(streams).toMatch(/q\s+3 Tr\s+[\d.]+ Tz\s+q\s+BT[\s\S]*?ET\s+Q\s+Q/);
    // The page still shows the vector drawing there.
    const dpi = 150;
    const [page] = render(data, dpi);
    expect(
      ink(page as Raster, dpi, { x0: energy.x1 + 1, y0: energy.y0 - 4, x1: here.x0 - 1, y1: energy.y1 + 2 }),
    ).toBeGreaterThan(80);
  });

  it("draws a formula's CJK \\text{} as outlines, so copying and search find its words once", async () => {
    const { data, warnings } = await exportPdf('速度 $\\text{速度 speed} = d/t$ 按全程计。\n');
    expect(warnings).toEqual([]);
    const text = poppler('pdftotext', data);
    expect(text).toContain('速度 速度 speed = d/t 按全程计。');
    expect(text.match(/速度/g)).toHaveLength(2);
    expect(text.match(/speed/g)).toHaveLength(1);
    // The characters are still drawn where the formula is.
    const cells = words(data);
    const formula = cells.filter((cell) => cell.text === '速度')[1];
    expect(formula).toBeDefined();
    const dpi = 150;
    const [page] = render(data, dpi);
    expect(ink(page as Raster, dpi, formula ?? { x0: 0, y0: 0, x1: 0, y1: 0 })).toBeGreaterThan(40);
  });
});
