import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

const NOTES = 10_000;
/** Rows the page may hold at once: a few screens of a list that has 10,000. */
const MAX_ROWS_IN_PAGE = 120;

const title = (i: number) => `Note ${String(i).padStart(5, '0')}`;

/** One short Markdown file per note; note 7321 alone mentions a word the search can find. */
function notebookZip(): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < NOTES; i++) {
    const word = i === 7321 ? 'quetzalcoatl' : `topic${i % 50}`;
    files[`vault/n-${i}.md`] = strToU8(`---\ntitle: ${title(i)}\n---\nA short note about ${word}.\n`);
  }
  return Buffer.from(zipSync(files, { level: 0 }));
}

const rowsInPage = (page: Page) => page.getByTestId('note-item').count();
const item = (page: Page, name: string) =>
  page
    .getByTestId('note-item')
    .filter({ has: page.locator('.title', { hasText: new RegExp(`^\\s*${name}\\s*$`) }) });

test('a 10,000-note notebook: the list renders only what is on screen, reaches the last note, opens and finds one', async ({
  page,
  requestLog,
}) => {
  // Importing 10,000 notes (with their blocks and search index) is the heavy part, not the list.
  test.setTimeout(900_000);
  await openApp(page);
  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'notebook.zip', mimeType: 'application/zip', buffer: notebookZip() });
  await page.getByTestId('import-dialog').getByTestId('import-start').click();
  await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', String(NOTES), {
    timeout: 840_000,
  });

  // By title, so the first and the last note are known.
  await page.getByTestId('note-sort').selectOption('title');
  await expect(item(page, title(0))).toBeVisible();
  const shown = await rowsInPage(page);
  expect(shown).toBeGreaterThan(5);
  expect(shown).toBeLessThan(MAX_ROWS_IN_PAGE);

  // Keyboard: down a row, then End to the last note, which takes the focus.
  await item(page, title(0)).focus();
  await page.keyboard.press('ArrowDown');
  await expect(item(page, title(1))).toBeFocused();
  await page.keyboard.press('End');
  await expect(item(page, title(NOTES - 1))).toBeFocused();
  await expect(item(page, title(NOTES - 1))).toBeInViewport();
  await page.keyboard.press('ArrowUp');
  await expect(item(page, title(NOTES - 2))).toBeFocused();
  expect(await rowsInPage(page)).toBeLessThan(MAX_ROWS_IN_PAGE);
  // Enter opens the focused note, and the list marks it as the open one.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-title')).toHaveValue(title(NOTES - 2));
  await expect(page.getByTestId('note-body')).toHaveValue(/A short note about topic48/);
  await expect(item(page, title(NOTES - 2))).toHaveAttribute('aria-current', 'true');

  // Home goes back to the first note; then the scroll bar, dragged to the end, shows the last.
  await item(page, title(NOTES - 2)).focus();
  await page.keyboard.press('Home');
  await expect(item(page, title(0))).toBeFocused();
  const list = page.getByTestId('note-list');
  await expect
    .poll(async () => {
      // Rows are measured as they come into view, so the end moves: scroll to it until it holds.
      await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
      return item(page, title(NOTES - 1)).isVisible();
    })
    .toBe(true);
  await expect(item(page, title(NOTES - 1))).toBeInViewport();
  expect(await rowsInPage(page)).toBeLessThan(MAX_ROWS_IN_PAGE);
  await item(page, title(NOTES - 1)).click();
  await expect(page.getByTestId('note-title')).toHaveValue(title(NOTES - 1));

  // Search finds the one note among 10,000 and opens it.
  await page.getByTestId('search-input').fill('quetzalcoatl');
  const result = page.getByTestId('search-result').first();
  await expect(result).toContainText(title(7321));
  // A partial answer from an index still loading is marked, and replaced once it has loaded.
  await expect(page.getByTestId('search-index-loading')).toHaveCount(0);
  await result.click();
  await expect(page.getByTestId('note-title')).toHaveValue(title(7321));

  expect(requestLog.foreign()).toEqual([]);
});
