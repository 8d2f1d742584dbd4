import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * A vault imported, one of its notes renamed in the app and edited in
 * Obsidian, the vault imported again with "Update": the note is known by the
 * file it came from, so it is updated with the edit instead of added a
 * second time, and the job's report says which note was updated.
 */

const SCHEDULING = '进程调度决定哪个就绪进程下一个占用 CPU：先来先服务、短作业优先、时间片轮转。\n';
const EDITED = `${SCHEDULING}\n多级反馈队列兼顾响应时间与吞吐量（在 Obsidian 里补充）。\n`;
const MEMORY = '虚拟内存让每个进程以为自己独占一段连续的地址空间，由页表映射到物理内存。\n';

const course = (scheduling: string) => ({
  'vault/操作系统/进程调度.md': scheduling,
  'vault/操作系统/虚拟内存.md': MEMORY,
});

function zipOf(files: Record<string, string>): Buffer {
  return Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)]))),
  );
}

/** The list's rows whose title is exactly this one. */
function rowsTitled(page: Page, title: string) {
  return page
    .getByTestId('note-item')
    .locator('.title')
    .filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) });
}

test('a note renamed here and edited in Obsidian is updated on re-import, not added twice', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, course(SCHEDULING), 2);
  await rowsTitled(page, '进程调度').click();
  await page.getByTestId('note-title').fill('CPU 调度');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(rowsTitled(page, 'CPU 调度')).toHaveCount(1);
  // Another note open while the import runs: the report's link then opens the updated note afresh.
  await rowsTitled(page, '虚拟内存').click();
  await expect(page.getByTestId('note-title')).toHaveValue('虚拟内存');

  await page
    .getByTestId('import-zip-input')
    .setInputFiles({ name: 'vault.zip', mimeType: 'application/zip', buffer: zipOf(course(EDITED)) });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-on-duplicate-update').check();
  await dialog.getByTestId('import-start').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('job-item').nth(1)).toHaveAttribute('data-status', 'completed');

  await expect(
    page.getByTestId('toast').filter({ hasText: 'Import finished: 0 new, 2 updated, 0 skipped' }),
  ).toBeVisible();
  // Still two notes: the renamed one took the edit, no second 进程调度 beside it.
  await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', '2');
  await expect(rowsTitled(page, '进程调度')).toHaveCount(1);
  await expect(rowsTitled(page, 'CPU 调度')).toHaveCount(0);
  await page.getByTestId('job-panel-toggle').click();
  const report = page.getByTestId('job-item').nth(1).getByTestId('import-notes');
  await expect(report.getByTestId('import-notes-created')).toHaveCount(0);
  await expect(report.getByTestId('import-notes-updated')).toContainText('进程调度 (was “CPU 调度”)');

  await report.getByRole('link', { name: '进程调度 (was “CPU 调度”)' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('进程调度');
  await expect(page.getByTestId('note-body')).toHaveValue(EDITED);
});
