import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { themeStylesheet } from '../../themes/theme-css';
import type { ExportTheme } from '../exporter';
import type { MermaidStaticPort } from '../static-render';
import {
  FOOTNOTE_HANDOUT as FOOTNOTES,
  FOOTNOTE_LIST_HANDOUT,
  testExportContext,
  testRasterizer,
} from '../test-context';
import { createHarfBuzzSubsetter } from './font-subset';
import { createPdfExporter } from './pdf-exporter';
import { pdfStreams } from './testing/content-streams';
import { pdfFillColours } from './testing/fill-colours';
import {
  FONT_PATH as fontPath,
  MONO_FONT_PATH,
  WASM_PATH as wasmPath,
  fileLoader,
  poppler,
  render,
  words,
  type Raster,
} from './testing/poppler';

let fontReads = 0;
const loadFont = async () => async () => {
  fontReads += 1;
  return new Uint8Array(readFileSync(fontPath));
};
const exporter = createPdfExporter(
  loadFont,
  async () => createHarfBuzzSubsetter(async () => readFileSync(wasmPath)),
  fileLoader(MONO_FONT_PATH),
);

const NOTE = `# 操作系统复习

进程调度 decides which process runs next. 先来先服务 is the simplest policy.

## Policies

- FCFS: first come, first served
- SJF：最短作业优先

| 算法 | 平均等待 |
|:--|--:|
| FCFS | 10 |

\`\`\`function-plot
y = sin(x) | label: sine
\`\`\`

Read more at [the docs](https://example.com/docs).
`;

async function exportPdf(
  markdown: string,
  options: Parameters<typeof testExportContext>[0] = {},
  theme?: ExportTheme,
) {
  const context = { ...testExportContext(options), ...(theme && { theme }) };
  return exporter.export(documentFromMarkdown(markdown, '操作系统复习'), context);
}

