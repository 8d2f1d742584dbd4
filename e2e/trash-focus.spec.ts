import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * Moving notes to the trash and back by keyboard, as a screen-reader user does: after "Move to
 * trash" the next note opens with the keyboard on its row (as in a mail client), and "Restore"
 * in the trash keeps the trash on screen so several notes can be restored one after another.
 */

const row = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

async function pressOn(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).focus();
  await page.keyboard.press('Enter');
}

/** Each note goes to the trash as soon as it is written, so the list is empty again after each. */
async function trashedNotes(page: Page, titles: string[]): Promise<void> {
  for (const title of titles) {
    await createNote(page, title, `${title} text`);
    await page.getByTestId('trash-note').click();
    await expect(row(page, title)).toHaveCount(0);
  }
}

test.describe('at desktop size', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('Move to trash opens the next note with the keyboard on its row; the last one goes to the one above, then to “New note”', async ({
    page,
  }) => {
    await openApp(page);
    for (const title of ['Alpha', 'Bravo', 'Charlie']) await createNote(page, title, `${title} text`);
    // Newest first: Charlie, Bravo, Alpha.
    await row(page, 'Bravo').click();
    await expect(page.getByTestId('note-title')).toHaveValue('Bravo');

    await pressOn(page, 'trash-note');
    await expect(row(page, 'Bravo')).toHaveCount(0);
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    await expect(row(page, 'Alpha')).toBeFocused();
    await expect(row(page, 'Alpha')).toHaveAttribute('aria-current', 'true');
    await expect(page.getByTestId('toast').filter({ hasText: 'Moved to trash' })).toBeVisible();

    // Alpha is the last row now: the one above takes its place.
    await pressOn(page, 'trash-note');
    await expect(row(page, 'Alpha')).toHaveCount(0);
    await expect(page.getByTestId('note-title')).toHaveValue('Charlie');
    await expect(row(page, 'Charlie')).toBeFocused();

    // The address names the note shown: Back does not lead to a note in the trash.
    const charlieId = await row(page, 'Charlie').getAttribute('data-note-id');
    expect(new URL(page.url()).hash).toBe(`#/notes/${charlieId}`);

    // The last note: nothing to open, the keyboard goes on to "New note" and the empty list is said.
    await pressOn(page, 'trash-note');
    await expect(page.getByTestId('note-item')).toHaveCount(0);
    await expect(page.getByTestId('note-title')).toHaveCount(0);
    await expect(page.getByTestId('new-note')).toBeFocused();
    await expect(page.getByTestId('note-list-announcement')).toHaveText(
      'No notes yet. Create one with “New note” or Alt+N.',
    );
  });

  test('Restore keeps the trash on screen, moves on to the next trashed note, and the toast opens the restored one', async ({
    page,
  }) => {
    await openApp(page);
    await trashedNotes(page, ['Alpha', 'Bravo', 'Charlie']);
    await page.getByTestId('nav-trash').click();
    await expect(page.getByTestId('note-item')).toHaveCount(3);
    await row(page, 'Bravo').click();
    await expect(page.getByTestId('restore-note')).toBeVisible();

    await pressOn(page, 'restore-note');
    await expect(row(page, 'Bravo')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
    const bravoBack = page.getByTestId('toast').filter({ hasText: 'Restored “Bravo”' });
    await expect(bravoBack.getByRole('button', { name: 'Open' })).toBeVisible();
    // The note below takes its place, in the list and in the pane (newest first: Charlie, Bravo, Alpha).
    await expect(row(page, 'Alpha')).toBeFocused();
    await expect(page.locator('.trashed-title')).toHaveText('Alpha');
    expect(new URL(page.url()).hash).toBe(`#/trash/${await row(page, 'Alpha').getAttribute('data-note-id')}`);

    // Restored one after another: Alpha was the last row, so the one above follows; then the trash is empty.
    await pressOn(page, 'restore-note');
    await expect(row(page, 'Alpha')).toHaveCount(0);
    await expect(row(page, 'Charlie')).toBeFocused();
    await expect(page.locator('.trashed-title')).toHaveText('Charlie');
    await pressOn(page, 'restore-note');
    await expect(page.getByTestId('note-item')).toHaveCount(0);
    await expect(page.getByTestId('note-list-empty')).toHaveText('The trash is empty.');
    await expect(page.getByTestId('note-list-empty')).toBeFocused();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');

    // The toast's Open goes to the note, with the keyboard in its title.
    await bravoBack.getByRole('button', { name: 'Open' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('All notes');
    await expect(page.getByTestId('note-title')).toHaveValue('Bravo');
    await expect(page.getByTestId('note-title')).toBeFocused();
    await expect(page.getByTestId('note-item')).toHaveCount(3);
  });
});

test.describe('on a phone, where the list and the note take turns', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  async function writeNote(page: Page, title: string): Promise<void> {
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill(title);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  }

  test('Move to trash shows the list with the keyboard on the next row; the last one goes to “+”', async ({
    page,
  }) => {
    await openApp(page);
    await writeNote(page, 'Alpha');
    await writeNote(page, 'Bravo');

    await pressOn(page, 'trash-note');
    await expect(page.getByTestId('note-list')).toBeVisible();
    await expect(row(page, 'Bravo')).toHaveCount(0);
    await expect(row(page, 'Alpha')).toBeFocused();
    // The list is where the phone lands: the note is opened by the user, not for them.
    await expect(page.getByTestId('note-title')).toBeHidden();

    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
    await pressOn(page, 'trash-note');
    await expect(page.getByTestId('note-item')).toHaveCount(0);
    await expect(page.getByTestId('topbar-new-note')).toBeFocused();
    await expect(page.getByTestId('note-list-announcement')).toHaveText(
      'No notes yet. Tap + at the top to create one.',
    );
  });

  test('Restore keeps the trash list on screen with the keyboard on the next trashed note', async ({
    page,
  }) => {
    await openApp(page);
    for (const title of ['Alpha', 'Bravo']) {
      await writeNote(page, title);
      await page.getByTestId('trash-note').click();
      await expect(row(page, title)).toHaveCount(0);
    }
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('nav-trash').click();
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await row(page, 'Bravo').click();
    await pressOn(page, 'restore-note');

    await expect(page.getByTestId('note-list')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
    await expect(row(page, 'Bravo')).toHaveCount(0);
    await expect(row(page, 'Alpha')).toBeFocused();
    await expect(page.getByTestId('toast').filter({ hasText: 'Restored “Bravo”' })).toBeVisible();
  });
});
