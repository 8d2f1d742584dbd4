import type { Page } from '@playwright/test';
import { createNote, expect, test } from './fixtures';
import { folder, makeFolder, menuItem, start } from './harness/folder-steps';

/**
 * Deleting a folder from the folder tree, as in Obsidian or Notion: after a confirmation that
 * says what goes, the folder and the folders inside it leave the tree and their notes go to the
 * trash, with an Undo; a note restored from the trash goes back into its folder.
 */

const row = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

/** A new note put into `path` through its folder field; the tree counts it there. */
async function noteIn(page: Page, title: string, path: string): Promise<void> {
  await createNote(page, title, `${title} text`);
  await page.getByTestId('note-folder').fill(path);
  await page.getByTestId('note-folder').press('Tab');
  await expect(folder(page, path)).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
}

/** The count a folder's row shows. */
const count = (page: Page, path: string) => folder(page, path).locator('.count');

test.describe('desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('deleting a folder sends its notes, nested ones too, to the trash; Undo and Restore bring them back into it', async ({
    page,
  }) => {
    await start(page);
    await noteIn(page, 'Elsewhere', 'Other');
    await noteIn(page, 'Top note', 'Courses');
    await noteIn(page, 'Deep note', 'Courses/OS/Processes');
    await makeFolder(page, 'Courses/Empty');
    await expect(count(page, 'Courses')).toHaveText('2');

    // The open note (Deep note) is inside: it goes too.
    await folder(page, 'Courses').click({ button: 'right' });
    await menuItem(page, 'Delete folder…').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText('Delete the folder “Courses”?');
    await expect(dialog).toContainText('Move the folder “Courses” and its 2 notes to Trash?');
    await dialog.getByRole('button', { name: 'Move to Trash' }).click();

    const toast = page
      .getByTestId('toast')
      .filter({ hasText: 'Folder “Courses” deleted; its 2 notes are in Trash.' });
    await expect(toast).toBeVisible();
    // The pointer on the toast keeps it (and its Undo) on screen while the checks below run.
    await toast.hover();
    for (const path of ['Courses', 'Courses/OS', 'Courses/OS/Processes', 'Courses/Empty'])
      await expect(folder(page, path)).toHaveCount(0);
    await expect(folder(page, 'Other')).toHaveCount(1);
    await expect(page.getByTestId('note-title')).toHaveCount(0);
    await expect(row(page, 'Top note')).toHaveCount(0);
    await expect(row(page, 'Elsewhere')).toHaveCount(1);

    // The trash holds them; back on the toast, the pointer keeps it on screen meanwhile.
    await page.getByTestId('nav-trash').click();
    await toast.hover();
    await expect(row(page, 'Top note')).toHaveCount(1);
    await expect(row(page, 'Deep note')).toHaveCount(1);
    await expect(page.getByTestId('note-item')).toHaveCount(2);

    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Folder “Courses” is back.' })).toBeVisible();
    await expect(page.getByTestId('note-item')).toHaveCount(0);
    await expect(count(page, 'Courses')).toHaveText('2');
    await expect(count(page, 'Courses/OS/Processes')).toHaveText('1');
    // The empty folder made inside comes back too.
    await expect(count(page, 'Courses/Empty')).toHaveText('0');

    // Again, then one note restored from the trash: it is back in its folder, which the tree shows again.
    await folder(page, 'Courses').click({ button: 'right' });
    await menuItem(page, 'Delete folder…').click();
    await dialog.getByRole('button', { name: 'Move to Trash' }).click();
    await expect(folder(page, 'Courses')).toHaveCount(0);
    await expect(page.getByTestId('note-item')).toHaveCount(2);
    await row(page, 'Deep note').click();
    await page.getByTestId('restore-note').click();
    await expect(row(page, 'Deep note')).toHaveCount(0);
    await expect(count(page, 'Courses/OS/Processes')).toHaveText('1');
    await expect(count(page, 'Courses')).toHaveText('1');
    await folder(page, 'Courses/OS/Processes').click();
    await row(page, 'Deep note').click();
    await expect(page.getByTestId('note-folder')).toHaveValue('Courses/OS/Processes');
    await expect(page.getByTestId('note-title')).toHaveValue('Deep note');
  });

  test('Delete on a folder asks first; No keeps it with the keyboard on it, an empty one just goes', async ({
    page,
  }) => {
    await start(page);
    await makeFolder(page, 'Alpha');
    await makeFolder(page, 'Beta/Inner');

    await folder(page, 'Beta').focus();
    await page.keyboard.press('Delete');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('The folder “Beta” holds no notes');
    await page.getByTestId('confirm-cancel').click();
    await expect(folder(page, 'Beta')).toBeFocused();
    await expect(folder(page, 'Beta/Inner')).toHaveCount(1);

    await page.keyboard.press('Delete');
    await dialog.getByRole('button', { name: 'Delete folder' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Folder “Beta” deleted.' })).toBeVisible();
    await expect(folder(page, 'Beta')).toHaveCount(0);
    await expect(folder(page, 'Beta/Inner')).toHaveCount(0);
    // The keyboard goes on from the row that took its place.
    await expect(folder(page, 'Alpha')).toBeFocused();

    // A parent shown only for the folder goes with it: the keyboard goes on to the row above it.
    await makeFolder(page, 'Gamma/Inner');
    await page.keyboard.press('Delete');
    await dialog.getByRole('button', { name: 'Delete folder' }).click();
    await expect(folder(page, 'Gamma')).toHaveCount(0);
    await expect(folder(page, 'Alpha')).toBeFocused();
    // The last folder: All notes takes the keyboard.
    await page.keyboard.press('Delete');
    await dialog.getByRole('button', { name: 'Delete folder' }).click();
    await expect(page.getByTestId('folder-item')).toHaveCount(0);
    await expect(page.getByTestId('nav-all')).toBeFocused();
  });
});

