import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

/**
 * The note editor by keyboard and screen reader: after each action the focus lands where the user
 * goes on from (never on the page's body, where a screen reader starts again from the top), and
 * what happened, or where they are, is said.
 */

/** The element with the focus, by its test id, or its tag where it has none. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    return element?.getAttribute('data-testid') ?? element?.id ?? element?.tagName.toLowerCase() ?? '';
  });
}

test('Move to trash of the only note leaves the keyboard on “New note”, and says so', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Whale', 'text');
  await page.getByTestId('trash-note').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-item').filter({ hasText: 'Whale' })).toHaveCount(0);
  await expect(page.getByTestId('new-note')).toBeFocused();
  await expect(page.getByTestId('toast').filter({ hasText: 'Moved to trash' })).toBeVisible();
  await expect(page.getByTestId('note-list-announcement')).toHaveText(
    'No notes yet. Create one with “New note” or Alt+N.',
  );
});

test.describe('on a phone, where the note list takes the note’s place', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Move to trash of the only note shows the note list, with the keyboard on the top bar’s “New note”', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('topbar-new-note').click();
    await page.getByTestId('note-title').fill('Seal');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await page.getByTestId('trash-note').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note-list')).toBeVisible();
    await expect(page.getByTestId('topbar-new-note')).toBeFocused();
  });
});

test('Restore of a trashed note keeps the trash on screen and says it is back; its toast opens it with the keyboard in its title', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Dolphin', 'text');
  await page.getByTestId('trash-note').click();
  await page.getByTestId('nav-trash').click();
  await page.getByTestId('note-item').filter({ hasText: 'Dolphin' }).click();
  await page.getByTestId('restore-note').focus();
  await page.keyboard.press('Enter');

  // Still in the trash, now empty, with the keyboard on what it says.
  await expect(page.getByTestId('note-item')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Trash');
  await expect(page.getByTestId('note-list-empty')).toBeFocused();
  const toast = page.getByTestId('toast').filter({ hasText: 'Restored “Dolphin”' });
  await expect(toast).toBeVisible();

  await toast.getByRole('button', { name: 'Open' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-title')).toHaveValue('Dolphin');
  await expect(page.getByTestId('note-title')).toBeFocused();
  // Editable again: the keyboard can go on typing.
  await page.keyboard.type(' pod');
  await expect(page.getByTestId('note-title')).toHaveValue('Dolphin pod');
});

test.describe('history', () => {
  async function historyOfEdits(page: Page) {
    await openApp(page);
    await createNote(page, 'Journal', 'first line');
    const body = page.getByTestId('note-body');
    await body.fill('third line');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await page.getByTestId('history-open').click();
    const dialog = page.getByTestId('history-dialog');
    await dialog.getByTestId('history-version').first().click();
    return dialog;
  }

  test('the diff says which lines were added and which removed, not by colour only', async ({ page }) => {
    const dialog = await historyOfEdits(page);
    const diff = dialog.getByTestId('history-diff');
    await expect(diff.locator('ins')).toContainText('third line');
    await expect(
      diff.locator('ins').filter({ hasText: 'third line' }).locator('.visually-hidden'),
    ).toHaveText('added:');
    await dialog.getByTestId('history-restore').click();
    await expect(page.getByTestId('note-body')).toHaveValue('');
    // The restore is a version of its own, listed first once the list has reloaded.
    await expect(dialog.getByTestId('history-version')).toHaveCount(2);
    await dialog.getByTestId('history-version').first().click();
    await expect(diff.locator('del')).toContainText('third line');
    await expect(
      diff.locator('del').filter({ hasText: 'third line' }).locator('.visually-hidden'),
    ).toHaveText('removed:');
  });

  test('Restore this version moves the keyboard to the history heading, and says it restored', async ({
    page,
  }) => {
    const dialog = await historyOfEdits(page);
    await dialog.getByTestId('history-restore').focus();
    await page.keyboard.press('Enter');
    // Looked for first: the message lasts 4 s, and the heading takes the focus only after the list
    // of versions has reloaded, which on a busy machine can take most of that.
    await expect(dialog.getByTestId('toast').filter({ hasText: 'Version restored.' })).toBeVisible();
    await expect(page.getByTestId('note-body')).toHaveValue('');
    await expect(dialog.getByRole('heading', { name: 'History', level: 2 })).toBeFocused();
    // Still in the dialog: Tab goes on to its versions.
    await page.keyboard.press('Tab');
    await expect(dialog.getByTestId('history-version').first()).toBeFocused();
  });
});

test('a cited block opened from the chat has the focus, and the note it is in is said', async ({ page }) => {
  await openApp(page);
  await createNote(
    page,
    'Travel plans',
    '# Trip\n\nPack light.\n\nThe quokkaberry festival takes place every March in Wellington.',
  );
  const answer = await askNotes(page, 'When is the quokkaberry festival?');
  await answer.getByTestId('chat-citation').first().click();
  await expect(page.getByTestId('note-title')).toHaveValue('Travel plans');

  const revealed = page.getByTestId('preview').locator('[data-search-reveal]');
  await expect(revealed).toContainText('quokkaberry festival');
  await expect(revealed).toBeFocused();
  await expect(revealed).toHaveAttribute('tabindex', '-1');
  await expect(page.getByTestId('editor-announcement')).toHaveText('Showing a passage of “Travel plans”.');
});

test('the [[ completion is the popup list of the text: the text names its list and the option highlighted', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Alpine lakes', 'a');
  await createNote(page, 'Alpine huts', 'b');
  // Each key asks the core again and its answer resets the highlight to the first option: only the
  // last key's query ("Alpi") leaves out "Alpaca", so two options mean the last answer is shown
  // and none still on its way would undo the ArrowDown below.
  await createNote(page, 'Alpaca', 'c');
  await page.getByTestId('new-note').click();
  const body = page.getByTestId('note-body');
  await body.click();
  // An editable combobox (its list collapsed): the textarea stays multi-line text to a screen reader.
  await expect(body).toHaveRole('combobox');
  await expect(body).toHaveAttribute('aria-haspopup', 'listbox');
  await expect(body).toHaveAttribute('aria-autocomplete', 'list');

  await page.keyboard.type('See [[Alpi');
  const list = page.getByRole('listbox', { name: 'Notes to link' });
  const options = list.getByRole('option');
  await expect(options).toHaveCount(2);
  const listId = await list.getAttribute('id');
  expect(listId).toBeTruthy();
  await expect(body).toHaveAttribute('aria-controls', listId!);
  const firstId = await options.nth(0).getAttribute('id');
  expect(firstId).toBeTruthy();
  await expect(body).toHaveAttribute('aria-activedescendant', firstId!);
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('ArrowDown');
  const secondId = await options.nth(1).getAttribute('id');
  await expect(body).toHaveAttribute('aria-activedescendant', secondId!);
  await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(options.nth(0)).toHaveAttribute('aria-selected', 'false');
  // The caret stays in the text all along.
  expect(await focused(page)).toBe('note-body');

  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(body).not.toHaveAttribute('aria-activedescendant');
  await expect(body).not.toHaveAttribute('aria-controls');
});

test('the save status is said when a save fails and when saving works again, not on every autosave', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Quiet', 'typed');
  const status = page.getByTestId('save-status');
  const said = page.getByTestId('save-status-announcement');
  // The visible status is no live region: its flips are not read out.
  await expect(status).not.toHaveAttribute('role', 'status');
  await expect(status).not.toHaveAttribute('aria-live');
  await expect(said).toHaveAttribute('role', 'status');
  await page.getByTestId('note-body').fill('typed more');
  await expect(status).toHaveAttribute('data-state', 'saved');
  await expect(said).toHaveText('');

  // A folder the contract refuses: the save fails.
  const folder = page.getByTestId('note-folder');
  await folder.fill('..');
  await folder.blur();
  await expect(status).toHaveAttribute('data-state', 'error');
  // Still shown (the sizers after it hold the width of the longest label).
  await expect(status).toHaveText(/^\s*Not saved/);
  await expect(said).toHaveText('Not saved');

  await folder.fill('trips');
  await folder.blur();
  await expect(status).toHaveAttribute('data-state', 'saved');
  await expect(said).toHaveText('Saved');
});

test('the tag field keeps one spelling of a tag typed in two cases', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Tagged', 'text');
  const tags = page.getByTestId('note-tags');
  await tags.fill('Work, work, #WORK, travel');
  await tags.blur();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  await page.reload();
  await page.getByTestId('note-item').filter({ hasText: 'Tagged' }).click();
  await expect(page.getByTestId('note-tags')).toHaveValue('Work, travel');
});
