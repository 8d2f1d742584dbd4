import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { installCoreHold, releaseCore } from './harness/core-hold';
import { askNewNoteWhileHeld, KEPT_TITLE, openAppWithKeptNote } from './harness/new-note-steps';

/** Each compositionstart and compositionend in the page, with the committed text. */
async function recordCompositions(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __compositions: string[] }).__compositions = seen;
    document.addEventListener('compositionstart', () => seen.push('start'), true);
    document.addEventListener('compositionend', (event) => seen.push(`end ${event.data}`), true);
  });
}

function compositions(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __compositions: string[] }).__compositions);
}

test('a pinyin composition still open when the new note appears goes on, and its text lands in the title once', async ({
  page,
}) => {
  const kept = await openAppWithKeptNote(page);
  await recordCompositions(page);
  // The input method, as Chromium's DevTools protocol drives it: composed text, then the commit.
  const ime = await page.context().newCDPSession(page);

  await askNewNoteWhileHeld(page);
  await page.keyboard.type('ab ');
  await ime.send('Input.imeSetComposition', { text: 'ni', selectionStart: 2, selectionEnd: 2 });
  // The new note arrives while the user is still spelling the word.
  await releaseCore(page);
  await expect(page.getByTestId('note-body').and(page.locator(`:not([data-note-id="${kept}"])`))).toHaveCount(
    1,
  );
  await ime.send('Input.imeSetComposition', { text: 'nihao', selectionStart: 5, selectionEnd: 5 });
  await ime.send('Input.insertText', { text: '你好' });

  await expect(page.getByTestId('note-title')).toHaveValue('ab 你好');
  await expect(page.getByTestId('note-title')).toBeFocused();
  // One composition from the first letter to the commit: the hand-over did not cut it off.
  expect(await compositions(page)).toEqual(['start', 'end 你好']);
  await page.keyboard.type('吗');
  await expect(page.getByTestId('note-title')).toHaveValue('ab 你好吗');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-list').getByText(KEPT_TITLE).click();
  await expect(page.getByTestId('note-title')).toHaveValue(KEPT_TITLE);
});

test('a composition the user cancels after the new note appears leaves the typed title and gives it the focus', async ({
  page,
}) => {
  await installCoreHold(page);
  await openApp(page);
  await recordCompositions(page);
  const ime = await page.context().newCDPSession(page);

  await askNewNoteWhileHeld(page);
  await page.keyboard.type('计划 plan');
  await ime.send('Input.imeSetComposition', { text: 'xia', selectionStart: 3, selectionEnd: 3 });
  await releaseCore(page);
  await expect(page.getByTestId('note-body')).toHaveCount(1);
  // Escape in an input method: the composition ends with nothing committed.
  await ime.send('Input.imeSetComposition', { text: '', selectionStart: 0, selectionEnd: 0 });

  await expect(page.getByTestId('note-title')).toHaveValue('计划 plan');
  await expect(page.getByTestId('note-title')).toBeFocused();
  expect(await compositions(page)).toEqual(['start', 'end ']);
});
