import { createNote, expect, openApp, sourceLineOf, test } from './fixtures';
import { importNotes } from './harness/vault-import';

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
  await expect.poll(() => sourceLineOf(revealed)).toBe(4);
  await expect(revealed).toContainText('进程调度决定下一个运行的进程');

  // Clearing the query brings the note list back.
  await page.getByTestId('search-input').fill('');
  await expect(page.getByTestId('search-result')).toHaveCount(0);
  await expect(page.getByTestId('note-item')).toHaveCount(3);
  expect(requestLog.foreign()).toEqual([]);
});

test('a Chinese word finds the notes that hold it, not every note sharing one of its characters', async ({
  page,
}) => {
  await openApp(page);
  await importNotes(page, [
    ['进程', '进程是资源分配的基本单位。'],
    ['优化', '进一步优化这个过程，程序会更快。'],
    ['数据库', '数据库的索引建在区分度高的列上。'],
    ['仓库', '数据分析的结果放在仓库里。'],
  ]);
  const results = page.getByTestId('search-result');
  const titles = page.getByTestId('search-result-title');
  for (const mode of ['fts', 'hybrid'] as const) {
    await page.getByTestId('search-mode').selectOption(mode);
    await page.getByTestId('search-input').fill('进程');
    await expect(page.getByTestId('search-total')).toHaveText('1 match in 1 note');
    await expect(titles).toHaveText(['进程']);
    await expect(results.first().locator('mark')).toHaveText(['进程', '进程']);

    await page.getByTestId('search-input').fill('数据库');
    await expect(page.getByTestId('search-total')).toHaveText('1 match in 1 note');
    await expect(titles).toHaveText(['数据库']);
  }
  // One character is still a word of its own.
  await page.getByTestId('search-input').fill('程');
  await expect(page.getByTestId('search-total')).toHaveText('2 matches in 2 notes');
});

test('Settings shows the index status and rebuilds the index with progress', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Kernel', 'The scheduler picks the next task.');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-search').click();
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

test('results show the text as read, not its Markdown, and a match in the title shows the note from its start', async ({
  page,
}) => {
  await openApp(page);
  const body = [
    'Start here: **page** the on-call first.',
    '',
    '## Restore the `etcd` backup',
    '',
    '| step | command |',
    '| --- | --- |',
    '| restore | [etcdctl](https://etcd.io/docs) snapshot restore |',
  ].join('\n');
  await createNote(page, 'Runbook', body);
  await createNote(page, 'Groceries', 'Buy rice and cucumbers.');

  await page.getByTestId('search-input').fill('etcdctl');
  const result = page.getByTestId('search-result');
  await expect(result).toHaveCount(1);
  await expect(result.getByTestId('search-snippet')).toHaveText(
    'step · command restore · etcdctl snapshot restore',
  );
  await expect(result.getByTestId('search-snippet').locator('mark')).toHaveText(['etcdctl']);

  // The title alone matches: every block ties, and the note's first one is shown, the title marked.
  await page.getByTestId('search-input').fill('runbook');
  const group = page.getByTestId('search-group');
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId('search-snippet')).toHaveText('Start here: page the on-call first.');
  await expect(group.getByTestId('search-result-title').locator('mark')).toHaveText(['Runbook']);
  await group.getByTestId('search-more-in-note').click();
  // A heading is no result of its own: its words are searched with the table under it.
  await expect(group.getByTestId('search-snippet')).toHaveText([
    'Start here: page the on-call first.',
    'step · command restore · etcdctl snapshot restore',
  ]);
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

test('a note with many matching blocks is listed once with "N more matches", and results page past 20 notes', async ({
  page,
}) => {
  await openApp(page);
  const notes: Array<[string, string]> = Array.from({ length: 24 }, (_, i) => [
    `Single ${i}`,
    `Deploying service ${i} on kubernetes.`,
  ]);
  notes.push([
    'Cluster',
    'kubernetes pods\n\nkubernetes nodes\n\nkubernetes ingress\n\nkubernetes kubernetes services',
  ]);
  await importNotes(page, notes);

  await page.getByTestId('search-input').fill('kubernetes');
  await expect(page.getByTestId('search-total')).toHaveAttribute('data-total-notes', '25');
  await expect(page.getByTestId('search-total')).toHaveAttribute('data-total-hits', '28');
  await expect(page.getByTestId('search-total')).toHaveText('28 matches in 25 notes');
  await expect(page.getByTestId('search-group')).toHaveCount(20);
  await expect(page.getByTestId('search-page')).toHaveText('Page 1 of 2');

  const cluster = page.getByTestId('search-group').filter({ hasText: 'Cluster' });
  await expect(cluster.getByTestId('search-result')).toHaveCount(1);
  await expect(cluster.getByTestId('search-snippet').first()).toContainText('kubernetes kubernetes services');
  // One note, one match: both counts in the singular.
  await page.getByTestId('search-input').fill('ingress');
  await expect(page.getByTestId('search-total')).toHaveText('1 match in 1 note');
  await page.getByTestId('search-input').fill('kubernetes');
  await expect(page.getByTestId('search-total')).toHaveAttribute('data-total-hits', '28');
  await cluster.getByTestId('search-more-in-note').click();
  await expect(cluster.getByTestId('search-result')).toHaveCount(4);
  await expect(cluster.getByTestId('search-more-in-note')).toHaveAttribute('aria-expanded', 'true');

  await page.getByTestId('search-next').click();
  await expect(page.getByTestId('search-page')).toHaveText('Page 2 of 2');
  await expect(page.getByTestId('search-group')).toHaveCount(5);
  await expect(page.getByTestId('search-next')).toBeDisabled();
  await page.getByTestId('search-previous').click();
  await expect(page.getByTestId('search-group')).toHaveCount(20);
});
