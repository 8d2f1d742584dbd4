import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

const titles = async (page: Page) =>
  (await page.getByTestId('note-item').locator('.title').allInnerTexts()).map((title) => title.trim());
const item = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });
const saved = (page: Page) => expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

/** Types at the end of the open note's body and waits for the autosave. */
async function edit(page: Page, text: string): Promise<void> {
  await page.getByTestId('note-body').press('End');
  await page.getByTestId('note-body').pressSequentially(text);
  await saved(page);
}

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('saving the open note updates its row in place; the list re-sorts when asked or shown again', async ({
    page,
    requestLog,
  }) => {
    await openApp(page);
    await createNote(page, 'Alpha', 'first');
    await createNote(page, 'Beta', 'second');
    await createNote(page, 'Gamma', 'third');
    await expect.poll(() => titles(page)).toEqual(['Gamma', 'Beta', 'Alpha']);

    // Open the last note and edit it with the pointer resting on the list.
    await item(page, 'Alpha').click();
    await item(page, 'Beta').hover();
    const before = await item(page, 'Beta').boundingBox();
    await edit(page, ' and more');
    // The row says what was saved ("now", the new text) where it was.
    await expect(item(page, 'Alpha').locator('.excerpt')).toHaveText('first and more');
    await expect(page.getByTestId('list-reorder')).toBeVisible();
    expect(await titles(page)).toEqual(['Gamma', 'Beta', 'Alpha']);
    expect(await item(page, 'Beta').boundingBox()).toEqual(before);
    await expect(item(page, 'Beta')).toBeVisible();

    // A second save while the order is held still moves nothing.
    await edit(page, ' again');
    await expect(item(page, 'Alpha').locator('.excerpt')).toHaveText('first and more again');
    expect(await titles(page)).toEqual(['Gamma', 'Beta', 'Alpha']);

    // "Sort now" takes the notebook's order.
    await page.getByTestId('list-reorder').click();
    await expect.poll(() => titles(page)).toEqual(['Alpha', 'Gamma', 'Beta']);
    await expect(page.getByTestId('list-reorder')).toHaveCount(0);

    // Opening another note from the list does not re-sort under the click either.
    await item(page, 'Beta').click();
    await edit(page, '!');
    await expect(item(page, 'Beta').locator('.excerpt')).toHaveText('second!');
    expect(await titles(page)).toEqual(['Alpha', 'Gamma', 'Beta']);
    await item(page, 'Gamma').click();
    await expect(page.getByTestId('note-title')).toHaveValue('Gamma');
    expect(await titles(page)).toEqual(['Alpha', 'Gamma', 'Beta']);

    // Leaving the notebook and coming back shows the list in order.
    await page.getByTestId('nav-chat').click();
    await expect(page.getByTestId('chat-view')).toBeVisible();
    await page.getByTestId('nav-all').click();
    await expect.poll(() => titles(page)).toEqual(['Beta', 'Alpha', 'Gamma']);
    await expect(page.getByTestId('list-reorder')).toHaveCount(0);

    // Sorted by title, a renamed note keeps its row until the list is sorted again.
    await page.getByTestId('note-sort').selectOption('title');
    await expect.poll(() => titles(page)).toEqual(['Alpha', 'Beta', 'Gamma']);
    await item(page, 'Alpha').click();
    await page.getByTestId('note-title').fill('Zeta');
    await saved(page);
    await expect.poll(() => titles(page)).toEqual(['Zeta', 'Beta', 'Gamma']);
    await page.getByTestId('list-reorder').click();
    await expect.poll(() => titles(page)).toEqual(['Beta', 'Gamma', 'Zeta']);

    expect(requestLog.foreign()).toEqual([]);
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('back to the list after editing shows the list in order', async ({ page }) => {
    await openApp(page);
    for (const title of ['one', 'two']) {
      await page.getByTestId('topbar-new-note').click();
      await page.getByTestId('note-title').fill(title);
      await saved(page);
      await page.getByRole('button', { name: 'Back to list' }).tap();
      await expect(page.getByTestId('note-list')).toBeVisible();
    }
    await expect.poll(() => titles(page)).toEqual(['two', 'one']);
    await item(page, 'one').tap();
    await edit(page, 'edited on the phone');
    await page.getByRole('button', { name: 'Back to list' }).tap();
    await expect.poll(() => titles(page)).toEqual(['one', 'two']);
    await expect(page.getByTestId('list-reorder')).toHaveCount(0);
  });
});
