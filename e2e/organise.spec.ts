import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

const titles = async (page: Page) =>
  (await page.getByTestId('note-item').locator('.title').allInnerTexts()).map((title) => title.trim());
const item = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('sort, pin, folders made, renamed and moved, notes dragged or moved by menu, trash emptied', async ({
    page,
    requestLog,
  }) => {
    await openApp(page);
    await createNote(page, 'banana', 'b');
    await createNote(page, 'Apple', 'a');
    await createNote(page, 'cherry', 'c');
    // Just saved: "now", not a date.
    await expect(item(page, 'cherry').locator('time')).toHaveText('now');

    await expect.poll(() => titles(page)).toEqual(['cherry', 'Apple', 'banana']);
    await page.getByTestId('note-sort').selectOption('title');
    await expect.poll(() => titles(page)).toEqual(['Apple', 'banana', 'cherry']);
    await page.getByTestId('note-sort').selectOption('created_at');
    await expect.poll(() => titles(page)).toEqual(['cherry', 'Apple', 'banana']);
    await page.getByTestId('note-sort').selectOption('title');

    // Pin: leads the list whatever the order, and survives a reload.
    await item(page, 'cherry').hover();
    await page.getByTestId('note-pin').nth(2).click();
    await expect.poll(() => titles(page)).toEqual(['cherry', 'Apple', 'banana']);
    await expect(item(page, 'cherry')).toHaveAttribute('data-pinned', 'true');

    // A folder made in the sidebar shows while still empty.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('new-folder-name').fill('Projects');
    await page.getByTestId('new-folder-name').press('Enter');
    await expect(folder(page, 'Projects')).toContainText('0');

    // Drag a note onto it.
    await item(page, 'Apple').dragTo(folder(page, 'Projects'));
    await expect(folder(page, 'Projects')).toContainText('1');
    // The keyboard way: the row's "move" button and a folder list.
    await item(page, 'banana').focus();
    await page.getByTestId('note-move').nth(2).click();
    await page.getByTestId('note-move-select').selectOption('Projects');
    await expect(folder(page, 'Projects')).toContainText('2');

    // Rename with a new path moves it under another parent; the notes follow.
    await folder(page, 'Projects').hover();
    await page.getByTestId('folder-rename').first().click();
    await page.getByTestId('folder-rename-input').fill('Archive/Projects');
    await page.getByTestId('folder-rename-input').press('Enter');
    await expect(folder(page, 'Archive/Projects')).toContainText('2');
    await expect(folder(page, 'Projects')).toHaveCount(0);
    await item(page, 'Apple').click();
    await expect(page.getByTestId('note-folder')).toHaveValue('Archive/Projects');
    // The sidebar marks the open note's folder at once.
    await expect(folder(page, 'Archive/Projects')).toHaveAttribute('data-open-note', 'true');

    // Dragging a folder onto another makes it a sub-folder.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('new-folder-name').fill('Later');
    await page.getByTestId('new-folder-name').press('Enter');
    await folder(page, 'Later').dragTo(folder(page, 'Archive'));
    await expect(folder(page, 'Archive/Later')).toBeVisible();

    await page.reload();
    await expect(item(page, 'cherry')).toHaveAttribute('data-pinned', 'true');
    await expect(folder(page, 'Archive/Projects')).toContainText('2');

    // Empty the trash, after a confirmation.
    await item(page, 'Apple').click();
    await page.getByTestId('trash-note').click();
    await item(page, 'banana').click();
    await page.getByTestId('trash-note').click();
    await page.getByTestId('nav-trash').click();
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await page.getByTestId('empty-trash').click();
    await page.getByTestId('confirm-cancel').click();
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await page.getByTestId('empty-trash').click();
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('note-item')).toHaveCount(0);
    await expect(page.getByTestId('empty-trash')).toHaveCount(0);

    expect(requestLog.foreign()).toEqual([]);
  });

  test('Chat and Agent have their own icons; dark code blocks and bordered tables', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openApp(page);
    const iconOf = (testId: string) => page.getByTestId(testId).locator('svg path').getAttribute('d');
    expect(await iconOf('nav-chat')).not.toBe(await iconOf('nav-agent'));

    await createNote(page, 'Styled', '| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1;\n```');
    const preview = page.getByTestId('preview');
    await expect(preview.locator('td').first()).toBeVisible();
    const styles = await preview.evaluate((root) => {
      const pre = getComputedStyle(root.querySelector('pre')!);
      const td = getComputedStyle(root.querySelector('td')!);
      return {
        pre: pre.backgroundColor,
        preText: pre.color,
        border: td.borderTopWidth,
        borderStyle: td.borderTopStyle,
      };
    });
    expect(styles.border).toBe('1px');
    expect(styles.borderStyle).toBe('solid');
    // Dark: a dark code background with light text.
    const luminance = (rgb: string) => {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    expect(luminance(styles.pre)).toBeLessThan(60);
    expect(luminance(styles.preText)).toBeGreaterThan(180);

    // The export menu is dark too: it was white with the dark theme's near-white text.
    await page.getByTestId('export-note').click();
    const menu = await page.getByRole('menu').evaluate((element) => {
      const item = element.querySelector('button')!;
      return { background: getComputedStyle(element).backgroundColor, text: getComputedStyle(item).color };
    });
    expect(luminance(menu.background)).toBeLessThan(60);
    expect(luminance(menu.text)).toBeGreaterThan(180);
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('pin, sort and move work by tap on a phone', async ({ page }) => {
    await openApp(page);
    for (const title of ['one', 'two']) {
      await page.getByTestId('topbar-new-note').click();
      await page.getByTestId('note-title').fill(title);
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
      await page.getByRole('button', { name: 'Back to list' }).tap();
      await expect(page.getByTestId('note-list')).toBeVisible();
    }
    await page.getByTestId('note-sort').selectOption('title');
    await expect.poll(() => titles(page)).toEqual(['one', 'two']);
    await page.getByTestId('note-pin').nth(1).tap();
    await expect.poll(() => titles(page)).toEqual(['two', 'one']);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('new-folder').tap();
    await page.getByTestId('new-folder-name').fill('Pocket');
    await page.getByTestId('new-folder-name').press('Enter');
    await expect(folder(page, 'Pocket')).toBeVisible();
    await page.getByRole('button', { name: 'Close menu' }).click({ position: { x: 380, y: 400 } });
    await page.getByTestId('note-move').nth(1).tap();
    await page.getByTestId('note-move-select').selectOption('Pocket');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(folder(page, 'Pocket')).toContainText('1');
  });
});
