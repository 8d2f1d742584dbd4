import { writeFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import { expect, openApp, storedBody, storedDrafts, test } from './fixtures';
import { importZipFile } from './huge-notes';

/**
 * Holds every request the page sends to the core worker (Comlink posts them
 * on the worker) until the page goes: the core then never sees the typed
 * text — no draft, no save — and a tab killed afterwards has only what it
 * wrote to localStorage itself.
 */
async function installRequestHold(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = { on: false, held: 0 };
    (window as unknown as { __requestHold: typeof state }).__requestHold = state;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      if (state.on) {
        state.held += 1;
        return;
      }
      return post.apply(this, args as never);
    } as Worker['postMessage'];
  });
}

/** The inserted text of this page's edit journal of the note, as written to localStorage ('' when none). */
function journaledText(page: Page, noteId: string): Promise<string> {
  return page.evaluate((id) => {
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index) ?? '';
      if (!key.startsWith('notesagent.journal.') || !key.endsWith(`.${id}`)) continue;
      const journal = JSON.parse(localStorage.getItem(key) ?? '{}') as { changes?: { insert: string }[] };
      return (journal.changes ?? []).map((change) => change.insert).join('');
    }
    return '';
  }, noteId);
}

/** Holds every request to the core from now on (see `installRequestHold`). */
async function holdRequests(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __requestHold: { on: boolean } }).__requestHold.on = true;
  });
}

/** Kills the tab (no unload) and opens the app again, which says it recovered one note. */
async function crashAndReopen(context: BrowserContext, page: Page): Promise<Page> {
  const crashed = page.waitForEvent('crash');
  const cdp = await context.newCDPSession(page);
  void cdp.send('Page.crash').catch(() => {});
  await crashed;
  const next = await context.newPage();
  await openApp(next);
  await expect(
    next.getByTestId('toast').filter({ hasText: 'Recovered unsaved changes in 1 note' }),
  ).toBeVisible({ timeout: 60_000 });
  return next;
}

/** A new note typed in the textarea and saved, with no draft of it left in the core. */
async function savedNote(
  page: Page,
  title: string,
  text: string,
): Promise<{ body: Locator; noteId: string }> {
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill(title);
  const body = page.getByTestId('note-body');
  await body.fill(text);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  const noteId = (await body.getAttribute('data-note-id')) ?? '';
  expect(noteId).not.toBe('');
  expect(await storedBody(page, noteId)).toBe(text);
  // The draft of the filled text is gone too (its write and removal may still be on their way).
  await expect.poll(() => storedDrafts(page, noteId)).toEqual([]);
  return { body, noteId };
}

const noteItem = (page: Page, title: string) =>
  page.getByTestId('note-item').filter({ has: page.getByText(title, { exact: true }) });

test('a tab killed while typing in a note over 256 K characters loses no key: the next start replays them', async ({
  context,
}, testInfo) => {
  test.setTimeout(300_000);
  const page = await context.newPage();
  await installRequestHold(page);
  await openApp(page);
  const big = Array.from(
    { length: 6_000 },
    (_, index) => `Paragraph ${index}: the scheduler picks the next runnable thread.`,
  ).join('\n\n');
  expect(big.length).toBeGreaterThan(256 * 1024);
  const path = testInfo.outputPath('large-note.zip');
  await writeFile(path, zipSync({ 'vault/Big.md': [strToU8(big), { level: 0 }] }));
  await importZipFile(page, path);
  await expect(page.getByTestId('job-item').first()).toHaveAttribute('data-status', 'completed', {
    timeout: 120_000,
  });

  await noteItem(page, 'Big').click();
  const large = page.getByTestId('note-body-large');
  const noteId = (await large.getAttribute('data-note-id')) ?? '';
  expect(noteId).not.toBe('');
  const stored = (await storedBody(page, noteId)) ?? '';
  await expect(large).toHaveAttribute('data-length', String(stored.length), { timeout: 120_000 });

  // From here the core hears nothing from this tab: what survives is what the tab wrote itself.
  await holdRequests(page);
  await page.locator('.cm-line').first().click();
  await page.keyboard.press('Control+Home');
  const atStart = 'Typed at the top, 调度, ';
  await page.keyboard.type(atStart);
  await page.keyboard.press('Control+End');
  const atEnd = '\nand at the very end.';
  await page.keyboard.type(atEnd);
  await expect(large).toHaveAttribute('data-length', String(stored.length + atStart.length + atEnd.length));
  // The journal holds the last key (a moment after it): the tab is killed then, with no unload.
  await expect.poll(() => journaledText(page, noteId)).toBe(atStart + atEnd);
  expect(await storedDrafts(page, noteId)).toEqual([]);
  expect(await storedBody(page, noteId)).toBe(stored);
  // The next start replays the journal on the stored note: every key is there, in the note itself.
  const next = await crashAndReopen(context, page);
  const expected = atStart + stored + atEnd;
  expect(await storedBody(next, noteId)).toBe(expected);
  expect(await storedDrafts(next, noteId)).toEqual([]);
  expect(await journaledText(next, noteId)).toBe('');
  await noteItem(next, 'Big').click();
  await expect(next.getByTestId('note-body-large')).toHaveAttribute('data-length', String(expected.length), {
    timeout: 120_000,
  });
  await expect(next.locator('.cm-line').first()).toContainText(atStart);
});

