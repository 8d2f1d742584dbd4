import type { CDPSession, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { heldAnswers, holdCore, installCoreHold, releaseCore } from './harness/core-hold';

/** Sets (or, without a size, lifts) the origin's storage quota. */
async function setQuota(cdp: CDPSession, page: Page, quotaSize?: number): Promise<void> {
  const origin = new URL(page.url()).origin;
  await cdp.send(
    'Storage.overrideQuotaForOrigin',
    quotaSize === undefined ? { origin } : { origin, quotaSize },
  );
}

/**
 * Takes what is left of the quota, in ever smaller writes, until not even a few bytes fit: the
 * next write of a new note is refused. A refused write also refreshes Chromium's cached idea
 * of the space left, so the refusal is enforced at once (see storage-full.spec.ts).
 */
async function fillTheRest(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('quota-filler');
      open.onupgradeneeded = () => open.result.createObjectStore('chunks');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    let key = 0;
    for (const size of [64 * 1024, 4 * 1024, 256, 16]) {
      for (;;) {
        const chunk = crypto.getRandomValues(new Uint8Array(size));
        const error = await new Promise<DOMException | null>((resolve) => {
          const tx = db.transaction('chunks', 'readwrite');
          tx.objectStore('chunks').put(chunk, key++);
          tx.oncomplete = () => resolve(null);
          tx.onabort = () => resolve(tx.error);
        });
        if (!error) continue;
        if (error.name !== 'QuotaExceededError') throw error;
        break;
      }
    }
    db.close();
  });
}

function storedTitles(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('notes').objectStore('notes').getAll();
          all.onsuccess = () => {
            open.result.close();
            resolve((all.result as { title: string }[]).map((row) => row.title).sort());
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

test('a new note that cannot be made says why, gives the focus back and keeps the typed title for the next try', async ({
  page,
  context,
}) => {
  // Any page of the origin that opens no storage, so the quota is in place before the app's database is.
  await page.goto('/manifest.webmanifest');
  const cdp = await context.newCDPSession(page);
  await setQuota(cdp, page, 4 * 1024 * 1024);
  await installCoreHold(page);
  await openApp(page);
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill('保留的笔记');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  const kept = await page.getByTestId('note-body').getAttribute('data-note-id');
  await fillTheRest(page);

  await page.getByTestId('note-title').focus();
  await holdCore(page);
  await page.keyboard.press('Alt+N');
  await expect.poll(() => heldAnswers(page)).toBeGreaterThan(0);
  await page.keyboard.type('会议 notes');
  await releaseCore(page);

  await expect(
    page.getByTestId('toast').and(page.locator('[data-code="STORAGE_QUOTA_EXCEEDED"]')),
  ).toBeVisible();
  // The focus is back where it was, and the note on screen did not take the text.
  await expect(page.getByTestId('note-title')).toBeFocused();
  await expect(page.getByTestId('note-title')).toHaveValue('保留的笔记');
  await expect(page.getByTestId('note-body')).toHaveAttribute('data-note-id', kept!);
  const keptToast = page.getByTestId('toast').filter({ hasText: '“会议 notes”' });
  await expect(keptToast).toBeVisible();

  // Room again: trying again makes the note, titled with what was typed.
  await setQuota(cdp, page);
  await keptToast.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('note-body').and(page.locator(`:not([data-note-id="${kept}"])`))).toHaveCount(
    1,
  );
  await expect(page.getByTestId('note-title')).toHaveValue('会议 notes');
  await expect(keptToast).toHaveCount(0);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => storedTitles(page)).toEqual(['会议 notes', '保留的笔记'].sort());
});

test('with no note open, text typed for a note that cannot be made starts the title of the next one', async ({
  page,
  context,
}) => {
  await page.goto('/manifest.webmanifest');
  const cdp = await context.newCDPSession(page);
  await setQuota(cdp, page, 4 * 1024 * 1024);
  await installCoreHold(page);
  await openApp(page);
  await fillTheRest(page);

  await page.getByTestId('new-note').focus();
  await holdCore(page);
  await page.keyboard.press('Alt+N');
  await expect.poll(() => heldAnswers(page)).toBeGreaterThan(0);
  await page.keyboard.type('草稿');
  await releaseCore(page);
  await expect(
    page.getByTestId('toast').and(page.locator('[data-code="STORAGE_QUOTA_EXCEEDED"]')),
  ).toBeVisible();
  await expect(page.getByTestId('new-note')).toBeFocused();
  await expect(page.getByTestId('toast').filter({ hasText: '“草稿”' })).toBeVisible();

  await setQuota(cdp, page);
  await page.keyboard.press('Alt+N');
  await expect(page.getByTestId('note-body')).toHaveCount(1);
  await page.keyboard.type(' two');
  await expect(page.getByTestId('note-title')).toHaveValue('草稿 two');
  await expect(page.getByTestId('toast').filter({ hasText: '“草稿”' })).toHaveCount(0);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => storedTitles(page)).toEqual(['草稿 two']);
});
