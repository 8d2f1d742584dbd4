import { expect, type BrowserContext, type Page } from '@playwright/test';
import { openApp } from '../fixtures';
import { heldAnswers, holdCore, installCoreHold } from './core-hold';

/** The title of the note kept open before each new one is asked for. */
export const KEPT_TITLE = '保留的笔记';

/**
 * Opens the app with the core's answers holdable (see core-hold.ts) and a saved note titled
 * KEPT_TITLE (with `body`, when given) on screen; gives that note's id.
 */
export async function openAppWithKeptNote(page: Page, body?: string): Promise<string> {
  await installCoreHold(page);
  await openApp(page);
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill(KEPT_TITLE);
  if (body !== undefined) await page.getByTestId('note-body').fill(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  const id = await page.getByTestId('note-body').getAttribute('data-note-id');
  if (!id) throw new Error('no note on screen');
  return id;
}

/**
 * Holds the core's answers, then presses Alt+N and waits until the worker has answered with the
 * new note (held back): whatever is typed next comes before the new note is on screen.
 */
export async function askNewNoteWhileHeld(page: Page): Promise<void> {
  await holdCore(page);
  await page.keyboard.press('Alt+N');
  await expect.poll(() => heldAnswers(page)).toBeGreaterThan(0);
}

/**
 * Sets the origin's storage quota to `quotaSize` bytes before the app's database exists (from a
 * page of the origin that opens no storage); `lift` gives the full quota back.
 */
export async function limitQuota(
  page: Page,
  context: BrowserContext,
  quotaSize: number,
): Promise<{ lift: () => Promise<void> }> {
  await page.goto('/manifest.webmanifest');
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize });
  return {
    lift: async () => {
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    },
  };
}

/**
 * Takes what is left of the quota, in ever smaller writes, until not even a few bytes fit: the
 * next write of a new note is refused. A refused write also refreshes Chromium's cached idea
 * of the space left, so the refusal is enforced at once (see storage-full.spec.ts).
 */
export async function fillTheRest(page: Page): Promise<void> {
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

/** Every stored note's title by id, read straight from IndexedDB (the list shows only some). */
export function storedTitlesById(page: Page): Promise<Record<string, string>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, string>>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('notes').objectStore('notes').getAll();
          all.onsuccess = () => {
            open.result.close();
            const rows = all.result as { note_id: string; title: string }[];
            resolve(Object.fromEntries(rows.map((row) => [row.note_id, row.title])));
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

/** Every stored note's title, sorted. */
export async function storedTitlesSorted(page: Page): Promise<string[]> {
  return Object.values(await storedTitlesById(page)).sort();
}
