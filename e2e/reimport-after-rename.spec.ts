import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault, importZip } from './harness/vault-import';

/**
 * A vault imported, one of its notes renamed in the app, the vault imported
 * again (with a note added in Obsidian meanwhile): the renamed note is known
 * by its text and not added a second time, and the job's report names what
 * was added and what was already here, under the title it has now.
 */

const SCHEDULING = '进程调度决定哪个就绪进程下一个占用 CPU：先来先服务、短作业优先、时间片轮转。\n';
const MEMORY = '虚拟内存让每个进程以为自己独占一段连续的地址空间，由页表映射到物理内存。\n';
const DEADLOCK = '死锁的四个必要条件：互斥、占有并等待、不可抢占、循环等待，破坏其一即可预防。\n';

const FIRST = { 'vault/操作系统/进程调度.md': SCHEDULING, 'vault/操作系统/虚拟内存.md': MEMORY };
const AGAIN = { ...FIRST, 'vault/操作系统/死锁.md': DEADLOCK };

function zipOf(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])));
}

/** The list's rows whose title is exactly this one. */
function rowsTitled(page: Page, title: string) {
  return page
    .getByTestId('note-item')
    .locator('.title')
    .filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) });
}

/** Imports the vault, renames 进程调度 to CPU 调度 in the app, imports the grown vault again. */
async function importRenameImport(page: Page): Promise<void> {
  await openApp(page);
  await importVault(page, FIRST, 2);
  await rowsTitled(page, '进程调度').click();
  await page.getByTestId('note-title').fill('CPU 调度');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(rowsTitled(page, 'CPU 调度')).toHaveCount(1);

  await importZip(page, 'vault.zip', zipOf(AGAIN));
  const second = page.getByTestId('job-item').nth(1);
  await expect(second).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', '3');
}

test('importing a vault again after a rename adds only the new note, and the report names both', async ({
  page,
}) => {
  await importRenameImport(page);
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Import finished: 1 new, 0 updated, 2 skipped' }),
  ).toBeVisible();
  // No second 进程调度 beside the renamed note.
  await expect(rowsTitled(page, '进程调度')).toHaveCount(0);
  await expect(rowsTitled(page, 'CPU 调度')).toHaveCount(1);
  await expect(rowsTitled(page, '死锁')).toHaveCount(1);

  await page.getByTestId('job-panel-toggle').click();
  const report = page.getByTestId('job-item').nth(1).getByTestId('import-notes');
  await expect(report.getByTestId('import-notes-created')).toHaveText(/^New:\s*死锁\s*$/);
  await expect(report.getByTestId('import-notes-skipped')).toContainText('进程调度 (here as “CPU 调度”)');
  await expect(report.getByTestId('import-notes-skipped')).toContainText('虚拟内存');

  // The added note opens from the report.
  await report.getByTestId('import-notes-created').getByRole('link', { name: '死锁' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('死锁');
  // And the note it knew, under the name it has here.
  await report.getByRole('link', { name: '进程调度 (here as “CPU 调度”)' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('CPU 调度');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the report names the added and the known notes in Chinese', async ({ page }) => {
    await importRenameImport(page);
    await expect(rowsTitled(page, '进程调度')).toHaveCount(0);
    await page.getByTestId('job-panel-toggle').click();
    const report = page.getByTestId('job-item').nth(1).getByTestId('import-notes');
    await expect(report.getByTestId('import-notes-created')).toHaveText(/^新增：\s*死锁\s*$/);
    await expect(report.getByTestId('import-notes-skipped')).toHaveText(
      /^已在笔记本中，跳过：\s*进程调度（笔记本中名为“CPU 调度”）\s*、虚拟内存\s*$/,
    );
  });
});