/** This page's mirrored draft of the note in localStorage: the text a textarea's journal starts from. */
function mirroredBody(page: Page, noteId: string): Promise<string | null> {
  return page.evaluate((id) => {
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index) ?? '';
      if (!key.startsWith('notesagent.draft.') || !key.endsWith(`.${id}`)) continue;
      return (JSON.parse(localStorage.getItem(key) ?? '{}') as { body?: string }).body ?? null;
    }
    return null;
  }, noteId);
}

test('a tab killed while typing in a long note in the textarea (over 16 K characters) loses no key: the next start replays the journal', async ({
  context,
}) => {
  test.setTimeout(180_000);
  const page = await context.newPage();
  await installRequestHold(page);
  await openApp(page);
  const long = Array.from(
    { length: 700 },
    (_, index) => `Line ${index}: the scheduler picks the next runnable thread.`,
  ).join('\n');
  expect(long.length).toBeGreaterThan(16 * 1024);
  expect(long.length).toBeLessThan(256 * 1024);
  const { body, noteId } = await savedNote(page, 'Long typed note', long);

  // From here the core hears nothing from this tab: what survives is what the tab wrote itself.
  await holdRequests(page);
  await body.click();
  await page.keyboard.press('Control+Home');
  const atStart = 'Typed at the top, 调度, ';
  await page.keyboard.type(atStart);
  await page.keyboard.press('Control+End');
  const atEnd = '\nand at the very end.';
  await page.keyboard.type(atEnd);
  const expected = atStart + long + atEnd;
  await expect(body).toHaveValue(expected);
  // The keys are in the journal; the whole text was copied once, as the start, not after each key.
  await expect.poll(() => journaledText(page, noteId)).toBe(atStart + atEnd);
  expect(await mirroredBody(page, noteId)).toBe(long);
  // Nothing typed reached the core (a write of the filled text sent before the hold may have landed).
  for (const stored of await storedDrafts(page, noteId)) expect(stored.body).toBe(long);
  expect(await storedBody(page, noteId)).toBe(long);
  // The next start replays the journal on the mirrored start: every key is there, in the note itself.
  const next = await crashAndReopen(context, page);
  expect(await storedBody(next, noteId)).toBe(expected);
  expect(await storedDrafts(next, noteId)).toEqual([]);
  expect(await journaledText(next, noteId)).toBe('');
  expect(await mirroredBody(next, noteId)).toBeNull();
  await noteItem(next, 'Long typed note').click();
  await expect(next.getByTestId('note-body')).toHaveValue(expected);
});

test('a tab killed right after typing in a short note loses no key: the copy each key leaves in localStorage is saved at the next start', async ({
  context,
}) => {
  const page = await context.newPage();
  await installRequestHold(page);
  await openApp(page);
  const { body, noteId } = await savedNote(page, 'Short typed note', 'stored text');

  // From here the core hears nothing from this tab: no draft and no save reach it.
  await holdRequests(page);
  await body.click();
  await page.keyboard.press('Control+End');
  const typed = ', and more typed, 调度.';
  await page.keyboard.type(typed);
  const expected = `stored text${typed}`;
  await expect(body).toHaveValue(expected);
  // Written on the key itself: no wait for a pause, however short.
  expect(await mirroredBody(page, noteId)).toBe(expected);
  expect(await storedDrafts(page, noteId)).toEqual([]);
  expect(await storedBody(page, noteId)).toBe('stored text');
  // The next start saves what the tab left in localStorage.
  const next = await crashAndReopen(context, page);
  expect(await storedBody(next, noteId)).toBe(expected);
  expect(await storedDrafts(next, noteId)).toEqual([]);
  expect(await mirroredBody(next, noteId)).toBeNull();
  await noteItem(next, 'Short typed note').click();
  await expect(next.getByTestId('note-body')).toHaveValue(expected);
});
