import { createNote, expect, openApp, test } from './fixtures';
import { askNotes } from './harness/chat-steps';

// A Chinese-speaking user: the built-in models answer in the request's language, the sources
// list reads on a phone, and a failed answer says why in Chinese only.
test.use({ locale: 'zh-CN' });

const PHONE = { width: 390, height: 844 };
const LONG_TITLE = '操作系统笔记：进程调度、时间片轮转、多级反馈队列与实时调度算法的比较和总结';
const BODY = [
  '# 进程调度',
  '',
  '时间片轮转是一种进程调度算法：每个进程轮流运行一个时间片，用完就排到就绪队列的末尾。',
].join('\n');

test('the demo agent answers a Chinese request it cannot do in Chinese', async ({ page, requestLog }) => {
  await openApp(page);
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-input').fill('总结我的操作系统笔记');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const completed = page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]');
  await expect(completed).toContainText('演示模型只会找到一篇笔记并为它添加复习任务');
  await expect(completed).not.toContainText('The demo only');
  expect(requestLog.foreign()).toEqual([]);
});

test('the demo agent adds review tasks to a note in the language it was asked in', async ({ page }) => {
  await openApp(page);
  await createNote(page, '死锁笔记', '# 死锁\n\n## 四个必要条件\n\n互斥、占有并等待、不可抢占、循环等待。\n');
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-input').fill('查找死锁内容并创建三个复习任务');
  await page.getByTestId('agent-run').click();
  await page.getByTestId('agent-permission').getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const completed = page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]');
  await expect(completed).toContainText('我为“死锁笔记”添加了 3 个复习任务。');

  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: '死锁笔记' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(/- \[ \] 复习：四个必要条件/);
});

test('the mock model answers a Chinese question about the notes in Chinese', async ({ page }) => {
  await openApp(page);
  await createNote(page, '操作系统笔记', BODY);
  const answer = await askNotes(page, '进程调度的时间片轮转是什么？');
  const text = answer.getByTestId('chat-answer');
  await expect(text).toContainText('根据你的笔记“操作系统笔记”');
  await expect(text).not.toContainText('According to your note');
  await expect(text.locator('a[href="#citation-1"]')).toHaveText('[1]');
});

test('the mock model greets a message written in Chinese in Chinese', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-input').fill('你好');
  await page.getByTestId('chat-send').click();
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'completed');
  await expect(answer.getByTestId('chat-answer')).toContainText('你好！我是 mock 模型');
  await expect(answer.getByTestId('chat-answer')).not.toContainText('I am the mock model');
});

test('on a phone a source shows its title cut short with … and the cited passage under it', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, LONG_TITLE, BODY);
  const answer = await askNotes(page, '进程调度的时间片轮转是什么？');
  await page.setViewportSize(PHONE);

  const source = answer.getByTestId('chat-citation').first();
  await source.scrollIntoViewIfNeeded();
  const row = await source.evaluate((button) => {
    const title = button.querySelector<HTMLElement>('.source-title')!;
    const snippet = button.querySelector<HTMLElement>('.source-snippet')!;
    return {
      viewport: document.documentElement.clientWidth,
      row: button.getBoundingClientRect().right,
      titleRight: title.getBoundingClientRect().right,
      titleCut: title.scrollWidth > title.clientWidth,
      ellipsis: getComputedStyle(title).textOverflow,
      snippetLeft: snippet.getBoundingClientRect().left,
      snippetRight: snippet.getBoundingClientRect().right,
    };
  });
  expect(row.row).toBeLessThanOrEqual(row.viewport);
  expect(row.titleRight).toBeLessThanOrEqual(row.viewport);
  // The long title does not fit: it ends in "…" instead of at the screen's edge.
  expect(row.titleCut).toBe(true);
  expect(row.ellipsis).toBe('ellipsis');
  // The passage that is cited is on screen.
  expect(row.snippetRight).toBeLessThanOrEqual(row.viewport);
  expect(row.snippetLeft).toBeLessThan(row.viewport);
  const snippet = source.locator('.source-snippet');
  await expect(snippet).toContainText('时间片轮转');
  await expect(snippet).toBeInViewport({ ratio: 1 });
});

test('an unreachable provider fails in Chinese only, and still names the URL that failed', async ({
  page,
}) => {
  const baseUrl = 'https://llm.notes-agent.test/v1';
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('provider-name').fill('离线服务');
  await page.getByTestId('provider-base-url').fill(baseUrl);
  await page.getByTestId('provider-model').fill('some-model');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label: '离线服务 · some-model' });
  await page.getByTestId('chat-input').fill('你好');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  await expect(answer.getByTestId('chat-error')).toHaveText('AI 服务暂不可用。');
  await expect(answer).not.toContainText('Could not reach the provider');
  await expect(answer).not.toContainText('Failed to fetch');
  await expect(answer.getByTestId('chat-error-detail')).toHaveCount(0);
  // What names this failure, the address, is still there.
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toHaveAttribute('data-url', baseUrl);
  await expect(help).toContainText(baseUrl);

  // The agent's failed run reads the same way.
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: '离线服务 · some-model' });
  await page.getByTestId('agent-input').fill('列出我的笔记');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-error')).toHaveText('AI 服务暂不可用。', { timeout: 60_000 });
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.getByTestId('agent-run-error-detail')).toHaveCount(0);
  await expect(timeline).not.toContainText('Failed to fetch');
  await expect(timeline.getByTestId('provider-error-help')).toContainText(baseUrl);
});
