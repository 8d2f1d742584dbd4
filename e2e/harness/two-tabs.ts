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

/** Tab A's text is saved first; tab B, still on the older version, saves after it. */
export async function raceSaves(tabA: Page, textA: string, tabB: Page, textB: string): Promise<void> {
  await tabA.getByTestId('note-body').fill(textA);
  await expect(tabA.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await tabB.getByTestId('note-body').fill(textB);
}
