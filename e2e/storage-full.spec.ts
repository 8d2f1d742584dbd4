import { randomBytes } from 'node:crypto';
import { zipSync, strToU8 } from 'fflate';
import type { CDPSession, Page } from '@playwright/test';
import { createNote, expect, openApp, storedBody, storedDrafts, test } from './fixtures';

const MB = 1024 * 1024;

/**
 * Notes of incompressible text, so each import takes real room on disk. Each round's file names
 * are its own: the archive's one top folder is dropped on import, and a file landing where a note
 * of the same title already is would be skipped as a duplicate, writing nothing.
 */
function filler(round: number, notes = 20, noteBytes = 100 * 1024): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < notes; i++) {
    const paragraphs: string[] = [];
    for (let size = 0; size < noteBytes; size += 2048) paragraphs.push(randomBytes(1536).toString('base64'));
    files[`fill-${round}/note-${round}-${i}.md`] = strToU8(
      `# Fill ${round}.${i}\n\n${paragraphs.join('\n\n')}\n`,
    );
  }
  return Buffer.from(zipSync(files, { level: 0 }));
}

/**
 * Chromium's IndexedDB keeps the origin's remaining space cached for about 30 s
 * once a database is open, so a quota set (or lowered) after the app opened its
 * database is not enforced until that cache runs out: measured, 60 MB written
 * under a 20 MB override. The quota is therefore set before the app starts, and
 * the tail of the space is taken by writes that fail (a failed write refreshes
 * the cache); lifting the override always works, because a write that needs
 * more than the cached space asks again. `estimate().quota` cannot show the
 * override either: this Chromium reports usage + 10 GiB whatever the quota.
 */
async function setQuota(cdp: CDPSession, page: Page, quotaSize?: number): Promise<void> {
  const origin = new URL(page.url()).origin;
  await cdp.send(
    'Storage.overrideQuotaForOrigin',
    quotaSize === undefined ? { origin } : { origin, quotaSize },
  );
}

/** Takes what is left of the quota with 64 KB of random bytes at a time, until a write no longer fits. */
async function fillTheRest(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('quota-filler');
      open.onupgradeneeded = () => open.result.createObjectStore('chunks');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    for (let chunks = 0; ; chunks++) {
      const chunk = crypto.getRandomValues(new Uint8Array(64 * 1024));
      const error = await new Promise<DOMException | null>((resolve) => {
        const tx = db.transaction('chunks', 'readwrite');
        tx.objectStore('chunks').put(chunk, chunks);
        tx.oncomplete = () => resolve(null);
        tx.onabort = () => resolve(tx.error);
      });
      if (error) {
        db.close();
        if (error.name !== 'QuotaExceededError') throw error;
        return chunks;
      }
    }
  });
}

// The service worker's precache would take half of the 20 MB, racing the imports for it.
test.use({ serviceWorkers: 'block' });

test('storage full: import and save say STORAGE_QUOTA_EXCEEDED, the text waits in the draft and is saved once there is room', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  // Any page of the origin that opens no storage, so the quota is in place before the app's database is.
  await page.goto('/manifest.webmanifest');
  const cdp = await context.newCDPSession(page);
  await setQuota(cdp, page, 20 * MB);
  await openApp(page);
  await createNote(page, 'Plan', 'stored body');
  const noteId = await page.evaluate(() => localStorage.getItem('notesagent.last-note'));
  expect(noteId).toBeTruthy();

  // Fill the 20 MB through the import until one import no longer fits.
  const jobs = page.getByTestId('job-item');
  const quotaToast = page.getByTestId('toast').filter({ hasText: 'Storage for this site is full' });
  let refused = false;
  for (let round = 0; round < 15 && !refused; round++) {
    const before = await jobs.count();
    await page
      .getByTestId('import-zip-input')
      .setInputFiles({ name: `fill-${round}.zip`, mimeType: 'application/zip', buffer: filler(round) });
    await page.getByTestId('import-dialog').getByTestId('import-start').click();
    // Either the archive itself could not be stored (a toast, no job), or a new job ran to an end.
    // Attached, not visible: a finished job's row folds away with the job panel.
    await expect(quotaToast.or(jobs.filter({ hasText: `fill-${round}.zip` })).first()).toBeAttached({
      timeout: 60_000,
    });
    if ((await jobs.count()) === before) {
      refused = true;
      break;
    }
    const job = jobs.filter({ hasText: `fill-${round}.zip` });
    await expect(job).toHaveAttribute('data-status', /^(completed|failed|cancelled)$/, { timeout: 60_000 });
    const status = await job.getAttribute('data-status');
    expect(status).not.toBe('cancelled');
    if (status === 'failed') {
      await expect(job.getByTestId('job-message')).toHaveAttribute(
        'data-error-code',
        'STORAGE_QUOTA_EXCEEDED',
      );
      await expect(job.getByTestId('job-message')).toContainText('Storage for this site is full');
      refused = true;
    }
  }
  expect(refused).toBe(true);
  // Clear the import's notice, so the save's own notice is the one seen below.
  while (await quotaToast.count()) await quotaToast.first().getByRole('button', { name: 'Dismiss' }).click();

  // Make every growing write fail from here: less than 64 KB is left.
  await fillTheRest(page);

  // The note is still open in the editor.
  await expect(page.getByTestId('note-body')).toHaveValue('stored body');
  // 3 MB of random text. Random, so it takes its size on disk: Chromium compresses what IndexedDB
  // stores, and 100 KB of one repeated sentence came to little. And more than the refused import
  // wrote: its rows are removed, and the space they held may come back after the fill above.
  const typed = `stored body\n\n${randomBytes(2_250_000).toString('base64')}`;
  await page.getByTestId('note-body').fill(typed);
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error');
  const toast = page.getByTestId('toast').filter({ hasText: 'Storage for this site is full' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Open Settings → Storage' })).toBeVisible();

  // Nothing half-written: the stored note is as it was. The draft could not be
  // written either: the text is held in this tab, which says so.
  expect(await storedBody(page, noteId!)).toBe('stored body');
  // Said on its own, and in the save's notice when the draft was refused first.
  await expect(
    page
      .getByTestId('toast')
      .filter({ hasText: 'your text is kept in this tab only until it is saved' })
      .first(),
  ).toBeVisible();
  expect(await storedDrafts(page, noteId!)).toEqual([]);

  // Room again: the next Ctrl+S saves the draft's text.
  await setQuota(cdp, page);
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  expect(await storedBody(page, noteId!)).toBe(typed);
  expect(await storedDrafts(page, noteId!)).toEqual([]);
  // What the notices said is over: they go, rather than stay until dismissed and say it still is.
  await expect(page.getByTestId('toast').filter({ hasText: 'Storage for this site is full' })).toHaveCount(0);
  await expect(
    page.getByTestId('toast').filter({ hasText: 'your text is kept in this tab only until it is saved' }),
  ).toHaveCount(0);
});
