import type { Locator, Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * A toast with an action (Undo after moving a note to the trash) must not close while the user
 * is reaching for it: not while the pointer is over it, not while the keyboard focus is in it.
 * Time is the page's fake clock, moved forward by the test, so nothing waits on the real one.
 */

async function trashNote(page: Page, title: string): Promise<Locator> {
  await page.clock.install();
  await openApp(page);
  await createNote(page, title, 'text');
  // From here the page's time moves only when the test moves it: a busy machine cannot age the toast.
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  await page.getByTestId('trash-note').click();
  await expect(page.getByTestId('note-item').filter({ hasText: title })).toHaveCount(0);
  const toast = page.getByTestId('toast').filter({ hasText: 'Moved to trash' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  return toast;
}

test('the Undo toast stays while the pointer is over it, and closes after the pointer leaves', async ({
  page,
}) => {
  const toast = await trashNote(page, 'Pointer held');
  await toast.hover();
  await page.clock.fastForward('01:00');
  await expect(toast).toHaveCount(1);

  await page.mouse.move(0, 0);
  await page.clock.fastForward('01:00');
  await expect(toast).toHaveCount(0);
});

test('the Undo toast stays while the focus is on its button, and Undo still works from the keyboard', async ({
  page,
}) => {
  const toast = await trashNote(page, 'Focus held');
  await toast.getByRole('button', { name: 'Undo' }).focus();
  await page.clock.fastForward('01:00');
  await expect(toast).toHaveCount(1);

  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-item').filter({ hasText: 'Focus held' })).toHaveCount(1);
  await expect(page.getByTestId('note-title')).toHaveValue('Focus held');
});

test('without the pointer or the focus on it, the toast closes on its own', async ({ page }) => {
  const toast = await trashNote(page, 'Not held');
  await page.clock.fastForward('01:00');
  await expect(toast).toHaveCount(0);
});
