import { textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat, openChat } from './harness/chat-steps';

const LONG_ANSWER = Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of a long answer.`).join('\n\n');

test('a slow provider: the thread jumps to the question just sent, and the answer says it is waiting', async ({
  page,
  scriptServer,
}) => {
  let release: (() => void) | null = null;
  const server = await scriptServer({
    reply: (body) => {
      const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
      const question = messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
      if (!question.startsWith('Slow')) return textStream(LONG_ANSWER);
      // No first token until the test has seen the waiting line.
      return new Promise<string>((resolve) => (release = () => resolve(textStream('Finally here.'))));
    },
  });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  await askChat(page, 'Tell me a long story', 1);

  // Scrolled up to read the start of the long answer, the user asks the next question.
  // First the whole answer is laid out and the thread has followed it to its end: a
  // scroll before that is undone by the thread following the answer as it grows.
  const messages = page.getByTestId('chat-message');
  await expect(messages.nth(1).getByTestId('chat-answer')).toContainText('Paragraph 30 of a long answer.');
  await expect(messages.nth(1).getByTestId('chat-usage')).toBeInViewport();
  await messages.first().scrollIntoViewIfNeeded();
  await expect(messages.nth(1).getByTestId('chat-usage')).not.toBeInViewport();
  await page.getByTestId('chat-input').fill('Slow question: what next?');
  await page.getByTestId('chat-input').press('Enter');

  const pending = messages.nth(3);
  await expect(pending).toHaveAttribute('data-status', 'streaming');
  await expect(messages.nth(2)).toBeInViewport();
  const waiting = pending.getByTestId('chat-waiting');
  await expect(waiting).toContainText('Waiting for Script · script-model to answer…');
  await expect(waiting).toBeInViewport();
  await expect(waiting).toContainText(/\d+ s$/);

  release!();
  await expect(pending).toHaveAttribute('data-status', 'completed');
  await expect(pending.getByTestId('chat-answer')).toHaveText('Finally here.');
  await expect(waiting).toHaveCount(0);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('on a phone the waiting line is in Chinese and fits the screen', async ({ page, scriptServer }) => {
    const server = await scriptServer({ reply: () => new Promise<string>(() => {}) });
    await openApp(page);
    await addScriptProvider(page, server.url, { apiKey: null });
    await openChat(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('chat-input').fill('操作系统的死锁有哪些必要条件？');
    await page.getByTestId('chat-send').click();
    const waiting = page.getByTestId('chat-waiting');
    await expect(waiting).toContainText('正在等待 Script · script-model 回答…');
    await expect(waiting).toContainText(/\d+ 秒$/);
    const box = (await waiting.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByTestId('chat-stop').click();
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveAttribute(
      'data-status',
      'cancelled',
    );
    await expect(waiting).toHaveCount(0);
  });
});
