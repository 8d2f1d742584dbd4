import { open, readFile, stat } from 'node:fs/promises';
import { strToU8, unzipSync, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { createNote, expect, openApp, storedBody, test } from './fixtures';
import { createMyNotesDataset } from './harness/benchmark-steps';
import { MIB, storedDraftLengths, writeLegacyHugeNote } from './huge-notes';

/** The list row of the note titled exactly `title` (a snippet could hold the word). */
const noteItem = (page: Page, title: string) =>
  page.getByTestId('note-item').filter({ has: page.getByText(title, { exact: true }) });

/** The page's JS heap as Chromium reports it, printed at each step (never asserted: it varies by machine). */
async function printHeap(page: Page, step: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  const used = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
  const total = metrics.find((metric) => metric.name === 'JSHeapTotalSize')?.value ?? 0;
  console.log(
    `[hundred-mb-note] ${step}: page heap ${(used / MIB).toFixed(1)} MiB used of ${(total / MIB).toFixed(1)} MiB`,
  );
}

const HUGE_MIB = Number(process.env.HUGE_NOTE_MIB ?? 100);

/**
 * A notebook that already holds a note far over today's limits (5 MiB through
 * the API, 64 MiB per imported entry): a database an older version wrote, or a
 * backup of one. No path of the app can write such a note any more, so this
 * one test writes the row straight into IndexedDB, as that version stored it.
 */
/** The backlinks panel's entries, by title. */
const backlinkTitles = (page: Page) => page.getByTestId('backlinks').getByTestId('backlink');

test('a notebook holding a 100 MB note opens, lists, searches, edits, links, exports (saying the backup will not import whole) and imports, benchmarks my notes and sizes Settings → Storage; the huge note opens in the plain editor and saving it says the size limit', async ({
  page,
  requestLog,
}) => {
  // Slow by nature (100 MB through IndexedDB several times); the benchmark and storage steps add minutes.
  test.setTimeout(1_200_000);
  // The app creates the schema and normal notes (one links to the huge note, the
  // huge note links to two); then the page leaves the app (its core worker goes
  // with it) and the old row is written beside them.
  await openApp(page);
  await createNote(page, 'Groceries', 'Oat milk, rice, and pork belly.');
  await createNote(page, 'Shopping list', 'Buy what [[Huge log]] says, tomorrow.');
  await createNote(page, 'Pantry', 'Shelves and jars.');
  await createNote(page, 'Cellar', 'Cool and dark.');
  await page.goto('/icons/icon-maskable.svg');
  const huge = await writeLegacyHugeNote(page, {
    title: 'Huge log',
    chars: HUGE_MIB * MIB,
    head: 'The opening paragraph names the quokkamarker. Stock up from [[Pantry]].',
    // Past the first 2 MiB, where links are not read.
    tail: 'The closing paragraph names the wombatmarker. Then go down to [[Cellar]].',
  });
  await printHeap(page, `after writing a ${HUGE_MIB} MiB note`);

  // The app opens to an interactive list holding every note.
  await openApp(page);
  await expect(page.getByTestId('note-item')).toHaveCount(5, { timeout: 120_000 });
  await expect(noteItem(page, 'Huge log')).toContainText('The opening paragraph names the quokkamarker.');
  await printHeap(page, 'app open, list shown');

  // Another note opens and saves while the huge one sits in the notebook.
  await noteItem(page, 'Groceries').click();
  await expect(page.getByTestId('note-body')).toHaveValue('Oat milk, rice, and pork belly.');
  await page.getByTestId('note-body').fill('Oat milk, rice, pork belly and leeks.');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved', { timeout: 60_000 });

  // Search finds the first part of the huge note; its tail lies past the indexer's cap.
  // A query waits a moment for notes still being indexed, then answers with what is indexed, and is
  // not run again when indexing catches up: the start indexes the note the old version left (its
  // first 2 MiB), so the query is typed again until that is done.
  await expect(async () => {
    await page.getByTestId('search-input').fill('');
    await page.getByTestId('search-input').fill('quokkamarker');
    await expect(page.getByTestId('search-result').first()).toContainText('Huge log');
  }).toPass({ timeout: 180_000 });
  await expect(page.getByTestId('search-index-cap')).toContainText(
    'Search covers the first 2.0 MiB of each note; “Huge log” (100.0 MiB) is searched only that far.',
  );
  await page.getByTestId('search-input').fill('wombatmarker');
  await expect(page.getByTestId('search-no-results')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('search-input').fill('');
  await printHeap(page, 'after searching');

  // The list says how large it is.
  await expect(noteItem(page, 'Huge log').getByTestId('note-size')).toHaveText('100.0 MiB');
  await expect(noteItem(page, 'Groceries').getByTestId('note-size')).toHaveCount(0);

  // The huge note opens in the plain large-note editor, the preview off until asked for.
  await noteItem(page, 'Huge log').click();
  // The title shows once the note is read: 100 MB from IndexedDB.
  await expect(page.getByTestId('note-title')).toHaveValue('Huge log', { timeout: 120_000 });
  await expect(page.getByTestId('note-body-large')).toHaveAttribute('data-length', String(huge.length), {
    timeout: 300_000,
  });
  await expect(page.getByTestId('preview-off')).toBeVisible();
  // The small note that links to it is listed as linking here.
  await expect(backlinkTitles(page)).toHaveText(['Shopping list'], { timeout: 120_000 });
  await printHeap(page, 'huge note open');

  // Typing works; saving is refused with the size limit, and the typed text stays.
  await page.locator('.cm-line').first().click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('Edited. ');
  await expect(page.locator('.cm-line').first()).toContainText('Edited. ');
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error', { timeout: 120_000 });
  const tooLong = page
    .getByTestId('toast')
    .filter({ hasText: `This note is ${HUGE_MIB}.0 MiB; a note holds at most 5.0 MiB` });
  await expect(tooLong).toBeVisible();
  await expect(page.getByTestId('note-body-large')).toHaveAttribute('data-length', String(huge.length + 8));
  // A draft holds at most 64 Mi characters: the text cannot be kept as one, and the app says so
  // (it stays in this tab only).
  await expect(
    page.getByTestId('toast').filter({ hasText: 'The local draft cannot be written either' }),
  ).toBeVisible({ timeout: 120_000 });
  expect(await storedDraftLengths(page, huge.noteId)).toEqual([]);
  // The refusal offers the one place the text always fits: a file, with the edit in it (ASCII: bytes = characters).
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await tooLong.getByRole('button', { name: 'Save as file' }).click();
  const file = await (await download).path();
  expect((await stat(file)).size).toBe(huge.length + 8);
  const start = Buffer.alloc(8);
  const handle = await open(file);
  await handle.read(start, 0, 8, 0);
  await handle.close();
  expect(start.toString('utf8')).toBe('Edited. ');
  await printHeap(page, 'after the refused save');

  // The stored note is as it was, and the small note kept its edit.
  expect((await storedBody(page, huge.noteId))?.length).toBe(huge.length);
  await noteItem(page, 'Groceries').click();
  await expect(page.getByTestId('note-body')).toHaveValue('Oat milk, rice, pork belly and leeks.', {
    timeout: 120_000,
  });

  // Links from the huge note: the one in its first part is a backlink of Pantry; the one at its end,
  // past what is read for links, is not one of Cellar's, and Cellar's panel says why.
  await noteItem(page, 'Pantry').click();
  await expect(backlinkTitles(page)).toHaveText(['Huge log'], { timeout: 120_000 });
  await expect(page.getByTestId('backlinks')).toContainText('Stock up from [[Pantry]].');
  await noteItem(page, 'Cellar').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Cellar');
  await expect(page.getByTestId('backlinks-scan-cap')).toHaveText(
    'Links are read from the first 2.0 MiB of each note; links further on in “Huge log” (100.0 MiB) are not counted.',
  );
  await expect(backlinkTitles(page)).toHaveCount(0);
  await printHeap(page, 'after the backlinks');

  // A backup of the whole notebook: every note, the huge one whole.
  const exported = page.waitForEvent('download', { timeout: 300_000 });
  await page.getByTestId('export-all').click();
  const archive = await readFile(await (await exported).path());
  const entries = unzipSync(new Uint8Array(archive));
  expect(Object.keys(entries).sort()).toEqual(
    ['Cellar', 'Groceries', 'Huge log', 'Pantry', 'Shopping list'].map((title) => `NotesAgent/${title}.md`),
  );
  const text = (title: string) => new TextDecoder().decode(entries[`NotesAgent/${title}.md`]);
  const hugeEntry = entries['NotesAgent/Huge log.md']!;
  const hugeHead = text('Huge log').slice(0, 400);
  const bodyStart = hugeHead.indexOf('\n---\n') + '\n---\n'.length;
  // ASCII: the entry's bytes are its front matter and then the body's characters, all of them.
  expect(hugeEntry.length - bodyStart).toBe(huge.length);
  expect(hugeHead).toContain(`note_id: ${huge.noteId}`);
  expect(hugeHead.slice(bodyStart)).toMatch(/^The opening paragraph names the quokkamarker\./);
  expect(new TextDecoder().decode(hugeEntry.subarray(-200))).toContain(
    'names the wombatmarker. Then go down to [[Cellar]].',
  );
  expect(text('Groceries')).toMatch(/\n---\nOat milk, rice, pork belly and leeks\.$/);
  expect(text('Shopping list')).toContain('Buy what [[Huge log]] says, tomorrow.');
  // The export says at once that this backup will not import whole again, and why.
  const notReimportable = page.getByTestId('toast').filter({
    hasText: `“Huge log” is ${(hugeEntry.length / MIB).toFixed(1)} MiB; an import takes notes of at most 64.0 MiB, so this backup will not import again as it is.`,
  });
  await expect(notReimportable).toHaveCount(HUGE_MIB > 64 ? 1 : 0);
  await printHeap(page, 'after the export');

  // An archive holding a note that is already here (by its id, from the backup) and a new one:
  // the existing note is skipped, the new one added, and the report says so.
  const again = zipSync({
    'Groceries.md': entries['NotesAgent/Groceries.md']!,
    'Garden.md': strToU8('---\ntitle: Garden\n---\nTomatoes and basil.\n'),
  });
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'again.zip', mimeType: 'application/zip', buffer: Buffer.from(again) });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-on-duplicate-skip').check();
  await dialog.getByTestId('import-start').click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Import finished: 1 new, 0 updated, 1 skipped' }),
  ).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('note-item')).toHaveCount(6);
  await noteItem(page, 'Garden').click();
  await expect(page.getByTestId('note-body')).toHaveValue('Tomatoes and basil.\n');
  expect((await storedBody(page, huge.noteId))?.length).toBe(huge.length);

  // The notices stay until closed (they cover the foot of the page): the user closes them.
  await expect(async () => {
    const open = page.getByTestId('toast');
    if ((await open.count()) > 0) {
      await open.first().getByRole('button', { name: 'Dismiss' }).click({ timeout: 5_000 });
    }
    await expect(open).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 180_000 });

  // Benchmark my notes with the huge note in the notebook: the picker lists the huge note's blocks a
  // dataset keeps (its first 1,000,000 characters: the opening paragraph and 15 of 64 Ki characters),
  // read without its body; a case on its opening block and one on a small note make the dataset (the
  // huge note copied in part), and a run over it finds both blocks.
  const keptBlocks = 16;
  await createMyNotesDataset(page, [
    { title: 'Groceries', block: 'Oat milk, rice, pork belly and leeks.', question: 'oat milk and leeks' },
    {
      title: 'Huge log',
      block: 'The opening paragraph names the quokkamarker. Stock up from [[Pantry]].',
      question: 'quokkamarker',
    },
  ]);
  const mine = page.getByTestId('bench-my-notes');
  // Still the huge note in the picker: its kept blocks only, and a line for the rest.
  await expect(mine.getByTestId('bench-mine-block').locator('option')).toHaveCount(1 + keptBlocks);
  await expect(mine.getByTestId('bench-mine-blocks-past')).toHaveText(
    `${(huge.blocks - keptBlocks).toLocaleString('en')} more blocks are past the part a dataset keeps (the first 1,000,000 characters of a note) and cannot be picked.`,
  );
  // The page says the huge note is held only in part, and no other note.
  const cut = page.getByTestId('bench-mine-cut-note');
  await expect(cut).toHaveCount(1);
  await expect(cut).toHaveAttribute('data-note-id', huge.noteId);
  await expect(cut).toContainText(`“Huge log”: `);
  await expect(cut).toContainText(` of ${huge.length.toLocaleString('en')} characters kept`);
  await expect(cut).toContainText(`(${keptBlocks} of ${huge.blocks.toLocaleString('en')} blocks)`);
  await page.getByTestId('bench-run').click();
  await expect(page.getByTestId('bench-report')).toBeVisible({ timeout: 300_000 });
  await page.getByTestId('bench-filter-mode').selectOption('fts');
  const caseRows = page.getByTestId('bench-case-row');
  await expect(caseRows).toHaveCount(2);
  for (const row of await caseRows.all()) await expect(row).toHaveAttribute('data-passed', 'true');
  await printHeap(page, 'after benchmarking my notes');

  // Settings → Storage counts every note and its UTF-8 bytes: the huge note's (ASCII) are its characters.
  await page.getByTestId('nav-all').click();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-storage').click();
  const notesKind = page.locator('[data-testid="storage-kind"][data-kind="notes"]');
  await expect(notesKind).toHaveAttribute('data-count', '6', { timeout: 120_000 });
  const smallBytes = await storedUtf8BytesExcept(page, huge.noteId);
  await expect(notesKind).toHaveAttribute('data-bytes', String(smallBytes + 'Huge log'.length + huge.length));
  await printHeap(page, 'after Settings → Storage');
  expect(requestLog.foreign()).toEqual([]);
});

/** The UTF-8 bytes of the titles and bodies of the stored notes other than `skipped`, counted in the page. */
function storedUtf8BytesExcept(page: Page, skipped: string): Promise<number> {
  return page.evaluate(
    (skip) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('notes').objectStore('notes');
          const keys = store.getAllKeys();
          keys.onerror = () => reject(keys.error);
          keys.onsuccess = () => {
            const wanted = keys.result.filter((key) => key !== skip);
            let bytes = 0;
            let left = wanted.length;
            const encoder = new TextEncoder();
            if (left === 0) resolve(0);
            for (const key of wanted) {
              const get = store.get(key);
              get.onerror = () => reject(get.error);
              get.onsuccess = () => {
                const row = get.result as { title: string; body: string };
                bytes += encoder.encode(row.title).length + encoder.encode(row.body).length;
                left -= 1;
                if (left === 0) {
                  open.result.close();
                  resolve(bytes);
                }
              };
            }
          };
        };
      }),
    skipped,
  );
}
