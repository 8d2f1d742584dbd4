import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createNote, expect, openApp, storedBody, storedDrafts, test } from './fixtures';

const MiB = 1024 * 1024;

/** The list row of the note titled exactly `title`. */
const noteItem = (page: Page, title: string) =>
  page.getByTestId('note-item').filter({ has: page.getByText(title, { exact: true }) });

/**
 * In a second tab, pastes `text` into the note and tries to save it (refused:
 * too long), waits until the draft is stored, and closes that tab for good.
 */
async function leaveDraftInClosedTab(page: Page, title: string, text: string, noteId: string): Promise<void> {
  const other = await page.context().newPage();
  await openApp(other);
  await noteItem(other, title).click();
  await expect(other.getByTestId('note-title')).toHaveValue(title);
  await other.getByTestId('note-body').fill(text);
  await other.keyboard.press('Control+s');
  await expect(other.getByTestId('save-status')).toHaveAttribute('data-state', 'error');
  const tabId = await other.evaluate(() => sessionStorage.getItem('notesagent.tab-id'));
  await expect
    .poll(async () => (await storedDrafts(other, noteId)).map((draft) => [draft.tab_id, draft.body.length]), {
      timeout: 60_000,
    })
    .toEqual([[tabId, text.length]]);
  await other.close();
}

test('a draft too long for a note, left by a closed tab, is offered as a file or discarded at the next start; later asks again', async ({
  page,
  requestLog,
}) => {
  test.setTimeout(300_000);
  await openApp(page);
  await createNote(page, 'Pasted log', 'stored body');
  const noteId = (await page.evaluate(() => localStorage.getItem('notesagent.last-note'))) ?? '';
  const pasted = `stored body\n\n${'a line of pasted log output, far too much of it. '.repeat(Math.ceil((5 * MiB) / 49) + 2000)}`;
  expect(pasted.length).toBeGreaterThan(5 * MiB);
  await leaveDraftInClosedTab(page, 'Pasted log', pasted, noteId);

  // The next start cannot make it a note: it says so and asks.
  await page.reload();
  const dialog = page.getByTestId('oversized-draft-dialog');
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('oversized-draft-message')).toHaveText(
    'A tab that was closed left unsaved text for “Pasted log”: 5.1 MiB, more than a note can hold (5.0 MiB). Save it as a file to keep it, or discard it.',
  );

  // "Decide later" keeps it: the next start asks again.
  await page.getByTestId('oversized-draft-later').click();
  await expect(dialog).toBeHidden();
  expect((await storedDrafts(page, noteId)).map((draft) => draft.body.length)).toEqual([pasted.length]);
  await page.reload();
  await expect(dialog).toBeVisible({ timeout: 60_000 });

  // Saved as a file: the download holds the whole text, and the draft goes.
  const downloading = page.waitForEvent('download');
  await page.getByTestId('oversized-draft-save').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Pasted log.md');
  expect(await readFile((await download.path())!, 'utf8')).toBe(pasted);
  await expect(dialog).toBeHidden();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'The text was saved as Pasted log.md.' }),
  ).toBeVisible();
  await expect.poll(async () => (await storedDrafts(page, noteId)).length).toBe(0);
  expect(await storedBody(page, noteId)).toBe('stored body');

  // Another such draft, discarded: it is gone and the note is as stored.
  await leaveDraftInClosedTab(page, 'Pasted log', `${pasted}more`, noteId);
  await page.reload();
  await expect(dialog).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('oversized-draft-discard').click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'The unsaved text was discarded.' }),
  ).toBeVisible();
  await expect.poll(async () => (await storedDrafts(page, noteId)).length).toBe(0);
  expect(await storedBody(page, noteId)).toBe('stored body');
  expect(requestLog.foreign()).toEqual([]);
});