test.describe('中文', () => {
  test.use({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' });

  test('删除文件夹：菜单、确认对话框和提示都用中文', async ({ page }) => {
    await start(page);
    await noteIn(page, '进程调度', '课程/操作系统');
    await folder(page, '课程').focus();
    await page.keyboard.press('Shift+F10');
    await expect(page.getByRole('menu', { name: '课程 的操作' }).getByRole('menuitem')).toHaveText([
      '在其中新建文件夹…',
      '重命名…',
      '移动…',
      '删除文件夹…',
    ]);
    await page.keyboard.press('End');
    await expect(menuItem(page, '删除文件夹…')).toBeFocused();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading')).toHaveText('删除文件夹“课程”？');
    await expect(dialog).toContainText('将文件夹“课程”及其中的 1 篇笔记移到回收站？');
    await dialog.getByRole('button', { name: '移到回收站' }).click();
    const toast = page
      .getByTestId('toast')
      .filter({ hasText: '已删除文件夹“课程”，其中的 1 篇笔记已移到回收站。' });
    await expect(toast).toBeVisible();
    await toast.hover();
    await expect(folder(page, '课程')).toHaveCount(0);
    await toast.getByRole('button', { name: '撤销' }).click();
    await expect(count(page, '课程/操作系统')).toHaveText('1');
  });
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the folder menu’s Delete folder… is tapped, the dialog fits the screen, and Undo brings the folder back', async ({
    page,
  }) => {
    await start(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.locator('#sidebar');
    await drawer.evaluate((element) => Promise.all(element.getAnimations().map((slide) => slide.finished)));
    await makeFolder(page, 'Pocket/Inner');

    await folder(page, 'Pocket').focus();
    await page.keyboard.press('Shift+F10');
    await menuItem(page, 'Delete folder…').tap();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('The folder “Pocket” holds no notes');
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await dialog.getByRole('button', { name: 'Delete folder' }).tap();
    await expect(folder(page, 'Pocket')).toHaveCount(0);
    const toast = page.getByTestId('toast').filter({ hasText: 'Folder “Pocket” deleted.' });
    await toast.getByRole('button', { name: 'Undo' }).tap();
    await expect(folder(page, 'Pocket/Inner')).toHaveCount(1);
  });
});
