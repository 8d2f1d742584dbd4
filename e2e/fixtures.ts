import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { scriptServerFixture, type StartScriptServer } from './harness/openai-script-server';

/** The build the tests serve: `dist`, or the one PW_DIST names (see playwright.config.ts). */
export const DIST_DIR: string = process.env.PW_DIST ?? 'dist';

export interface RequestLog {
  urls: string[];
  foreign(): string[];
}

/**
 * Every test runs with the outside world cut off: any request that is not to
 * the app's own origin is aborted and recorded, so a test can assert there
 * were none.
 */
export const test = base.extend<{ requestLog: RequestLog; scriptServer: StartScriptServer }>({
  requestLog: async ({ context, baseURL }, use) => {
    const origin = new URL(baseURL!).origin;
    const urls: string[] = [];
    const isOwn = (url: string) => url.startsWith(origin) || /^(data|blob|about|chrome-extension):/.test(url);
    context.on('request', (request) => urls.push(request.url()));
    await context.route('**/*', (route) =>
      isOwn(route.request().url()) ? route.continue() : route.abort('blockedbyclient'),
    );
    await use({ urls, foreign: () => urls.filter((url) => !isOwn(url)) });
  },
  scriptServer: scriptServerFixture,
  // File choosers are intercepted from the page's start. Playwright turns interception on when a
  // test first waits for a chooser, and does not wait for the browser to confirm it: with no
  // trace slowing each action down, a key pressed right after could open the chooser first, and
  // the test waited for one that never came (a11y-focus's plugin install, once in a full run).
  page: async ({ page }, use) => {
    page.on('filechooser', () => {});
    await use(page);
  },
});

export { expect };

/** Opens the app and waits until the core worker answered (the note list is rendered). */
export async function openApp(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('note-list')).toBeVisible();
}

export async function createNote(page: Page, title: string, body: string): Promise<void> {
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill(title);
  await page.getByTestId('note-body').fill(body);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

/** Opens the app, writes a new note and returns its rendered preview. */
export async function previewNewNote(page: Page, title: string, body: string): Promise<Locator> {
  await openApp(page);
  await createNote(page, title, body);
  return page.getByTestId('preview');
}

/**
 * The source line of a revealed element in the note: the preview renders block
 * by block, and a line inside a block counts from the block's first line.
 */
export function sourceLineOf(revealed: Locator): Promise<number> {
  return revealed.evaluate(
    (element) =>
      Number(element.closest('[data-block-line]')?.getAttribute('data-block-line') ?? 0) +
      Number(element.getAttribute('data-source-line')),
  );
}

/** Waits for the service worker to be activated (ready can resolve while activating). */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const worker = registration.active!;
    if (worker.state !== 'activated') {
      await new Promise<void>((resolve) =>
        worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()),
      );
    }
  });
}

/** A note's body as the core stored it, read straight from IndexedDB. */
export function storedBody(page: Page, noteId: string): Promise<string | undefined> {
  return page.evaluate(
    (id) =>
      new Promise<string | undefined>((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('notes').objectStore('notes').get(id);
          get.onsuccess = () => {
            open.result.close();
            resolve((get.result as { body?: string } | undefined)?.body);
          };
          get.onerror = () => reject(get.error);
        };
      }),
    noteId,
  );
}

/** The drafts the core keeps of a note (every tab's), read straight from IndexedDB. */
export async function storedDrafts(
  page: Page,
  noteId: string,
): Promise<{ tab_id: string; note_id: string; body: string; base_version: number }[]> {
  return page.evaluate(
    (id) =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('notes-agent');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('drafts').objectStore('drafts').index('note_id').getAll(id);
          all.onsuccess = () => {
            open.result.close();
            resolve(all.result);
          };
          all.onerror = () => reject(all.error);
        };
      }),
    noteId,
  );
}

/** Nothing in the open dialog is wider than the window (no select or button runs off screen). */
export async function dialogFitsTheWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const dialog = document.querySelector('dialog[open]');
    if (!dialog) return false;
    return Array.from(dialog.querySelectorAll('*')).every((element) => {
      const box = element.getBoundingClientRect();
      return box.width === 0 || (box.left >= -1 && box.right <= window.innerWidth + 1);
    });
  });
}
