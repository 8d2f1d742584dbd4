import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * Lecture notes long enough for three pages: a footnote referred to on the first page, one
 * referred to on a later page, and a formula with words in `\text{}`.
 */
const FILLER = (from: number, count: number) =>
  Array.from(
    { length: count },
    (_, index) =>
      `Paragraph ${from + index} compares scheduling policies by waiting time, turnaround and fairness across several workloads.`,
  ).join('\n\n');
const LECTURE = `Round robin gives each process a fixed quantum[^quantum] before it moves to the back of the queue.

${FILLER(1, 45)}

Shortest job first needs the burst length in advance[^burst], which the scheduler can only estimate.

The average rate is $\\text{speed} = d/t$ over the whole run.

${FILLER(46, 10)}

[^quantum]: Zanzibar quantum: typically ten to a hundred milliseconds.
[^burst]: Yodelling estimate: an exponential average of the previous bursts.
`;

interface Word {
  text: string;
  y0: number;
  y1: number;
}

function pdftotext(path: string, ...args: string[]): string {
  return execFileSync('pdftotext', [...args, path, '-'], { encoding: 'utf8' });
}

function pageCount(path: string): number {
  const info = execFileSync('pdfinfo', [path], { encoding: 'utf8' });
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? 0);
}

/** The words poppler reads on page `page`, with their boxes in points from the page's top. */
function wordsOn(path: string, page: number): Word[] {
  const html = pdftotext(path, '-bbox', '-f', String(page), '-l', String(page));
  return Array.from(
    html.matchAll(/<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g),
    (match) => ({ text: match[3] ?? '', y0: Number(match[1]), y1: Number(match[2]) }),
  );
}

/** The page (1-based) whose text holds `needle`. */
function pageHolding(path: string, pages: number, needle: string): number[] {
  const found: number[] = [];
  for (let page = 1; page <= pages; page++)
    if (pdftotext(path, '-f', String(page), '-l', String(page)).includes(needle)) found.push(page);
  return found;
}

async function exportPdf(page: Page): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  return (await download).path();
}

test('in the PDF export, each footnote is printed at the foot of the page that refers to it', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Scheduling lecture', LECTURE);
  const path = await exportPdf(page);
  const pages = pageCount(path);
  expect(pages).toBeGreaterThanOrEqual(3);

  const notes = [
    { reference: 'quantum1', text: 'Zanzibar', body: 'Round' },
    { reference: 'advance2', text: 'Yodelling', body: 'Shortest' },
  ];
  for (const note of notes) {
    // The reference's page holds the note, and no other page does.
    const [referencePage] = pageHolding(path, pages, note.reference);
    expect(referencePage).toBeDefined();
    expect(pageHolding(path, pages, note.text)).toEqual([referencePage]);
    // Below all the body text of that page, above nothing but its page number.
    const words = wordsOn(path, referencePage ?? 0);
    const noteWord = words.find((word) => word.text === note.text);
    expect(noteWord).toBeDefined();
    const bodyWords = words.filter((word) => /^(Paragraph|Round|Shortest|The)$/.test(word.text));
    expect(bodyWords.length).toBeGreaterThan(0);
    for (const word of bodyWords) expect(word.y1).toBeLessThan(noteWord?.y0 ?? 0);
  }
  // Numbered as in the text, the number before the note's words.
  expect(pdftotext(path)).toMatch(/1\s*Zanzibar quantum: typically ten/);
  expect(pdftotext(path)).toMatch(/2\s*Yodelling estimate/);
  // The first reference sits on the first page, so its note does too, not at the document's end.
  expect(pageHolding(path, pages, 'Zanzibar')).toEqual([1]);
  expect(requestLog.foreign()).toEqual([]);
});

test("words in a formula's \\text{} are copied and found once in the exported PDF", async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(
    page,
    'Rates',
    'The average rate is $\\text{speed} = d/t$ over the run.\n\n平均速率 $\\text{速度} = d/t$ 按全程计。\n',
  );
  const text = pdftotext(await exportPdf(page));
  expect(text).toContain('speed = d/t');
  expect(text).toContain('速度 = d/t');
  // The formula is drawn, and its text laid over it once: not the drawing's words a second time.
  expect(text.match(/speed/g) ?? []).toHaveLength(1);
  expect(text.match(/速/g) ?? []).toHaveLength(2);
  expect(text.match(/速度/g) ?? []).toHaveLength(1);
  expect(requestLog.foreign()).toEqual([]);
});