const luminance = ([r, g, b]: [number, number, number]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/** Dark pixels in a box given in points from the page's top left (as `pdftotext -bbox` gives them). */
function ink(page: Raster, dpi: number, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const scale = dpi / 72;
  let count = 0;
  for (let y = Math.floor(box.y0 * scale); y < Math.ceil(box.y1 * scale) && y < page.height; y++)
    for (let x = Math.floor(box.x0 * scale); x < Math.ceil(box.x1 * scale) && x < page.width; x++)
      if (luminance(page.pixel(x, y)) < 128) count += 1;
  return count;
}

/**
 * The lightest pixel of a page. The outermost pixels are left out: a page that is
 * not a whole number of pixels wide ends in a pixel mostly off the page, left white.
 */
function lightest(page: Raster): [number, number, number] {
  let best: [number, number, number] = [0, 0, 0];
  for (let y = 1; y < page.height - 1; y++)
    for (let x = 1; x < page.width - 1; x++) {
      const pixel = page.pixel(x, y);
      if (luminance(pixel) > luminance(best)) best = pixel;
    }
  return best;
}

/** The pixel in a word's box nearest to `hex`, as a distance (0: exactly that colour). */
function nearest(
  page: Raster,
  dpi: number,
  word: { x0: number; y0: number; x1: number; y1: number },
  hex: string,
) {
  const target = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  const scale = dpi / 72;
  let best = Infinity;
  for (let y = Math.floor(word.y0 * scale); y < Math.ceil(word.y1 * scale); y++)
    for (let x = Math.floor(word.x0 * scale); x < Math.ceil(word.x1 * scale); x++) {
      const pixel = page.pixel(x, y);
      best = Math.min(
        best,
        pixel.reduce((sum, channel, index) => sum + Math.abs(channel - (target[index] ?? 0)), 0),
      );
    }
  return best;
}

describe('pdfExporter', () => {
  it('draws every Chinese and English glyph of the subset font, with as much ink as the whole font draws', async () => {
    // One glyph a word, so poppler boxes each glyph on its own.
    const glyphs = [
      '操 作 系 统 复 习 进 程 调 度 与 内 存 管 理',
      'd e c i d e s w h i c h p r o c e s s r u n s',
      'F C F S S J F A B Q W X Y Z g j k l m t v y',
      '先 来 先 服 务 ， 最 短 作 业 优 先 。 【 调 度 】',
      '0 1 2 3 4 5 6 7 8 9 . , ; : ! ? / ( ) [ ] + - =',
    ];
    const markdown = glyphs.join('\n\n');
    const subset = await exportPdf(markdown, { include_title: false });
    // The same page with the whole font embedded: what the glyphs look like when nothing is lost.
    const whole = await createPdfExporter(loadFont, async () => async (font) => font).export(
      documentFromMarkdown(markdown, 'glyphs'),
      testExportContext({ include_title: false }),
    );
    console.warn(
      `PDF of ${glyphs.join(' ').replace(/ /g, '').length} glyphs: ${subset.data.byteLength} bytes with the subset, ${whole.data.byteLength} with the whole font`,
    );

    // Copy and search give the text back (poppler joins glyphs this close without spaces).
    const text = poppler('pdftotext', subset.data);
    for (const line of glyphs) expect(text).toContain(line.replace(/ /g, ''));

    const dpi = 150;
    const [page] = render(subset.data, dpi);
    const [reference] = render(whole.data, dpi);
    const cells = words(subset.data);
    // The glyphs in order, then the page number.
    expect(cells.map((cell) => cell.text)).toEqual([...glyphs.join(' ').split(' '), '1', '/', '1']);
    const blank = cells.filter((cell) => ink(page as Raster, dpi, cell) < 3).map((cell) => cell.text);
    expect(blank, 'glyphs drawn blank').toEqual([]);
    // Line by line, the subset inks the page as the whole font does.
    const referenceCells = words(whole.data);
    let first = 0;
    for (const line of glyphs) {
      const count = line.split(' ').length;
      const lineInk = (raster: Raster, boxes: typeof cells) => {
        const inLine = boxes.slice(first, first + count);
        return ink(raster, dpi, {
          x0: Math.min(...inLine.map((cell) => cell.x0)),
          y0: Math.min(...inLine.map((cell) => cell.y0)),
          x1: Math.max(...inLine.map((cell) => cell.x1)),
          y1: Math.max(...inLine.map((cell) => cell.y1)),
        });
      };
      const ratio = lineInk(page as Raster, cells) / lineInk(reference as Raster, referenceCells);
      console.warn(`ink of "${line}" against the whole font: ${ratio.toFixed(3)}`);
      expect(ratio, line).toBeGreaterThan(0.85);
      expect(ratio, line).toBeLessThan(1.15);
      first += count;
    }
    // A subset: far smaller than the document with the whole font.
    expect(subset.data.byteLength).toBeLessThan(60_000);
    expect(subset.data.byteLength * 50).toBeLessThan(whole.data.byteLength);
    // Embedding the whole 10 MB font for the reference takes pdf-lib several seconds.
  }, 90_000);

  it('sets Chinese and English as selectable text, in order, in an embedded subset of the CJK font', async () => {
    const { data, warnings } = await exportPdf(NOTE);
    expect(warnings).toEqual([]);
    const text = poppler('pdftotext', data);
    const order = [
      '操作系统复习',
      '进程调度 decides which process runs next.',
      '先来先服务',
      'Policies',
      'FCFS: first come, first served',
      'SJF：最短作业优先',
      '算法',
      'sine',
      'Read more at the docs',
    ];
    let at = -1;
    for (const expected of order) {
      const found = text.indexOf(expected, at + 1);
      expect(found, `${expected} after position ${at}`).toBeGreaterThan(at);
      at = found;
    }
    const fonts = poppler('pdffonts', data);
    // A subset font's name carries a six-letter tag: ABCDEF+NotoSansSC-Regular; "emb" and "sub" are yes.
    expect(fonts).toMatch(/[A-Z]{6}\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    // A subset: far smaller than the 10 MB font.
    expect(data.byteLength).toBeLessThan(200_000);
  });

  it('links open the address the note gave: Chinese paths and hosts, an unbalanced parenthesis', async () => {
    const { data } = await exportPdf(
      '参见 <https://example.com/a(b\\c> [文档](https://例子.com/文档?q=调度#章节) and [Scheduling](https://en.wikipedia.org/wiki/Scheduling_(computing)).',
    );
    const urls = poppler('pdfinfo', data, '-url')
      .split('\n')
      .map((line) => line.trim().split(/\s+/).at(-1))
      .filter((url) => url?.includes('://'));
    // One link area a word: a Chinese link text breaks into several, all to the same address.
    expect([...new Set(urls)]).toEqual([
      'https://example.com/a(b%5Cc',
      'https://xn--fsqu00a.com/%E6%96%87%E6%A1%A3?q=%E8%B0%83%E5%BA%A6#%E7%AB%A0%E8%8A%82',
      'https://en.wikipedia.org/wiki/Scheduling_(computing)',
    ]);
    // Opened, the percent-encoded address is the one typed.
    expect(decodeURI(new URL(urls.at(-2)!).pathname)).toBe('/文档');
  });

  it('follows the page size and numbers the pages', async () => {
    const long = Array.from(
      { length: 120 },
      (_, index) => `段落 ${index}：${'进程调度与内存管理。'.repeat(6)}`,
    ).join('\n\n');
    const letter = await exportPdf(long, { page_size: 'Letter' });
    const info = poppler('pdfinfo', letter.data);
    expect(info).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
    const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
    expect(pages).toBeGreaterThan(3);
    expect(poppler('pdftotext', letter.data)).toMatch(new RegExp(`\\b${pages}\\s*/\\s*${pages}\\b`));
    const a4 = poppler('pdfinfo', (await exportPdf('x', { page_size: 'A4' })).data);
    expect(a4).toMatch(/Page size:\s+595.28 x 841.89 pts \(A4\)/);
  });

  it('warns about what it cannot set exactly and keeps it as source', async () => {
    const { data, warnings } = await exportPdf(
      'Energy $\\frac{1}{$.\n\n```mermaid\ngraph TD; A-->B\n```\n\n<div>raw</div>\n',
    );
    expect(warnings).toEqual([
      'PDF: a formula could not be typeset (Missing close brace); it is shown as its TeX source.',
      'PDF: Mermaid diagrams are shown as their source.',
      'PDF: raw HTML is left out.',
    ]);
    const text = poppler('pdftotext', data);
    expect(text).toContain('\\frac{1}{');
    expect(text).toContain('graph TD; A-->B');
  });

  it('draws a Mermaid diagram as the picture the page drew', async () => {
    const diagram =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect width="200" height="100" fill="#285aa0"/></svg>';
    const mermaid: MermaidStaticPort = {
      render: async () => ({ svg: diagram, width: 200, height: 100, warnings: [] }),
    };
    const rasterizer = testRasterizer([40, 90, 160]);
    const { data, warnings } = await exporter.export(
      documentFromMarkdown('Before\n\n```mermaid\ngraph TD; A-->B\n```\n\nAfter\n', 'x'),
      { ...testExportContext({ include_title: false }, mermaid), rasterizer },
    );
    expect(warnings).toEqual([]);
    expect(rasterizer.calls).toEqual([{ svg: diagram, width: 200, height: 100, scale: 2 }]);
    // One raster image at twice the diagram's CSS size.
    const images = poppler('pdfimages', data, '-list')
      .split('\n')
      .filter((line) => /^\s*1\s+\d+\s+image/.test(line));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/image\s+400\s+200\s+rgb/);
    const text = poppler('pdftotext', data);
    expect(text).not.toContain('graph TD');
    expect(text).toMatch(/Before[\s\S]*After/);
    // The picture is on the page: 150 × 75 pt of the diagram's colour.
    const [page] = render(data, 72);
    let painted = 0;
    for (let y = 0; y < (page as Raster).height; y++)
      for (let x = 0; x < (page as Raster).width; x++) {
        const [r, g, b] = (page as Raster).pixel(x, y);
        if (Math.abs(r - 40) + Math.abs(g - 90) + Math.abs(b - 160) < 12) painted += 1;
      }
    expect(painted).toBeGreaterThan(150 * 75 * 0.9);
  });

  it('draws the images a note holds, and says why one from the web is its alt text', async () => {
    // 8 × 4 pixels of one red.
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAIAAAA8r+mnAAAAEUlEQVR4nGM4o6SEFTFQTwIAuf4iAWrHAc4AAAAASUVORK5CYII=';
    const markdown = `Before\n\n![调度图](${png})\n\nText ![inline](${png}) after.\n\n![远程图](https://example.com/a.png)\n`;
    const { data, warnings } = await exportPdf(markdown, { include_title: false });
    expect(warnings).toEqual([
      'PDF: images that are not stored in the note (links to the web) are shown as their alt text.',
    ]);
    const images = poppler('pdfimages', data, '-list')
      .split('\n')
      .filter((line) => /^\s*1\s+\d+\s+image\s+8\s+4\s+rgb/.test(line));
    expect(images).toHaveLength(2);
    const text = poppler('pdftotext', data);
    expect(text).not.toContain('[调度图]');
    expect(text).not.toContain('[inline]');
    expect(text).toMatch(/Before[\s\S]*Text[\s\S]*after\.[\s\S]*\[远程图\]/);
  });

  it('draws a picture at the size Obsidian wrote for it and a highlight on the theme’s highlight colour', async () => {
    // 8 × 4 pixels of one red.
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAIAAAA8r+mnAAAAEUlEQVR4nGM4o6SEFTFQTwIAuf4iAWrHAc4AAAAASUVORK5CYII=';
    const markdown = `A ==bright day== out.\n\n![wide|200](${png})\n\n![box|120x90](${png})\n`;
    const { data } = await exportPdf(markdown, { include_title: false });
    // Scaled to its size in points (0.75 a CSS pixel) just before it is drawn.
    const placed = pdfStreams(data).flatMap((stream) =>
      Array.from(stream.matchAll(/q\n((?:[^\n]* cm\n)+)\/\S+ Do/g), (match) =>
        match[1]!
          .trim()
          .split('\n')
          .map((line) => line.split(' ').map(Number))
          .filter(([a, , , d, e, f]) => e === 0 && f === 0 && !(a === 1 && d === 1))
          .map(([a, , , d]) => `${Math.round(a! / 0.75)}x${Math.round(d! / 0.75)}`)
          .join(),
      ),
    );
    expect(placed).toEqual(['200x100', '120x90']);
    expect([...pdfFillColours(data)]).toContain('#fff4d6');
    expect(poppler('pdftotext', data)).toContain('A bright day out.');
  });

  it('warns, as the HTML and DOCX exports do, of a plotted function with no value to draw', async () => {
    const { data, warnings } = await exportPdf('```function-plot\ny = 0/0\ny = x | label: line\n```\n', {
      include_title: false,
    });
    expect(warnings).toEqual(['y = 0/0 has no finite value in the domain.']);
    expect(poppler('pdftotext', data)).toContain('line');
  });

  it('warns, as the HTML and DOCX exports do, of a mistyped plot setting it ignored', async () => {
    const { warnings } = await exportPdf('```function-plot\ny = 2x\ndomian: [0, 5]\n```\n', {
      include_title: false,
    });
    expect(warnings).toEqual(['Unknown setting "domian" is ignored; did you mean "domain"?']);
  });

  it('draws formulas as vector paths where the text flows, not as their TeX source', async () => {
    const markdown =
      'Before\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\nEnergy $E=mc^2$ here.\n\nAfter\n';
    const { data, warnings } = await exportPdf(markdown, { include_title: false });
    expect(warnings).toEqual([]);
    const text = poppler('pdftotext', data);
    expect(text).not.toContain('\\frac');
    expect(text).not.toContain('Formula (TeX)');
    expect(text).not.toContain('mc^2');
    // Paths, not pictures: no image on the page.
    expect(poppler('pdfimages', data, '-list').split('\n').slice(2).filter(Boolean)).toEqual([]);
    const cells = words(data);
    const box = (word: string) => {
      const cell = cells.find((item) => item.text === word);
      if (!cell) throw new Error(`no word ${word} in ${cells.map((item) => item.text).join(' ')}`);
      return cell;
    };
    const dpi = 150;
    const [page] = render(data, dpi);
    // The display formula fills the gap between "Before" and "Energy" with ink.
    const display = ink(page as Raster, dpi, {
      x0: 56,
      y0: box('Before').y1 + 2,
      x1: 540,
      y1: box('Energy').y0 - 2,
    });
    expect(display).toBeGreaterThan(400);
    // The inline formula sits between "Energy" and "here." on their line.
    const energy = box('Energy');
    const here = box('here.');
    expect(here.x0 - energy.x1).toBeGreaterThan(25);
    const inline = ink(page as Raster, dpi, {
      x0: energy.x1 + 1,
      y0: energy.y0 - 4,
      x1: here.x0 - 1,
      y1: energy.y1 + 2,
    });
    expect(inline).toBeGreaterThan(80);
    // Without the formulas the same places are blank.
    const plain = await exportPdf('Before\n\n$$\n$$\n\nEnergy here.\n\nAfter\n', { include_title: false });
    const plainCells = words(plain.data);
    const plainBefore = plainCells.find((item) => item.text === 'Before');
    const plainEnergy = plainCells.find((item) => item.text === 'Energy');
    const [plainPage] = render(plain.data, dpi);
    expect(
      ink(plainPage as Raster, dpi, {
        x0: 56,
        y0: (plainBefore?.y1 ?? 0) + 2,
        x1: 540,
        y1: (plainEnergy?.y0 ?? 0) - 2,
      }),
    ).toBe(0);
  });

  it('centres $$…$$ written inside a paragraph line on a line of its own, as the preview does', async () => {
    const tex = '\\int_0^1 x^2\\,dx = \\frac{1}{3}';
    const { data, warnings } = await exportPdf(`Before $$${tex}$$ after\n`, { include_title: false });
    expect(warnings).toEqual([]);
    const cells = words(data);
    const before = cells.find((item) => item.text === 'Before');
    const after = cells.find((item) => item.text === 'after');
    if (!before || !after) throw new Error(cells.map((item) => item.text).join(' '));
    // Not on one line with the text: the formula is set between, displayed at full size.
    expect(after.y0 - before.y1).toBeGreaterThan(20);
    const dpi = 150;
    const [page] = render(data, dpi);
    const band = { y0: before.y1 + 2, y1: after.y0 - 2 };
    // Centred on the page's text column (A4, 56 pt margins): nothing at the left, ink in the middle.
    expect(ink(page as Raster, dpi, { x0: 56, x1: 200, ...band })).toBe(0);
    expect(ink(page as Raster, dpi, { x0: 240, x1: 355, ...band })).toBeGreaterThan(300);
  });

  it('sets a Chinese word inside a formula in the CJK font', async () => {
    const { data, warnings } = await exportPdf('$$\n\\text{速度} = \\frac{s}{t}\n$$\n', {
      include_title: false,
    });
    expect(warnings).toEqual([]);
    expect(poppler('pdftotext', data)).toContain('速度');
  });

  it('slants italic words on the line they sit on, bold italic too, instead of tilting them upward', async () => {
    const { data } = await exportPdf('Plain *Round Robin* then ***bold italic*** and *斜体中文* end.');
    const line = words(data).filter((word) =>
      ['Plain', 'Round', 'Robin', 'then', 'bold', 'italic', 'and', 'end.'].includes(word.text),
    );
    expect(line.map((word) => word.text)).toEqual([
      'Plain',
      'Round',
      'Robin',
      'then',
      'bold',
      'italic',
      'and',
      'end.',
    ]);
    // A tilted baseline lifts each word's end above its start: every word shares Plain's line.
    const [plain] = line;
    for (const word of line) {
      expect(Math.abs(word.y1 - plain!.y1)).toBeLessThan(1);
      expect(word.y1 - word.y0).toBeLessThan((plain!.y1 - plain!.y0) * 1.2);
    }
    expect(poppler('pdftotext', data)).toContain('Plain Round Robin then bold italic and 斜体中文 end.');
  });

  it('draws bold text once, thickened, so copying and search read each character once', async () => {
    const note =
      '# 卷积神经网络\n\n**卷积**层提取特征，**池化 pooling** 层降采样。\n\n| **名称** | 作用 |\n|--|--|\n| 卷积 | 提取 |\n';
    const { data } = await exportPdf(note, { include_title: false });
    const text = poppler('pdftotext', data);
    expect(text).toContain('卷积神经网络');
    expect(text).toContain('卷积层提取特征，池化 pooling 层降采样。');
    expect(text).toMatch(/名称\s+作用/);
    expect(text).not.toMatch(/卷卷|积积|名名/);
    // Each bold run is drawn once, filled and outlined (render mode 2).
    expect(pdfStreams(data).join('\n')).toMatch(/\b2 Tr\b/);
    // Bold still looks bold: more ink than the same characters in a regular cell.
    const dpi = 144;
    const [page] = render(data, dpi);
    const cells = words(data);
    const bold = cells.find((word) => word.text === '名称');
    const regular = cells.find((word) => word.text === '卷积');
    expect(bold).toBeDefined();
    expect(regular).toBeDefined();
    expect(ink(page!, dpi, bold!)).toBeGreaterThan(ink(page!, dpi, regular!) * 1.05);
  });

  it('draws task boxes as lines: an empty box for open tasks, a ticked one for done tasks', async () => {
    const { data } = await exportPdf('- [x] done\n- [ ] todo\n- plain\n', { include_title: false });
    const dpi = 200;
    const [page] = render(data, dpi);
    const cells = words(data);
    const scale = dpi / 72;
    // The box is the square left of the item's first word, its size about 0.78 em.
    const boxOf = (word: string) => {
      const cell = cells.find((item) => item.text === word);
      if (!cell) throw new Error(`no word ${word}`);
      const side = 10.5 * 0.78;
      const bottom = cell.y1 - (cell.y1 - cell.y0) * 0.2;
      return { x0: cell.x0 - 6 - side, x1: cell.x0 - 6, y0: bottom - side, y1: bottom };
    };
    const inside = (box: { x0: number; x1: number; y0: number; y1: number }) => ({
      x0: box.x0 + 2,
      x1: box.x1 - 2,
      y0: box.y0 + 2,
      y1: box.y1 - 2,
    });
    const done = boxOf('done');
    const todo = boxOf('todo');
    // Both boxes have their outline: a frame of ink around them.
    const outline = (box: typeof done) =>
      ink(page as Raster, dpi, { ...box, x0: box.x0 - 1.5, x1: box.x0 + 1.5 }) +
      ink(page as Raster, dpi, { ...box, x0: box.x1 - 1.5, x1: box.x1 + 1.5 });
    expect(outline(done)).toBeGreaterThan(2 * 8 * scale);
    expect(outline(todo)).toBeGreaterThan(2 * 8 * scale);
    // The open box is empty inside (a missing glyph would print a crossed "tofu" box);
    // the done box holds its tick.
    expect(ink(page as Raster, dpi, inside(todo))).toBe(0);
    expect(ink(page as Raster, dpi, inside(done))).toBeGreaterThan(30);
    // A plain item keeps its bullet; no box left of it.
    const plain = boxOf('plain');
    expect(ink(page as Raster, dpi, inside(plain))).toBeGreaterThan(0);
    expect(outline(plain)).toBeLessThan(outline(todo) / 2);
    // The subset font carries no ☑ or ☐: nothing is set in a glyph the font lacks.
    expect(poppler('pdftotext', data)).not.toMatch(/[☑☐]/);
  });

  it('keeps a diagram the page cannot draw as source, with a warning', async () => {
    const mermaid: MermaidStaticPort = {
      render: async () => ({
        svg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
        width: 20,
        height: 10,
        warnings: [],
      }),
    };
    const { data, warnings } = await exporter.export(
      documentFromMarkdown('```mermaid\ngraph TD; A-->B\n```\n', 'x'),
      {
        ...testExportContext({}, mermaid),
        rasterizer: { rasterize: async () => Promise.reject(new Error('no canvas')) },
      },
    );
    expect(warnings).toEqual(['PDF: a diagram could not be drawn as a picture (no canvas).']);
    expect(poppler('pdftotext', data)).toContain('graph TD; A-->B');
  });

  it('fails with EXPORT_RENDER_FAILED when the subsetter cannot load, and loads it again next time', async () => {
    let loads = 0;
    const flaky = createPdfExporter(loadFont, async () => {
      loads += 1;
      if (loads === 1) throw new Error('offline');
      return createHarfBuzzSubsetter(async () => readFileSync(wasmPath));
    });
    const document = documentFromMarkdown('进程调度', 'x');
    await expect(flaky.export(document, testExportContext())).rejects.toMatchObject({
      code: 'EXPORT_RENDER_FAILED',
      message: 'The PDF font could not be subset: offline',
    });
    const { data } = await flaky.export(document, testExportContext());
    expect(poppler('pdftotext', data)).toContain('进程调度');
    expect(loads).toBe(2);
  });

  it('loads the font once for many exports', async () => {
    const before = fontReads;
    await exportPdf('a');
    await exportPdf('b');
    expect(fontReads - before).toBeLessThanOrEqual(2);
  });

  it('draws a dark theme as light text on a dark page, every page, with the text still selectable', async () => {
    const theme: ExportTheme = {
      theme_id: 'dark',
      is_dark: true,
      css: themeStylesheet({ is_dark: true, css: null }),
    };
    const long = `${NOTE}\n${Array.from({ length: 60 }, (_, index) => `段落 ${index}: ${'调度 scheduling. '.repeat(8)}`).join('\n\n')}`;
    const { data } = await exportPdf(long, {}, theme);
    const pages = render(data, 60);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      // The corner is outside the margins: only the page background is there (#16181d).
      expect(page.pixel(2, 2)).toEqual([0x16, 0x18, 0x1d]);
      expect(page.pixel(page.width - 3, page.height - 3)).toEqual([0x16, 0x18, 0x1d]);
    }
    // The text is the theme's light text colour (#e6e8eb), not the dark print colour.
    const [r, g, b] = lightest(pages[0] as Raster);
    expect(Math.abs(r - 0xe6) + Math.abs(g - 0xe8) + Math.abs(b - 0xeb)).toBeLessThanOrEqual(12);
    const text = poppler('pdftotext', data);
    expect(text).toContain('进程调度 decides which process runs next.');
    expect(text).toContain('SJF：最短作业优先');
  });

  it("takes a package theme's colours, and stays white paper with dark text without a theme", async () => {
    const sepia: ExportTheme = {
      theme_id: 'sepia',
      is_dark: false,
      css: themeStylesheet({
        is_dark: false,
        css: ':root { --color-bg: #f4ecd8; --color-text: rgb(91, 70, 54); }',
      }),
    };
    const [themed] = render((await exportPdf(NOTE, {}, sepia)).data, 60);
    expect(themed?.pixel(2, 2)).toEqual([0xf4, 0xec, 0xd8]);
    const [plain] = render((await exportPdf(NOTE)).data, 60);
    expect(plain?.pixel(2, 2)).toEqual([255, 255, 255]);
    // The darkest pixel of the plain page is the print text colour rgb(0.12, 0.16, 0.22).
    let darkest = 255;
    for (let y = 0; y < (plain as Raster).height; y++)
      for (let x = 0; x < (plain as Raster).width; x++)
        darkest = Math.min(darkest, luminance((plain as Raster).pixel(x, y)));
    expect(darkest).toBeLessThan(60);
  });

  it('draws fenced code a colour per token in the code theme, on its background, still as text', async () => {
    const note = '```python\ndef fib(n):\n    return "hi" if n else fib(n - 1)  # 计算\n```\n';
    const light = (await exportPdf(note)).data;
    expect([...pdfFillColours(light)]).toEqual(expect.arrayContaining(['#d73a49', '#032f62', '#6a737d']));
    const text = poppler('pdftotext', light);
    expect(text).toContain('def fib(n):');
    expect(text).toContain('return "hi" if n else fib(n - 1)');
    expect(text).toContain('计算');
    const [page] = render(light, 150);
    const def = words(light).find((word) => word.text === 'def');
    expect(def).toBeDefined();
    expect(nearest(page as Raster, 150, def!, '#d73a49')).toBeLessThan(40);

    const dark = (await exportPdf(note, { code_theme: 'github-dark' })).data;
    expect([...pdfFillColours(dark)]).toEqual(expect.arrayContaining(['#ff7b72', '#a5d6ff', '#0d1117']));
    const [darkPage] = render(dark, 150);
    const darkDef = words(dark).find((word) => word.text === 'def')!;
    // Left of the first word is the block's padding: the dark code background.
    expect(
      (darkPage as Raster).pixel(
        Math.floor((darkDef.x0 - 4) * (150 / 72)),
        Math.floor(((darkDef.y0 + darkDef.y1) / 2) * (150 / 72)),
      ),
    ).toEqual([0x0d, 0x11, 0x17]);
    expect(nearest(darkPage as Raster, 150, darkDef, '#ff7b72')).toBeLessThan(40);

    const plain = (await exportPdf(note, { code_theme: 'none' })).data;
    expect([...pdfFillColours(plain)]).not.toContain('#d73a49');
    expect(poppler('pdftotext', plain)).toContain('def fib(n):');
  });

  it('prints the title and the front matter only when asked', async () => {
    const note = '---\nauthor: 李雷\ncourse: OS-101\n---\n正文。\n';
    const plain = poppler('pdftotext', (await exportPdf(note, { include_title: false })).data);
    expect(plain).toContain('正文。');
    expect(plain).not.toContain('操作系统复习');
    expect(plain).not.toContain('李雷');
    const full = poppler(
      'pdftotext',
      (await exportPdf(note, { include_title: true, include_metadata: true })).data,
    );
    expect(full).toContain('操作系统复习');
    expect(full).toContain('author: 李雷');
    expect(full).toContain('course: OS-101');
  });

  describe('footnotes', () => {
    it('leaves no empty bullet where a list item held only a footnote definition', async () => {
      const { data } = await exporter.export(
        documentFromMarkdown(FOOTNOTE_LIST_HANDOUT, '要点'),
        testExportContext({ include_title: false }),
      );
      const text = poppler('pdftotext', data);
      expect(text.match(/•/g)).toHaveLength(1);
      expect(text).toMatch(/•\s*真正的要点/);
      // All three are referred to on the page, so they stand at its foot, under the text.
      const notes = text.slice(text.indexOf('参考：'));
      expect(notes).toMatch(/1 第一条脚注。\s+2 第二条脚注。\s+3 混在要点里的脚注。/);
      expect(text).not.toContain('注释');
      expect(text.match(/混在要点里的脚注/g)).toHaveLength(1);
    });

    it('sets raised numbers in the text and the notes, numbered by first reference, at the foot of the page', async () => {
      const { data, warnings } = await exporter.export(
        documentFromMarkdown(FOOTNOTES, '调度'),
        testExportContext({ include_title: false }),
      );
      expect(warnings).toEqual([]);
      const text = poppler('pdftotext', data);
      expect(text).toContain('FCFS1 与时间片轮转2，见教材3，再看 FCFS1。未定义的[^missing]照原样。');
      expect(text).not.toContain('[^1]');
      expect(text).not.toContain('[^fcfs]');
      // The note nothing refers to has no page to stand at the foot of: it is an endnote under 注释.
      const notes = text.slice(text.indexOf('注释\n'));
      expect(notes).toMatch(
        /^注释\n4\. 没有被引用的脚注。\s+1 先来先服务。\s+2 Round robin：每个进程轮流使用 q 个时间片，[\s\S]*\s3 Tanenbaum, Modern Operating Systems, see the book\.\n/,
      );
      // Each definition is set once, in the notes, not also where it was written.
      expect(text.match(/先来先服务/g)).toHaveLength(1);

      const all = words(data);
      const word = all.find((w) => w.text === 'FCFS');
      const marker = all.find((w) => w.text === '1' && word !== undefined && w.x0 >= word.x1 - 0.5);
      expect(word && marker).toBeTruthy();
      if (!word || !marker) return;
      // Smaller and above the line's baseline: a superscript.
      expect(marker.y1 - marker.y0).toBeLessThan((word.y1 - word.y0) * 0.75);
      expect(marker.y1).toBeLessThan(word.y1 - 2);
      // The note's link is still a link.
      expect(poppler('pdftohtml', data, '-xml', '-i', '-stdout', '-q')).toContain('https://example.com/mos');
    });

    it('links each number to its note at the foot of a later page and the note back to the text', async () => {
      const filler = Array.from({ length: 60 }, (_, index) => `第 ${index + 1} 段。`).join('\n\n');
      const { data } = await exporter.export(
        documentFromMarkdown(
          `${filler}\n\nFCFS[^fcfs] 与[^rr]。\n\n[^rr]: Round robin.\n[^fcfs]: 先来先服务。\n`,
          '调度',
        ),
        testExportContext({ include_title: false }),
      );
      expect(poppler('pdftotext', data, '-f', '1', '-l', '1')).not.toContain('先来先服务');
      expect(poppler('pdftotext', data, '-f', '2', '-l', '2')).toMatch(/1 先来先服务。\s+2 Round robin\./);
      const xml = poppler('pdftohtml', data, '-xml', '-i', '-stdout', '-q');
      // pdftohtml writes a link into the document as `#<page>`: references and notes are on page 2.
      expect(xml).toMatch(/<text [^>]*><a href="[^"#]*#2">1<\/a><\/text>/);
      expect(xml).toMatch(/<text [^>]*><a href="[^"#]*#2">2<\/a><\/text>/);
      const links = poppler('pdftohtml', data, '-xml', '-stdout', '-q', '-f', '2', '-l', '2');
      expect(links.match(/href="[^"#]*#2"/g)?.length ?? 0).toBeGreaterThanOrEqual(4);
    });

    it('continues a note too long for the rest of its page at the foot of the next', async () => {
      const filler = Array.from({ length: 31 }, (_, index) => `第 ${index + 1} 段。`).join('\n\n');
      const long = Array.from(
        { length: 12 },
        (_, index) => `第 ${index + 1} 句很长的脚注文字，讲时间片轮转的细节。`,
      ).join('');
      const { data } = await exporter.export(
        documentFromMarkdown(`${filler}\n\n轮转[^rr]。\n\n后文。\n\n[^rr]: ${long}\n`, '调度'),
        testExportContext({ include_title: false }),
      );
      const first = poppler('pdftotext', data, '-f', '1', '-l', '1');
      const second = poppler('pdftotext', data, '-f', '2', '-l', '2');
      // The reference and the start of its note share page 1; the note goes on at page 2's foot.
      expect(first).toContain('轮转1。');
      expect(first).toContain('1 第 1 句很长的脚注文字');
      expect(second).not.toContain('轮转1');
      expect(second).toContain('第 12 句很长的脚注文字');
      expect(second.indexOf('后文。')).toBeLessThan(second.indexOf('第 12 句'));
      expect(poppler('pdftotext', data).match(/第 12 句/g)).toHaveLength(1);
    });

    it('sets notes at the foot, heads notes nothing refers to "Notes" in an English note, and writes none without footnotes', async () => {
      const { data } = await exporter.export(
        documentFromMarkdown('See[^note] and[^2].\n\n[^2]: Two.\n[^note]: Named.\n', 'Scheduling'),
        testExportContext({ include_title: false }),
      );
      expect(poppler('pdftotext', data)).toMatch(/See1 and2\.\s+1 Named\.\n2 Two\.\n/);
      const unreferenced = await exporter.export(
        documentFromMarkdown('See[^note].\n\n[^note]: Named.\n[^spare]: Spare.\n', 'Scheduling'),
        testExportContext({ include_title: false }),
      );
      expect(poppler('pdftotext', unreferenced.data)).toMatch(/See1\.\s+Notes\n2\. Spare\.\s+1 Named\./);
      const plain = await exporter.export(
        documentFromMarkdown('A [^dangling] one.\n', 'Scheduling'),
        testExportContext({ include_title: false }),
      );
      const text = poppler('pdftotext', plain.data);
      expect(text).toContain('A [^dangling] one.');
      expect(text).not.toContain('Notes');
    });
  });
});
