import { createNote, expect, openApp, test } from './fixtures';

const OS_BODY = [
  '# 操作系统',
  '',
  '内存管理使用分页机制。',
  '',
  '进程调度决定下一个运行的进程，常见算法有时间片轮转和多级反馈队列。',
  '',
  '文件系统负责持久化存储。',
].join('\n');

test('a Chinese query finds the note offline, highlighted, and opens it at the block', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '操作系统笔记', OS_BODY);
  await createNote(page, '并发编程', '线程共享所属进程的地址空间。');
  await createNote(page, 'Cooking', '# Dinner\n\nBraise the pork belly slowly.\n\nScheduling: rice first.');

  await page.getByTestId('search-input').fill('进程调度');
  const results = page.getByTestId('search-result');
  const first = results.first();
  await expect(first).toContainText('操作系统笔记');
  await expect(first.locator('mark').first()).toHaveText('进程调度');
  await expect(first).toHaveAttribute('data-block-id', /.+/);
  await expect(results.filter({ hasText: 'Cooking' })).toHaveCount(0);

  // The same note leads in hybrid mode too.
  await page.getByTestId('search-mode').selectOption('hybrid');
  await expect(first).toContainText('操作系统笔记');
  await expect(page.getByTestId('search-fallback')).toHaveCount(0);

  await first.click();
  await expect(page.getByTestId('note-title')).toHaveValue('操作系统笔记');
  const revealed = page.getByTestId('preview').locator('[data-search-reveal]');
  await expect(revealed).toHaveAttribute('data-source-line', '4');
  await expect(revealed).toContainText('进程调度决定下一个运行的进程');

  // Clearing the query brings the note list back.
  await page.getByTestId('search-input').fill('');
  await expect(page.getByTestId('search-result')).toHaveCount(0);
  await expect(page.getByTestId('note-item')).toHaveCount(3);
  expect(requestLog.foreign()).toEqual([]);
});

test('Settings shows the index status and rebuilds the index with progress', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Kernel', 'The scheduler picks the next task.');
  await page.getByTestId('open-settings').click();
  const settings = page.getByTestId('index-settings');
  await expect(settings.getByTestId('index-embedding')).toContainText('hash-v1');
  await expect(settings.getByTestId('index-vectors')).toHaveAttribute('data-compatible', 'true');
  await expect(settings.getByTestId('index-incompatible')).toHaveCount(0);
  await settings.getByTestId('rebuild-index').click();
  const job = settings.getByTestId('job-item');
  await expect(job).toHaveAttribute('data-status', 'completed');
  await expect(job.getByTestId('job-progress')).toHaveAttribute('data-percent', '100');
  await expect(settings.getByTestId('index-state')).toHaveAttribute('data-state', 'idle');
  await page.keyboard.press('Escape');

  await page.getByTestId('search-input').fill('scheduler');
  await expect(page.getByTestId('search-result').first()).toContainText('Kernel');
});

test('search as you type completes the last word: "kuber" finds the Kubernetes note', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Cluster notes', '# Deploy\n\nWe run everything on Kubernetes with three nodes.');
  await createNote(page, 'Groceries', 'Buy rice and cucumbers.');
  await page.getByTestId('search-input').fill('kuber');
  const results = page.getByTestId('search-result');
  await expect(results).toHaveCount(1);
  await expect(results.first()).toContainText('Cluster notes');
  await expect(results.first().locator('mark').first()).toHaveText('Kubernetes');
});

test('a nonsense query finds nothing in full-text, vector and hybrid mode', async ({ page }) => {
  await openApp(page);
  await createNote(page, '操作系统笔记', OS_BODY);
  await createNote(page, 'Cooking', '# Dinner\n\nBraise the pork belly slowly.');
  await page.getByTestId('search-input').fill('qzxv blorft wug');
  const list = page.getByTestId('search-results');
  for (const mode of ['fts', 'vector', 'hybrid'] as const) {
    await page.getByTestId('search-mode').selectOption(mode);
    await expect(list).toHaveAttribute('data-mode-used', mode);
    await expect(page.getByTestId('search-no-results')).toBeVisible();
    await expect(page.getByTestId('search-result')).toHaveCount(0);
  }
  // A real word still finds its note in vector mode.
  await page.getByTestId('search-input').fill('pork belly');
  await expect(page.getByTestId('search-result').first()).toContainText('Cooking');
});
