import { readFile } from 'node:fs/promises';
import { createNote, expect, openApp, storedBody, storedDrafts, test } from './fixtures';

const MiB = 1024 * 1024;

test('a body over 5 MiB is refused with its size and the limit, the text stays (also through a reload) and is saved once short enough', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Every notice shown, as it appears: a short-lived one (a few seconds) is still seen on a busy machine.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __toastsSeen: string[] }).__toastsSeen = seen;
    new MutationObserver(() => {
      for (const toast of Array.from(document.querySelectorAll('[data-testid="toast"]'))) {
        const text = toast.textContent ?? '';
        if (!seen.includes(text)) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await openApp(page);
  await createNote(page, 'Big paste', 'stored body');
  const noteId = (await page.evaluate(() => localStorage.getItem('notesagent.last-note'))) ?? '';
  expect(noteId).not.toBe('');

  const pasted = `stored body\n\n${'a line of pasted log output, far too much of it. '.repeat(Math.ceil((5 * MiB) / 49) + 2000)}`;
  expect(pasted.length).toBeGreaterThan(5 * MiB);
  const body = page.getByTestId('note-body');
  await body.fill(pasted);
  await page.keyboard.press('Control+s');

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error');
  const notice = page
    .getByTestId('toast')
    .filter({ hasText: 'This note is 5.1 MiB; a note holds at most 5.0 MiB. Nothing was saved' });
  await expect(notice).toBeVisible();
  // The notice carries the contract's code, as every error the app shows does.
  await expect(notice).toHaveAttribute('data-code', 'VALIDATION_FAILED');
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Some of the entered values are not valid' }),
  ).toHaveCount(0);

  // The refused text can always be kept as a file, whatever else is full.
  const download = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Save as file' }).click();
  const file = await download;
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { __toastsSeen: string[] }).__toastsSeen.some((text) =>
          text.includes('The text was saved as Big paste.md'),
        ),
      ),
    )
    .toBe(true);
  expect(file.suggestedFilename()).toBe('Big paste.md');
  expect(await readFile(await file.path(), 'utf8')).toBe(pasted);

  // The stored note is as it was. The text is on screen and in this tab's draft,
  // which the core keeps in IndexedDB: no size limit short of the quota.
  const stored = await storedBody(page, noteId);
  expect(stored).toBe('stored body');
  await expect(body).toHaveValue(pasted);
  const tabId = await page.evaluate(() => sessionStorage.getItem('notesagent.tab-id'));
  await expect
    .poll(async () => (await storedDrafts(page, noteId)).map((draft) => [draft.tab_id, draft.body.length]), {
      timeout: 60_000,
    })
    .toEqual([[tabId, pasted.length]]);
  await expect(
    page.getByTestId('toast').filter({ hasText: 'your text is kept in this tab only until it is saved' }),
  ).toHaveCount(0);

  // A reload loses nothing: the note opens again with the pasted text, still refused.
  // Over 256 K characters when opened, it opens in the large-note editor.
  await page.reload();
  const large = page.getByTestId('note-body-large');
  await expect(large).toHaveAttribute('data-length', String(pasted.length), { timeout: 120_000 });
  await expect(large).toHaveAttribute('data-note-id', noteId);
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Some of the entered values are not valid' }),
  ).toHaveCount(0);

  // More text keeps it refused: the notice follows the size, and there is one.
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.insertText('x'.repeat(MiB));
  await expect(large).toHaveAttribute('data-length', String(pasted.length + MiB), { timeout: 60_000 });
  await page.keyboard.press('Control+s');
  const grown = page.getByTestId('toast').filter({ hasText: 'This note is 6.1 MiB' });
  await expect(grown).toBeVisible();
  await expect(grown).toHaveAttribute('data-code', 'VALIDATION_FAILED');
  await expect(page.getByTestId('toast').filter({ hasText: 'a note holds at most 5.0 MiB' })).toHaveCount(1);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error');

  // Cut below the limit: the next save lands, the notice and the draft go.
  const kept = 'stored body, cut short';
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(kept);
  await expect(large).toHaveAttribute('data-length', String(kept.length), { timeout: 60_000 });
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(notice).toHaveCount(0);
  await expect.poll(async () => (await storedDrafts(page, noteId)).length).toBe(0);
});
