import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import mammoth from 'mammoth';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * A lecturer's handout with footnotes, as the preview shows it: numbers in reading order, a
 * named note, one note referred to twice, and a `[^x]` nothing defines, which stays as typed.
 */
const FILLER = Array.from({ length: 40 }, (_, index) => `第 ${index + 1} 段：调度算法的比较。`).join('\n\n');
const HANDOUT = `# 进程调度

FCFS[^fcfs] 与时间片轮转[^rr]，见教材[^1]。再说 FCFS[^fcfs]，未定义的[^todo]照原样。

${FILLER}

[^1]: Tanenbaum, *Modern Operating Systems*, [出版社页面](https://example.com/mos).
[^rr]: Round robin：每个进程轮流使用 $q$ 毫秒的时间片，**公平**。
[^fcfs]: 先来先服务。
`;

async function exportNote(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
  return (await download).path();
}

async function writeHandout(page: Page): Promise<void> {
  await openApp(page);
  await createNote(page, '进程调度讲义', HANDOUT);
}

test('in the HTML export, footnotes are superscript numbers that lead to the notes at the end and back', async ({
  page,
  requestLog,
}) => {
  await writeHandout(page);
  const html = await readFile(await exportNote(page, 'html'), 'utf8');
  expect(html).not.toContain('[^1]');
  expect(html).toContain('未定义的[^todo]照原样');
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  const references = viewer.locator('sup.footnote-ref a');
  await expect(references).toHaveText(['1', '2', '3', '1']);
  const notes = viewer.locator('section.footnotes li');
  await expect(notes).toHaveCount(3);
  await expect(notes.nth(0)).toContainText('先来先服务。');
  await expect(notes.nth(1)).toContainText('Round robin：每个进程轮流使用');
  await expect(notes.nth(1).locator('strong')).toHaveText('公平');
  await expect(notes.nth(1).locator('math')).toBeAttached();
  await expect(notes.nth(2).locator('em')).toHaveText('Modern Operating Systems');
  await expect(notes.nth(2).getByRole('link', { name: '出版社页面' })).toHaveAttribute(
    'href',
    'https://example.com/mos',
  );
  await expect(notes.nth(1)).not.toBeInViewport();
  await references.nth(1).click();
  await expect(notes.nth(1)).toBeInViewport();
  await notes.nth(1).locator('a.footnote-back').click();
  await expect(references.nth(1)).toBeInViewport();
  // The note referred to twice leads back to both places.
  await expect(notes.nth(0).locator('a.footnote-back')).toHaveCount(2);
  await viewer.close();
  expect(requestLog.foreign()).toEqual([]);
});

test("in the DOCX export, footnotes are Word's own, which Word sets at the foot of the page", async ({
  page,
  requestLog,
}) => {
  await writeHandout(page);
  const docxBytes = await readFile(await exportNote(page, 'docx'));
  const docx = unzipSync(docxBytes);
  const documentXml = new TextDecoder().decode(docx['word/document.xml']);
  const footnotesXml = new TextDecoder().decode(docx['word/footnotes.xml']);
  const referenced = [...documentXml.matchAll(/<w:footnoteReference w:id="(\d+)"\/>/g)].map(
    (match) => match[1],
  );
  expect(referenced).toEqual(['1', '2', '3']);
  expect(footnotesXml).toMatch(/<w:footnote w:id="1">.*先来先服务。/);
  expect(footnotesXml).toMatch(/<w:footnote w:id="2">.*Round robin/);
  expect(footnotesXml).toMatch(/<w:footnote w:id="3">.*Tanenbaum/);
  expect(documentXml).not.toContain('[^1]');
  expect(documentXml).not.toContain('先来先服务');
  const { value: wordHtml } = await mammoth.convertToHtml({ buffer: docxBytes });
  expect(wordHtml).toContain('FCFS<sup><a href="#footnote-1" id="footnote-ref-1">[1]</a></sup> 与时间片轮转');
  expect(requestLog.foreign()).toEqual([]);
});

test('in the PDF export, footnotes are raised numbers in the text and numbered notes at the foot of the page that refers to them', async ({
  page,
  requestLog,
}) => {
  await writeHandout(page);
  const path = await exportNote(page, 'pdf');
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(text).toContain('FCFS1 与时间片轮转2，见教材3。再说 FCFS1，未定义的[^todo]照原样。');
  expect(text).not.toContain('[^1]');
  expect(text).not.toContain('[^fcfs]');
  const firstPage = execFileSync('pdftotext', ['-f', '1', '-l', '1', path, '-'], { encoding: 'utf8' });
  expect(firstPage).toMatch(/1 先来先服务。\s+2 Round robin：每个进程轮流使用/);
  expect(firstPage).toContain('3 Tanenbaum, Modern Operating Systems, 出版社页面.');
  expect(text).not.toContain('注释');
  expect(requestLog.foreign()).toEqual([]);
});
