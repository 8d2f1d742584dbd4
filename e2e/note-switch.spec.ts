import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { heldAnswers, holdCore, installCoreHold, releaseCore } from './harness/core-hold';

const TRIALS = 100;

/** The id of the note whose editor is on screen (the body is bound to it). */
async function shownNoteId(page: Page): Promise<string> {
  const id = await page.getByTestId('note-body').getAttribute('data-note-id');
  if (!id) throw new Error('no note on screen');
  return id;
}

test('typing right after clicking another note always lands in that note', async ({ page, requestLog }) => {
  test.setTimeout(240_000);
  await openApp(page);
  await createNote(page, 'Left', '');
  const left = await shownNoteId(page);
  await createNote(page, 'Right', '');
  const right = await shownNoteId(page);
  const typed: Record<string, string> = { [left]: '', [right]: '' };
  // By title, the list keeps its order while notes are saved: with "last changed" the two rows
  // swap under the pointer after each save, and a click can land on the row that moved there.
  await page.getByTestId('note-sort').selectOption('title');
  // The list re-sorts once the core answers: clicking before that aims at a row that moves
  // (the first trial then clicked "Right", already open, at load 15).
  await expect(page.getByTestId('note-item').first()).toHaveAttribute('data-note-id', left);

  for (let trial = 0; trial < TRIALS; trial += 1) {
    const target = trial % 2 === 0 ? left : right;
    const key = String.fromCharCode(97 + (trial % 26));
    await page.locator(`[data-testid="note-item"][data-note-id="${target}"]`).click();
    // No waiting for the switch: the body clicked may still be the other note's.
    await page.getByTestId('note-body').click();
    await page.keyboard.type(key);
    typed[target] += key;
    await expect(page.locator(`[data-testid="note-body"][data-note-id="${target}"]`)).toHaveValue(
      typed[target]!,
    );
  }

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  for (const noteId of [left, right]) {
    await page.locator(`[data-testid="note-item"][data-note-id="${noteId}"]`).click();
    await expect(page.locator(`[data-testid="note-body"][data-note-id="${noteId}"]`)).toHaveValue(
      typed[noteId]!,
    );
  }
  // What was saved, read back after a reload: each note holds exactly its own keys.
  await page.reload();
  for (const noteId of [left, right]) {
    await page.locator(`[data-testid="note-item"][data-note-id="${noteId}"]`).click();
    await expect(page.locator(`[data-testid="note-body"][data-note-id="${noteId}"]`)).toHaveValue(
      typed[noteId]!,
    );
  }
  expect(requestLog.foreign()).toEqual([]);
});

test('a click into the note being left, while the other note is still loading, keeps the focus for it', async ({
  page,
}) => {
  await installCoreHold(page);
  await openApp(page);
  await createNote(page, 'Left', 'left');
  const left = await shownNoteId(page);
  await createNote(page, 'Right', 'right');
  const right = await shownNoteId(page);

  for (const [target, other] of [
    [left, right],
    [right, left],
  ] as const) {
    // The switch is asked for, and the answer with the note is held back: the body
    // on screen is still the other note's, and the click lands in it.
    await holdCore(page);
    await page.locator(`[data-testid="note-item"][data-note-id="${target}"]`).click();
    await expect.poll(() => heldAnswers(page)).toBeGreaterThan(0);
    await page.locator(`[data-testid="note-body"][data-note-id="${other}"]`).click();
    await releaseCore(page);
    await expect(page.locator(`[data-testid="note-body"][data-note-id="${target}"]`)).toBeVisible();
    await page.keyboard.type('!');
    await expect(page.locator(`[data-testid="note-body"][data-note-id="${target}"]`)).toHaveValue(
      target === left ? 'left!' : 'right!',
    );
  }
});

test('typing right after Alt+N always lands in the new note title', async ({ page, requestLog }) => {
  test.setTimeout(360_000);
  await openApp(page);
  await createNote(page, 'Kept', 'unchanged body');
  const kept = await shownNoteId(page);
  const titles = new Map<string, string>();
  let previous = kept;

  for (let trial = 0; trial < TRIALS; trial += 1) {
    const title = `n${trial}`;
    // The focus is in the previous note's title or body: the keys follow at once.
    await page.keyboard.press('Alt+N');
    await page.keyboard.type(title);
    const body = page.getByTestId('note-body').and(page.locator(`:not([data-note-id="${previous}"])`));
    await expect(body).toHaveCount(1);
    await expect(page.getByTestId('note-title')).toHaveValue(title);
    previous = await shownNoteId(page);
    titles.set(previous, title);
  }

  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.reload();
  const filter = page.getByTestId('title-filter');
  for (const [noteId, title] of [...titles].filter((_, index) => index % 10 === 9)) {
    await filter.fill(title);
    await expect(page.locator(`[data-testid="note-item"][data-note-id="${noteId}"]`)).toContainText(title);
  }
  await filter.fill('Kept');
  await page.locator(`[data-testid="note-item"][data-note-id="${kept}"]`).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Kept');
  await expect(page.locator(`[data-testid="note-body"][data-note-id="${kept}"]`)).toHaveValue(
    'unchanged body',
  );
  expect(requestLog.foreign()).toEqual([]);
});
