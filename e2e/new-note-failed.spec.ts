import { expect, openApp, test } from './fixtures';
import { installCoreHold, releaseCore } from './harness/core-hold';
import {
  askNewNoteWhileHeld,
  fillTheRest,
  KEPT_TITLE,
  limitQuota,
  openAppWithKeptNote,
  storedTitlesSorted,
} from './harness/new-note-steps';

test('a new note that cannot be made says why, gives the focus back and keeps the typed title for the next try', async ({
  page,
  context,
}) => {
  const quota = await limitQuota(page, context, 4 * 1024 * 1024);
  const kept = await openAppWithKeptNote(page);
  await fillTheRest(page);

  await page.getByTestId('note-title').focus();
  await askNewNoteWhileHeld(page);
  await page.keyboard.type('会议 notes');
  await releaseCore(page);

  await expect(
    page.getByTestId('toast').and(page.locator('[data-code="STORAGE_QUOTA_EXCEEDED"]')),
  ).toBeVisible();
  // The focus is back where it was, and the note on screen did not take the text.
  await expect(page.getByTestId('note-title')).toBeFocused();
  await expect(page.getByTestId('note-title')).toHaveValue(KEPT_TITLE);
  await expect(page.getByTestId('note-body')).toHaveAttribute('data-note-id', kept);
  const keptToast = page.getByTestId('toast').filter({ hasText: '“会议 notes”' });
  await expect(keptToast).toBeVisible();

  // Room again: trying again makes the note, titled with what was typed.
  await quota.lift();
  await keptToast.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('note-body').and(page.locator(`:not([data-note-id="${kept}"])`))).toHaveCount(
    1,
  );
  await expect(page.getByTestId('note-title')).toHaveValue('会议 notes');
  await expect(keptToast).toHaveCount(0);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => storedTitlesSorted(page)).toEqual(['会议 notes', KEPT_TITLE].sort());
});

test('with no note open, text typed for a note that cannot be made starts the title of the next one', async ({
  page,
  context,
}) => {
  const quota = await limitQuota(page, context, 4 * 1024 * 1024);
  await installCoreHold(page);
  await openApp(page);
  await fillTheRest(page);

  await page.getByTestId('new-note').focus();
  await askNewNoteWhileHeld(page);
  await page.keyboard.type('草稿');
  await releaseCore(page);
  await expect(
    page.getByTestId('toast').and(page.locator('[data-code="STORAGE_QUOTA_EXCEEDED"]')),
  ).toBeVisible();
  await expect(page.getByTestId('new-note')).toBeFocused();
  await expect(page.getByTestId('toast').filter({ hasText: '“草稿”' })).toBeVisible();

  await quota.lift();
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('note-body')).toHaveCount(1);
  await page.keyboard.type(' two');
  await expect(page.getByTestId('note-title')).toHaveValue('草稿 two');
  await expect(page.getByTestId('toast').filter({ hasText: '“草稿”' })).toHaveCount(0);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => storedTitlesSorted(page)).toEqual(['草稿 two']);
});
