import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * A link that followed its note to another folder is kept in the linking
 * note's History as a link update after a move, not after a rename, in both
 * languages; and a path whose first folder could be read as the vault's name
 * follows its folder's rename.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const item = (page: Page, text: string) => page.getByTestId('note-item').filter({ hasText: text });
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

/** Opens Index, waits for its text, and opens its History. */
async function indexHistory(page: Page, body: string) {
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  await expect(page.getByTestId('note-body')).toHaveValue(body);
  await page.getByTestId('history-open').click();
  const dialog = page.getByTestId('history-dialog');
  await expect(dialog).toBeVisible();
  return dialog.getByTestId('history-version');
}

/** Closes History with Escape: a toast shown over the dialog has a close button of its own. */
async function closeHistory(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('history-dialog')).toBeHidden();
}

test('History names a link update after a move, apart from one after a rename', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(
    page,
    {
      'Vault/Courses/Scheduling.md': 'Round robin gives each process a time slice.',
      'Vault/Archive/Old.md': 'Kept for the archive.',
      'Vault/Index.md': 'See [[Courses/Scheduling|the scheduling notes]].',
    },
    3,
  );

  const moved = item(page, 'Round robin');
  await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
  await page.getByTestId('note-move-select').selectOption('Archive');
  await expect(folder(page, 'Courses')).toHaveCount(0);

  const versions = await indexHistory(page, 'See [[Archive/Scheduling|the scheduling notes]].');
  await expect(versions).toHaveCount(1);
  await expect(versions.first()).toHaveAttribute('data-origin', 'move');
  await expect(versions.first()).toContainText('Link update after a move');
  await closeHistory(page);

  // Renaming the note then is a separate entry, with its own words.
  await item(page, 'Round robin').click();
  await page.getByTestId('note-title').fill('CPU scheduling');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();
  const both = await indexHistory(page, 'See [[Archive/CPU scheduling|the scheduling notes]].');
  await expect(both).toHaveCount(2);
  await expect(both.nth(0)).toContainText('Link update after a rename');
  await expect(both.nth(1)).toContainText('Link update after a move');
  expect(requestLog.foreign()).toEqual([]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('History says a link was updated after a move', async ({ page, requestLog }) => {
    await openApp(page);
    await importVault(
      page,
      {
        'Vault/操作系统/进程调度.md': '时间片轮转调度。',
        'Vault/归档/旧笔记.md': '留作归档。',
        'Vault/Index.md': '见 [[操作系统/进程调度|调度]]。',
      },
      3,
    );
    const moved = item(page, '时间片轮转');
    await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
    await page.getByTestId('note-move-select').selectOption('归档');
    await expect(folder(page, '操作系统')).toHaveCount(0);

    const versions = await indexHistory(page, '见 [[归档/进程调度|调度]]。');
    await expect(versions).toHaveCount(1);
    await expect(versions.first()).toContainText('移动后更新链接');
    expect(requestLog.foreign()).toEqual([]);
  });

  test('renaming a folder rewrites a path that starts like a vault name, and History says it followed a move', async ({
    page,
    requestLog,
  }) => {
    await openApp(page);
    // `课程/操作系统/进程调度` could also read as "the vault 课程, then 操作系统/进程调度".
    await importVault(
      page,
      {
        'Vault/课程/操作系统/进程调度.md': '时间片轮转调度。',
        'Vault/Index.md': '见 [[课程/操作系统/进程调度|调度]]。',
      },
      2,
    );
    await expect(folder(page, '课程')).toBeVisible();

    await folder(page, '课程').hover();
    await page.getByRole('button', { name: '重命名或移动 课程', exact: true }).click();
    await page.getByTestId('folder-rename-input').fill('归档');
    await page.getByTestId('folder-rename-input').press('Enter');
    await expect(folder(page, '归档/操作系统')).toBeVisible();
    await expect(folder(page, '课程')).toHaveCount(0);

    const versions = await indexHistory(page, '见 [[归档/操作系统/进程调度|调度]]。');
    await expect(versions).toHaveCount(1);
    await expect(versions.first()).toContainText('移动后更新链接');
    await closeHistory(page);

    // The rewritten link opens the note in its new folder.
    const link = page.getByTestId('preview').locator('a.wikilink', { hasText: '调度' });
    await expect(link).not.toHaveAttribute('data-missing');
    await link.click();
    await expect(page.getByTestId('note-body')).toHaveValue('时间片轮转调度。');
    await expect(page.getByTestId('note-folder')).toHaveValue('归档/操作系统');
    expect(requestLog.foreign()).toEqual([]);
  });
});
