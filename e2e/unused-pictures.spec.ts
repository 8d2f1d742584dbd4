import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { pictureOn, shownWidth } from './picture-drops';

// Freeing the space of pictures nothing uses any more: a deleted note's screenshots stay in the
// attachment store after the trash is emptied, until Settings → Storage deletes them. What any
// note, the trash, a note's history, a draft or a chat message still uses stays, and so does a
// picture added in the last 24 hours (its note may not be saved yet).

const LINK = /!\[[^\]]*\]\(attachment:attachment_[0-9a-f]+\)/;

async function pasteInto(page: Page, title: string, picture: string, color: string): Promise<void> {
  await createNote(page, title, `${title}:\n`);
  const body = page.getByTestId('note-body');
  await body.evaluate((input: HTMLTextAreaElement) =>
    input.setSelectionRange(input.value.length, input.value.length),
  );
  await pictureOn(body, 'paste', picture, color);
  await expect(body).toHaveValue(LINK);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

/** Every stored attachment, as if stored two days ago (the grace period is a day). */
function ageAttachments(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('attachments', 'readwrite').objectStore('attachments');
          const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000).toISOString();
          let aged = 0;
          const cursor = store.openCursor();
          cursor.onsuccess = () => {
            const row = cursor.result;
            if (!row) return;
            row.update({ ...row.value, created_at: twoDaysAgo });
            aged += 1;
            row.continue();
          };
          store.transaction.oncomplete = () => {
            db.close();
            resolve(aged);
          };
          store.transaction.onerror = () => reject(store.transaction.error);
        };
      }),
  );
}

test('Storage finds the pictures no note uses once the trash is emptied, and deletes only those', async ({
  page,
}) => {
  await openApp(page);
  await pasteInto(page, 'Kept', 'kept.png', '#c0392b');
  await pasteInto(page, 'Disposable', 'old.png', '#2980b9');
  await page.getByTestId('trash-note').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(0);
  expect(await ageAttachments(page)).toBe(2);
  // Stored just now: unused once its note is gone too, but inside the grace period.
  await pasteInto(page, 'Fresh', 'fresh.png', '#27ae60');
  await page.getByTestId('trash-note').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Fresh' })).toHaveCount(0);

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-storage').click();
  const kind = (name: string) => page.locator(`[data-testid="storage-kind"][data-kind="${name}"]`);
  await expect(kind('attachments')).toHaveAttribute('data-count', '3');
  // The trash still uses both: a trashed note can be restored with its pictures.
  await expect(kind('unused-pictures')).toHaveAttribute('data-count', '0');
  await expect(kind('unused-pictures').getByTestId('storage-delete-unused-pictures')).toHaveCount(0);

  await kind('trash').getByTestId('storage-empty-trash').click();
  await page.getByTestId('confirm-accept').click();
  await expect(kind('trash')).toHaveAttribute('data-count', '0');
  const unused = kind('unused-pictures');
  await expect(unused).toHaveAttribute('data-count', '1');
  const bytes = Number(await unused.getAttribute('data-bytes'));
  expect(bytes).toBeGreaterThan(0);
  await expect(unused).toContainText('Pictures no note uses');

  await unused.getByTestId('storage-delete-unused-pictures').click();
  await expect(page.locator('dialog:has(#confirm-title)')).toContainText(
    /Delete 1 picture \(\d+ B\) that no note/,
  );
  await page.getByTestId('confirm-accept').click();
  await expect(
    page.getByTestId('toast').filter({ hasText: /Deleted 1 unused picture \(\d+ B\)\./ }),
  ).toBeVisible();
  await expect(unused).toHaveAttribute('data-count', '0');
  await expect(kind('attachments')).toHaveAttribute('data-count', '2');

  await page.keyboard.press('Escape');
  await page.getByTestId('note-item').filter({ hasText: 'Kept' }).click();
  await expect.poll(() => shownWidth(page, 'kept')).toBe(3);
});
