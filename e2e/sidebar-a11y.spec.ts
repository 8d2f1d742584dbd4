import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);
const tagItem = (page: Page, tag: string) => page.locator(`[data-testid="tag-item"][data-tag="${tag}"]`);
const noteItem = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

async function makeFolder(page: Page, path: string): Promise<void> {
  await page.getByTestId('new-folder').click();
  await page.getByTestId('new-folder-name').fill(path);
  await page.getByTestId('new-folder-name').press('Enter');
  await expect(folder(page, path)).toBeFocused();
}

/** What has the focus, in words a test can compare: a tree row by its path, else its test id. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    if (element.getAttribute('role') === 'treeitem') return `treeitem ${element.dataset.folder}`;
    return element.dataset.testid ?? element.tagName.toLowerCase();
  });
}

/** Whether the focus is still in the sidebar's Folders section. */
function inFolders(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.closest('[aria-labelledby="folders-heading"]') !== null);
}

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the folder tree is one Tab stop that the arrow keys walk, and says it is a tree', async ({
    page,
  }) => {
    await openApp(page);
    for (const path of ['Alpha', 'Beta/Inner', 'Gamma']) await makeFolder(page, path);
    const tree = page.getByRole('tree', { name: 'Folders' });
    await expect(tree.getByRole('treeitem')).toHaveCount(4);
    await expect(folder(page, 'Beta')).toHaveAttribute('aria-expanded', 'true');
    await expect(folder(page, 'Beta')).toHaveAttribute('aria-level', '1');
    await expect(folder(page, 'Beta/Inner')).toHaveAttribute('aria-level', '2');
    await expect(folder(page, 'Alpha')).not.toHaveAttribute('aria-expanded', /.*/);

    // From the "New folder" button, Tab goes through the section: one row of the tree, then that
    // row's rename button, then out. (It was three stops per folder: fold, folder, rename.)
    await page.getByTestId('new-folder').focus();
    const stops: string[] = [];
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      if (!(await inFolders(page))) break;
      stops.push(await focused(page));
    }
    expect(stops).toEqual(['treeitem Gamma', 'folder-rename']);

    // The arrows, Home and End walk the rows; Left folds and goes up, Right unfolds and goes in.
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('folder-rename')).toHaveCount(4);
    await page.keyboard.press('Shift+Tab');
    await expect(folder(page, 'Gamma')).toBeFocused();
    const walk: [string, string][] = [
      ['Home', 'Alpha'],
      ['ArrowDown', 'Beta'],
      ['ArrowDown', 'Beta/Inner'],
      ['ArrowLeft', 'Beta'],
    ];
    for (const [key, path] of walk) {
      await page.keyboard.press(key);
      await expect(folder(page, path)).toBeFocused();
      await expect(folder(page, path)).toHaveAttribute('tabindex', '0');
    }
    await page.keyboard.press('ArrowLeft');
    await expect(folder(page, 'Beta')).toHaveAttribute('aria-expanded', 'false');
    await expect(folder(page, 'Beta/Inner')).toHaveCount(0);
    await page.keyboard.press('ArrowDown');
    await expect(folder(page, 'Gamma')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowRight');
    await expect(folder(page, 'Beta')).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('ArrowRight');
    await expect(folder(page, 'Beta/Inner')).toBeFocused();
    await page.keyboard.press('End');
    await expect(folder(page, 'Gamma')).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(folder(page, 'Beta/Inner')).toBeFocused();
    await expect(tree.locator('[role="treeitem"][tabindex="0"]')).toHaveCount(1);

    // Enter opens the folder: the list shows it, and the tree marks it as its selection, once
    // (aria-current said the same again).
    await page.keyboard.press('Enter');
    await expect(page.getByText('Folder: Beta/Inner')).toBeVisible();
    await expect(folder(page, 'Beta/Inner')).toHaveAttribute('aria-selected', 'true');
    await expect(folder(page, 'Beta/Inner')).not.toHaveAttribute('aria-current', /.*/);
    await expect(folder(page, 'Alpha')).toHaveAttribute('aria-selected', 'false');

    // Back into the tree with Tab: the row last used. F2 renames it; Escape comes back to it.
    await page.getByTestId('new-folder').focus();
    await page.keyboard.press('Tab');
    await expect(folder(page, 'Beta/Inner')).toBeFocused();
    await page.keyboard.press('F2');
    await expect(page.getByTestId('folder-rename-input')).toBeFocused();
    await expect(page.getByTestId('folder-rename-input')).toHaveValue('Beta/Inner');
    await page.keyboard.press('Escape');
    await expect(folder(page, 'Beta/Inner')).toBeFocused();
  });

  test('Pin keeps its name and says pressed once the note is pinned', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Alpha', 'a');
    const pin = page.getByRole('button', { name: 'Pin Alpha', exact: true });
    await expect(pin).toHaveAttribute('aria-pressed', 'false');
    await pin.focus();
    await page.keyboard.press('Space');
    await expect(noteItem(page, 'Alpha')).toHaveAttribute('data-pinned', 'true');
    // The same button, by the same name, now pressed (it was renamed "Unpin Alpha", read "pressed").
    await expect(pin).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: /Unpin/ })).toHaveCount(0);
  });

  test('the move picker takes the focus when it opens and gives it back when it closes', async ({ page }) => {
    await openApp(page);
    await createNote(page, 'Alpha', 'a');
    await makeFolder(page, 'Projects');
    const move = page.getByTestId('note-move').first();
    const picker = page.getByTestId('note-move-select');
    await move.focus();
    await page.keyboard.press('Enter');
    await expect(picker).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(picker).toHaveCount(0);
    await expect(move).toBeFocused();
  });

  test('a #tag in the open note’s text marks its tag in the sidebar, as its own tags do', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, 'Tagged', 'Working on the #Kernel today.');
    await page.getByTestId('note-tags').fill('os');
    await page.getByTestId('note-tags').blur();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    await expect(tagItem(page, 'os')).toHaveAttribute('data-open-note', 'true');
    await expect(tagItem(page, 'Kernel')).toHaveAttribute('data-open-note', 'true');
    await expect(tagItem(page, 'Kernel').locator('.open-note-dot')).toBeVisible();

    // Another note open: neither is marked; back to the first, both are again.
    await createNote(page, 'Plain', 'no tags');
    await expect(tagItem(page, 'Kernel')).not.toHaveAttribute('data-open-note', 'true');
    await expect(tagItem(page, 'os')).not.toHaveAttribute('data-open-note', 'true');
    await noteItem(page, 'Tagged').click();
    await expect(page.getByTestId('note-title')).toHaveValue('Tagged');
    await expect(tagItem(page, 'Kernel')).toHaveAttribute('data-open-note', 'true');
    await expect(tagItem(page, 'os')).toHaveAttribute('data-open-note', 'true');
  });
});

test.describe('中文', () => {
  test.use({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });

  test('置顶按钮名称不变，置顶后为按下状态', async ({ page }) => {
    await openApp(page);
    await createNote(page, '周报', '本周');
    const pin = page.getByRole('button', { name: '置顶 周报', exact: true });
    await expect(pin).toHaveAttribute('aria-pressed', 'false');
    await pin.focus();
    await page.keyboard.press('Space');
    await expect(noteItem(page, '周报')).toHaveAttribute('data-pinned', 'true');
    await expect(pin).toHaveAttribute('aria-pressed', 'true');
  });
});
