import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { releaseCore } from './harness/core-hold';
import {
  askNewNoteWhileHeld,
  KEPT_TITLE,
  openAppWithKeptNote,
  storedTitlesById,
} from './harness/new-note-steps';

// Each round holds the core's answer back, so every round takes the same path: two rounds from
// each of the four starting places (and notes made one after another) are what more would repeat.
const ROUNDS = 8;

/** The id of the note whose editor is on screen. */
async function shownNoteId(page: Page): Promise<string> {
  const id = await page.getByTestId('note-body').getAttribute('data-note-id');
  if (!id) throw new Error('no note on screen');
  return id;
}

test('typing Chinese and ASCII right after Alt+N always lands in the new note title, wherever the focus was', async ({
  page,
  requestLog,
}) => {
  const kept = await openAppWithKeptNote(page, '正文不变');

  const titles = new Map<string, string>([[kept, KEPT_TITLE]]);
  let previous = kept;
  for (let round = 0; round < ROUNDS; round += 1) {
    const title = `标题${round} note${round}`;
    // Each round starts from another place: the old title, its body, a button, the page itself.
    if (round % 4 === 1) await page.getByTestId('note-body').focus();
    if (round % 4 === 2) await page.getByTestId('new-note').focus();
    if (round % 4 === 3) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // A slow or loaded machine: the core's answer with the new note comes after every key
    // (held back here, so it does every time). Chinese text arrives as inserted text (as an
    // input method commits it), ASCII as key presses.
    await askNewNoteWhileHeld(page);
    await page.keyboard.type(title);
    await releaseCore(page);
    const body = page.getByTestId('note-body').and(page.locator(`:not([data-note-id="${previous}"])`));
    await expect(body).toHaveCount(1);
    await expect(page.getByTestId('note-title')).toHaveValue(title);
    await expect(page.getByTestId('note-title')).toBeFocused();
    previous = await shownNoteId(page);
    titles.set(previous, title);
  }

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  // Every note holds exactly its own title: none lost, none typed into the note before it.
  await expect.poll(() => storedTitlesById(page)).toEqual(Object.fromEntries(titles));
  expect(requestLog.foreign()).toEqual([]);
});

test('Alt+N pressed again before the new note is there makes a second note, each titled with the keys typed after its own press', async ({
  page,
}) => {
  const kept = await openAppWithKeptNote(page, '正文不变');

  // The first new note is asked for and the core's answer held back: both presses and all the
  // keys come before any new note is on screen.
  await askNewNoteWhileHeld(page);
  await page.keyboard.type('第一篇 one');
  await page.keyboard.press('Alt+N');
  await page.keyboard.type('第二篇 two');
  await releaseCore(page);

  await expect(page.getByTestId('note-title')).toHaveValue('第二篇 two');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  const titles = Object.entries(await storedTitlesById(page));
  expect(titles).toHaveLength(3);
  expect(Object.fromEntries(titles)[kept]).toBe(KEPT_TITLE);
  expect(titles.map(([, title]) => title).sort()).toEqual([KEPT_TITLE, '第一篇 one', '第二篇 two'].sort());
});
