import { randomBytes } from 'node:crypto';
import { zipSync, strToU8 } from 'fflate';
import type { CDPSession, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

const MB = 1024 * 1024;

/** Notes of incompressible text, so each import takes real room on disk. */
function filler(round: number, notes = 20, noteBytes = 100 * 1024): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < notes; i++) {
    const paragraphs: string[] = [];
    for (let size = 0; size < noteBytes; size += 2048) paragraphs.push(randomBytes(1536).toString('base64'));
    files[`fill-${round}/note-${i}.md`] = strToU8(`# Fill ${round}.${i}\n\n${paragraphs.join('\n\n')}\n`);
  }
  return Buffer.from(zipSync(files, { level: 0 }));
}

async function setQuota(cdp: CDPSession, page: Page, quotaSize?: number): Promise<void> {
  const origin = new URL(page.url()).origin;
  await cdp.send(
    'Storage.overrideQuotaForOrigin',
    quotaSize === undefined ? { origin } : { origin, quotaSize },
  );
}

/** The note as stored in IndexedDB, read past the app. */
async function storedBody(page: Page, noteId: string): Promise<string | undefined> {
  return page.evaluate(
    (id) =>
      new Promise<string | undefined>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const get = db.transaction('notes').objectStore('notes').get(id);
          get.onsuccess = () => {
            db.close();
            resolve((get.result as { body?: string } | undefined)?.body);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    noteId,
  );
}

test('storage full: import and save say STORAGE_QUOTA_EXCEEDED, the text waits in the draft and is saved once there is room', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await openApp(page);
  await createNote(page, 'Plan', 'stored body');
  const noteId = await page.evaluate(() => localStorage.getItem('notesagent.last-note'));
  expect(noteId).toBeTruthy();

  const cdp = await context.newCDPSession(page);
  await setQuota(cdp, page, 20 * MB);

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
    const finished = jobs.first().and(page.locator('[data-status="completed"], [data-status="failed"]'));
    // Either the archive itself could not be stored (a toast), or the job ran to an end.
    await expect(quotaToast.or(jobs.nth(before))).toBeVisible({ timeout: 60_000 });
    if (await quotaToast.isVisible()) {
      refused = true;
      break;
    }
    await expect(finished).toBeVisible({ timeout: 60_000 });
    const status = await jobs.first().getAttribute('data-status');
    expect(status).not.toBe('cancelled');
    if (status === 'failed') {
      await expect(jobs.first().getByTestId('job-message')).toHaveAttribute(
        'data-error-code',
        'STORAGE_QUOTA_EXCEEDED',
      );
      await expect(jobs.first().getByTestId('job-message')).toContainText('Storage for this site is full');
      refused = true;
    }
  }
  expect(refused).toBe(true);
  // Clear the import's notice, so the save's own notice is the one seen below.
  while (await quotaToast.count()) await quotaToast.first().getByRole('button', { name: 'Dismiss' }).click();

  // Make every growing write fail from here: the quota is what is used now.
  const used = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  await setQuota(cdp, page, used);

  // The note is still open in the editor.
  await expect(page.getByTestId('note-body')).toHaveValue('stored body');
  const typed = `stored body\n\n${'new text that needs room. '.repeat(4000)}`;
  await page.getByTestId('note-body').fill(typed);
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'error');
  const toast = page.getByTestId('toast').filter({ hasText: 'Storage for this site is full' });
  await expect(toast).toBeVisible();
  await expect(toast.getByRole('button', { name: 'Open Settings → Storage' })).toBeVisible();

  // Nothing half-written: the stored note is as it was, the text is in the draft.
  expect(await storedBody(page, noteId!)).toBe('stored body');
  const draft = await page.evaluate((id) => localStorage.getItem(`notesagent.draft.${id}`), noteId);
  expect(JSON.parse(draft!)).toMatchObject({ note_id: noteId, body: typed });

  // Room again: the next Ctrl+S saves the draft's text.
  await setQuota(cdp, page);
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  expect(await storedBody(page, noteId!)).toBe(typed);
  expect(await page.evaluate((id) => localStorage.getItem(`notesagent.draft.${id}`), noteId)).toBeNull();
});
