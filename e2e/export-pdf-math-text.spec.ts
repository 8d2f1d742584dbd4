import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNote, expect, openApp, test } from './fixtures';

/** A control-theory lecture note: inline formulas in Chinese sentences and a displayed one. */
const LECTURE = `# 二阶系统

传递函数 $G(s)=\\frac{1}{s^2+2\\zeta\\omega_n s+\\omega_n^2}$，阻尼比 $\\zeta$ 决定超调。

Lyapunov 方程

$$
A^TP+PA=-Q
$$

之后的段落。
`;

interface Word {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The words poppler reads on page 1, with their boxes in points from the top left. */
function words(path: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', '-f', '1', '-l', '1', path, '-'], { encoding: 'utf8' });
  return Array.from(
    html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g),
    (match) => ({
      text: match[5] ?? '',
      x0: Number(match[1]),
      y0: Number(match[2]),
      x1: Number(match[3]),
      y1: Number(match[4]),
    }),
  );
}

/** Dark pixels of page 1 (rendered by poppler at 72 dpi, one pixel a point) inside `box`. */
function inkIn(path: string, box: { x0: number; y0: number; x1: number; y1: number }): number {
  const prefix = join(mkdtempSync(join(tmpdir(), 'pdf-math-')), 'page');
  execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-singlefile', path, prefix]);
  const ppm = readFileSync(`${prefix}.ppm`);
  // P6 header: magic, width, height, maxval, each followed by whitespace; then RGB bytes.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error('not a PPM');
  const width = Number(header[1]);
  const start = header[0].length;
  let dark = 0;
  for (let y = Math.floor(box.y0); y < Math.ceil(box.y1); y++)
    for (let x = Math.floor(box.x0); x < Math.ceil(box.x1); x++) {
      const at = start + (y * width + x) * 3;
      if ((ppm[at] ?? 255) + (ppm[at + 1] ?? 255) + (ppm[at + 2] ?? 255) < 300) dark += 1;
    }
  return dark;
}

test('formulas in an exported PDF can be searched and copied as text, and are still drawn', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '二阶系统', LECTURE);
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  const path = await (await download).path();

  // Searching the PDF for the formula, or for ζ, finds it where the sentence has it.
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(text).toContain('传递函数 G(s) = 1/(s² + 2ζω_n s + ω_n^2)，阻尼比 ζ 决定超调。');
  expect(text).toContain('A^T P + PA = −Q');

  // The text lies over the drawn formulas, which the page still shows.
  const cells = words(path);
  const at = (word: string) => {
    const cell = cells.find((item) => item.text === word);
    if (!cell) throw new Error(`no word ${word} in ${cells.map((item) => item.text).join(' ')}`);
    return cell;
  };
  const inline = at('G(s)');
  const display = at('PA');
  expect(inkIn(path, inline)).toBeGreaterThan(10);
  expect(inkIn(path, display)).toBeGreaterThan(10);
  // The display formula is centred between "Lyapunov 方程" and the paragraph after it.
  expect(display.y0).toBeGreaterThan(at('Lyapunov').y1);
  expect(display.y1).toBeLessThan(at('之后的段落。').y0);
  expect(requestLog.foreign()).toEqual([]);
});
