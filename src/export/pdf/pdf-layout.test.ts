import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { documentFromMarkdown } from '../../core/markdown/document-ast';
import { testExportContext } from '../test-context';
import { createHarfBuzzSubsetter } from './font-subset';
import { createPdfExporter } from './pdf-exporter';
import {
  FONT_PATH,
  MONO_FONT_PATH,
  WASM_PATH,
  fileLoader,
  outlineTitles,
  poppler,
  render,
  words,
  type Word,
} from './testing/poppler';

const exporter = createPdfExporter(
  fileLoader(FONT_PATH),
  async () => createHarfBuzzSubsetter(async () => readFileSync(WASM_PATH)),
  fileLoader(MONO_FONT_PATH),
);

const REVIEW = `## 进程调度 Process scheduling

Call \`fcfs(jobs)\` first.

\`\`\`python
def fcfs(jobs):
    # 计算平均等待时间
    t = 0
\treturn sum(t := t + j for j in jobs) / len(jobs)
\`\`\`

## 表格 Table

| 名称 | 时间 | 状态 |
|:--|--:|:-:|
| FCFS | 10 | ok |
`;

async function exportPdf(markdown: string, options: Parameters<typeof testExportContext>[0] = {}) {
  return exporter.export(
    documentFromMarkdown(markdown, '操作系统/复习 OS review'),
    testExportContext(options),
  );
}

function find(cells: readonly Word[], text: string): Word {
  const cell = cells.find((item) => item.text === text);
  if (!cell) throw new Error(`no word ${text} in ${cells.map((item) => item.text).join(' ')}`);
  return cell;
}

/** A4 less two 56 pt margins. */
const LEFT = 56;
const COLUMN = 595.28 - 2 * LEFT;

