import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { pdfFillColours } from '../src/export/pdf/testing/fill-colours';
import { pdfStreams } from '../src/export/pdf/testing/content-streams';
import { expect, openApp, test } from './fixtures';
import { importVaultZip, pngOf } from './harness/vault-import';

// Obsidian's picture sizes (`![[photo.png|200]]`, `![alt|120x90](photo.png)`) and
// `==highlights==` as the writer meant them: in the preview, in every export format, and
// back out of a vault export.

const TRIP = '# Trip\n\nA ==bright day== out.\n\n![[photo.png|200]]\n\n![Sunset|120x90](photo.png)\n';

/** Imports a vault of one note, `Trip`, and its 40 × 20 picture, and opens the note. */
async function openTrip(page: Page): Promise<void> {
  await openApp(page);
  await importVaultZip(page, { 'vault/Trip.md': TRIP, 'vault/photo.png': await pngOf(page, 40, 20) });
  await page.getByTestId('note-item').filter({ hasText: 'Trip' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Trip');
}

async function exported(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<Buffer> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
  const bytes = await readFile(await (await download).path());
  await expect(page.getByTestId('export-status')).toHaveCount(0);
  return bytes;
}

/** The size (CSS pixels) the preview draws a loaded picture at. */
function drawnSize(page: Page, alt: string): Promise<string> {
  return page
    .getByTestId('preview')
    .locator(`img[alt="${alt}"]`)
    .evaluate((image: HTMLImageElement) => {
      if (!image.complete || image.naturalWidth === 0) return 'loading';
      const box = image.getBoundingClientRect();
      return `${Math.round(box.width)}x${Math.round(box.height)}`;
    })
    .catch(() => 'missing');
}

test('a picture sized in Obsidian keeps its size through the import, in the preview and in a vault export', async ({
  page,
}) => {
  await openTrip(page);
  await expect(page.getByTestId('note-body')).toHaveValue(
    /!\[photo\|200\]\(attachment:attachment_[0-9a-f]+\)\n\n!\[Sunset\|120x90\]\(attachment:attachment_[0-9a-f]+\)/,
  );
  // The width as written, the height in proportion unless written too.
  await expect.poll(() => drawnSize(page, 'photo')).toBe('200x100');
  await expect.poll(() => drawnSize(page, 'Sunset')).toBe('120x90');
  await expect(page.getByTestId('preview').locator('mark')).toHaveText('bright day');

  const download = page.waitForEvent('download');
  await page.getByTestId('export-all').click();
  const files = unzipSync(new Uint8Array(await readFile(await (await download).path())));
  const note = new TextDecoder().decode(files['NotesAgent/Trip.md']);
  expect(note).toContain('![photo|200](attachments/photo.png)\n\n![Sunset|120x90](attachments/photo.png)');
});

test('PDF, DOCX and HTML exports draw sized pictures at their size and mark highlights', async ({ page }) => {
  await openTrip(page);

  const pdf = await exported(page, 'pdf');
  // pdf-lib places a picture by moving to it, then scaling to its size (`w 0 0 h 0 0 cm`,
  // points: 0.75 a CSS pixel), before drawing it.
  const placed = pdfStreams(pdf).flatMap((stream) =>
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
  // The light theme's highlight behind the highlighted words, which stay text.
  expect([...pdfFillColours(pdf)]).toContain('#fff4d6');
  expect(execFileSync('pdftotext', ['-', '-'], { input: pdf, encoding: 'utf8' })).toContain(
    'A bright day out.',
  );

  const docx = new TextDecoder().decode(
    unzipSync(new Uint8Array(await exported(page, 'docx')))['word/document.xml'],
  );
  // 9525 EMU a pixel.
  expect(docx).toContain('cx="1905000" cy="952500"');
  expect(docx).toContain('cx="1143000" cy="857250"');
  expect(docx).toMatch(/<w:highlight w:val="yellow"\/>(?:(?!<\/w:r>).)*<w:t[^>]*>bright day<\/w:t>/s);

  const html = (await exported(page, 'html')).toString('utf8');
  expect(html).toContain('<mark>bright day</mark>');
  expect(html).toMatch(/<img[^>]*alt="photo"[^>]*width="200"/);
  expect(html).toMatch(
    /<img[^>]*alt="Sunset"[^>]*width="120" height="90" style="aspect-ratio: ?120 ?\/ ?90;?"/,
  );
});
