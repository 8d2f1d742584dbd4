import { expect, type BrowserContext, type Page } from '@playwright/test';
import { createNote, openApp } from '../fixtures';

/** Writes a note "Shared" in tab A and opens it in a second tab of the same browser, which it returns. */
export async function openSharedNoteTwice(context: BrowserContext, tabA: Page): Promise<Page> {
  await openApp(tabA);
  await createNote(tabA, 'Shared', 'both saw this');
  const noteId = await tabA.evaluate(() => localStorage.getItem('notesagent.last-note'));
  expect(noteId).toBeTruthy();

  const tabB = await context.newPage();
  await openApp(tabB, `/#/notes/${noteId}`);
  await expect(tabB.getByTestId('note-body')).toHaveValue('both saw this');
  return tabB;
}

/**
 * Tab B types on the version both tabs opened, and its autosave is held back (the
 * browser's timers stand still; the clock is the whole context's) while tab A saves its
 * text with Ctrl+S; then time goes on. Tab B holds unsaved text typed on a version that
 * is no longer the note's: a conflict, however soon it hears of tab A's save.
 */
export async function raceSaves(tabA: Page, textA: string, tabB: Page, textB: string): Promise<void> {
  await tabB.clock.install();
  await tabB.clock.pauseAt(new Date(Date.now() + 60_000));
  await tabB.getByTestId('note-body').fill(textB);
  await expect(tabB.getByTestId('save-status')).toHaveAttribute('data-state', 'unsaved');
  await tabA.getByTestId('note-body').fill(textA);
  await tabA.getByTestId('note-body').press('Control+s');
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await tabB.clock.resume();
}
