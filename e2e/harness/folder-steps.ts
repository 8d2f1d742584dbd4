import { expect, type Page } from '@playwright/test';
import { openApp } from '../fixtures';

/** A folder's row in the sidebar's tree. */
export const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

/** An entry of the open folder menu, by its exact name. */
export const menuItem = (page: Page, name: string) => page.getByRole('menuitem', { name, exact: true });

/**
 * Opens the app and waits until its start-up is over: a sidebar refresh still on its way would
 * draw the tree again and take the focus from a folder just made.
 */
export async function start(page: Page): Promise<void> {
  await openApp(page);
  await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
}

/** Makes a folder with the tree's New folder field; the folder made takes the focus. */
export async function makeFolder(page: Page, path: string): Promise<void> {
  await page.getByTestId('new-folder').click();
  await page.getByTestId('new-folder-name').fill(path);
  await page.getByTestId('new-folder-name').press('Enter');
  await expect(folder(page, path)).toBeFocused();
}