describe('PDF layout of what a note shows', () => {
  it('keeps code indentation in a monospaced font, Chinese comments included', async () => {
    const { data, warnings } = await exportPdf(REVIEW);
    expect(warnings).toEqual([]);
    const lines = poppler('pdftotext', data, '-layout').split('\n');
    const line = (start: string) => {
      const found = lines.find((item) => item.trimStart().startsWith(start));
      if (found === undefined) throw new Error(`no line ${start} in\n${lines.join('\n')}`);
      return found;
    };
    const indent = (start: string) => line(start).length - line(start).trimStart().length;
    expect(indent('# 计算平均等待时间') - indent('def fcfs(jobs):')).toBe(4);
    expect(indent('t = 0') - indent('def fcfs(jobs):')).toBe(4);
    // The tab runs to the same stop as four spaces.
    expect(indent('return sum(t := t + j for j in jobs)') - indent('def fcfs(jobs):')).toBe(4);
    // On the page: one column of the monospaced font is 0.525 em of 9.45 pt.
    const cells = words(data);
    const column = 0.525 * 9.45;
    expect(find(cells, '#').x0 - find(cells, 'def').x0).toBeCloseTo(4 * column, 0);
    expect(find(cells, 't').x0 - find(cells, 'def').x0).toBeCloseTo(4 * column, 0);
    expect(find(cells, 'fcfs(jobs):').x0 - find(cells, 'def').x0).toBeCloseTo(4 * column, 0);
    expect(poppler('pdffonts', data)).toMatch(
      /[A-Z]{6}\+KaTeX_Typewriter-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/,
    );
  });

  it('wraps a code line too long for the page to its own indent, every character kept', async () => {
    const long = `    total = ${Array.from({ length: 14 }, (_, index) => `job_${index}`).join(' + ')}`;
    const { data } = await exportPdf(`\`\`\`\ndef f():\n${long}\n\`\`\`\n`, { include_title: false });
    const text = poppler('pdftotext', data, '-layout');
    expect(text.replace(/\s+/g, ' ')).toContain(long.trim());
    const cells = words(data);
    const continued = cells.filter((cell) => cell.y0 > find(cells, 'total').y1);
    expect(continued.length).toBeGreaterThan(0);
    // The continuation starts where the line's own text does, not at the block's edge.
    expect(continued[0]?.x0).toBeCloseTo(find(cells, 'total').x0, 0);
  });

  it('writes outline titles in UTF-16, so Chinese headings read back as written', async () => {
    const { data } = await exportPdf(REVIEW);
    expect(outlineTitles(data)).toEqual(['进程调度 Process scheduling', '表格 Table']);
  });

  it('aligns table cells as the Markdown says: left, right, centre', async () => {
    const { data } = await exportPdf(REVIEW);
    const cells = words(data);
    const third = COLUMN / 3;
    // Text sits 4 pt inside its cell.
    expect(find(cells, 'FCFS').x0).toBeCloseTo(LEFT + 4, 0);
    // A bold header reads back as one word, as written.
    expect(find(cells, '名称').x0).toBeCloseTo(LEFT + 4, 0);
    const rightEdge = LEFT + 2 * third - 4;
    expect(Math.abs(find(cells, '10').x1 - rightEdge)).toBeLessThan(1);
    expect(Math.abs(find(cells, '时间').x1 - rightEdge)).toBeLessThan(1.5);
    const ok = find(cells, 'ok');
    expect(Math.abs((ok.x0 + ok.x1) / 2 - (LEFT + 2.5 * third))).toBeLessThan(1);
  });

  it('sets inline code in the monospaced font on a tinted background', async () => {
    const { data } = await exportPdf(REVIEW, { include_title: false });
    const xml = poppler('pdftohtml', data, '-xml', '-i', '-stdout', '-q');
    const fonts = new Map(
      Array.from(xml.matchAll(/<fontspec id="(\d+)"[^>]*family="([^"]+)"/g), (match) => [match[1], match[2]]),
    );
    const run = /<text [^>]*font="(\d+)"[^>]*>([^<]*fcfs\(jobs\)[^<]*)<\/text>/.exec(xml);
    expect(run?.[2]).toBe('fcfs(jobs)');
    expect(fonts.get(run?.[1] ?? '')).toMatch(/KaTeX_Typewriter/);
    // The page is white; under the code word it is the code background (rgb 0.95, 0.96, 0.97).
    const dpi = 144;
    const [page] = render(data, dpi);
    const word = find(words(data), 'fcfs(jobs)');
    const at = (x: number, y: number) => page?.pixel(Math.round((x * dpi) / 72), Math.round((y * dpi) / 72));
    expect(at(word.x0 + 0.5, word.y0 + 0.5)).toEqual([242, 245, 247]);
    expect(at(find(words(data), 'Call').x0, word.y0 + 0.5)).toEqual([255, 255, 255]);
  });

  it('keeps each heading on the page of what follows it', async () => {
    // Sections of varying length put the headings at every height of the pages, the foot included.
    const sections = Array.from({ length: 24 }, (_, index) => {
      const filler = Array.from({ length: (index % 7) + 1 }, () => '调度 scheduling text.').join('\n\n');
      const follows =
        index % 2 === 0
          ? `| 名称${index} | 时间 |\n|:--|--:|\n| a | 1 |`
          : `\`\`\`function-plot\ny = sin(x) | label: curve${index}\n\`\`\``;
      return `${filler}\n\n## Heading${index}\n\n${follows}\n`;
    });
    const { data } = await exportPdf(sections.join('\n'), { include_title: false });
    const pages = Number(/Pages:\s+(\d+)/.exec(poppler('pdfinfo', data))?.[1]);
    expect(pages).toBeGreaterThan(5);
    let headings = 0;
    for (let page = 1; page <= pages; page++) {
      const text = poppler('pdftotext', data, '-f', String(page), '-l', String(page));
      for (const match of text.matchAll(/Heading(\d+)/g)) {
        headings += 1;
        const index = Number(match[1]);
        expect(text, `Heading${index} on page ${page}`).toContain(
          index % 2 === 0 ? `名称${index}` : `curve${index}`,
        );
      }
    }
    expect(headings).toBe(24);
  }, 30_000);

  it('draws a plot with ticks on both axes and a grid, as the HTML and DOCX plots have', async () => {
    const source = '```function-plot\ny = sin(x) | label: 正弦\ndomain: -6.28, 6.28\n```\n';
    const { data } = await exportPdf(source, { include_title: false });
    const cells = words(data);
    const yTicks = ['1', '0.5', '0', '-0.5', '-1'].map(
      (text) => cells.filter((cell) => cell.text === text).sort((a, b) => a.x0 - b.x0)[0],
    );
    // The y ticks stand right-aligned in one column left of the plot, top to bottom.
    for (const tick of yTicks) expect(tick?.x1).toBeCloseTo(yTicks[0]?.x1 ?? 0, 0);
    const tops = yTicks.map((tick) => tick?.y0 ?? 0);
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);
    for (const text of ['-6', '-4', '-2', '2', '4', '6']) expect(find(cells, text)).toBeDefined();
    // Each y tick has its grid line across the plot.
    const dpi = 144;
    const [page] = render(data, dpi);
    const scale = dpi / 72;
    const half = yTicks[1] as Word;
    const y = Math.round(((half.y0 + half.y1) / 2) * scale);
    const from = Math.round((half.x1 + 40) * scale);
    let drawn = 0;
    for (let x = from; x < from + 200; x++) {
      const column = [-2, -1, 0, 1, 2].map((dy) => page?.pixel(x, y + dy) ?? [255, 255, 255]);
      if (column.some(([r = 255]) => r < 245)) drawn += 1;
    }
    expect(drawn).toBeGreaterThan(190);
  });
});
