import { heldReplies, textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat, openChat } from './harness/chat-steps';
import { switchLanguage } from './harness/language-steps';

/*
 * A screen reader's list of the thread's articles names each message by who wrote it and
 * when, instead of reading "article, article, …". The time is the reader's clock, so it is
 * matched by its shape, never by its value.
 */
const TIME = String.raw`\d{1,2}:\d{2}(\s?[AP]M)?`;

test('each chat message is an article named by who wrote it and when; an answer still streaming stays silent', async ({
  page,
  scriptServer,
}) => {
  const held = heldReplies();
  let asked = 0;
  const server = await scriptServer({
    reply: () => (++asked === 1 ? textStream('FCFS runs jobs in arrival order.') : held.reply()),
  });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  await askChat(page, 'What is FCFS?', 1);

  const question = page.getByRole('article', { name: new RegExp(`^You, ${TIME}$`) });
  const answer = page.getByRole('article', {
    name: new RegExp(`^Assistant \\(Script script-model\\), ${TIME}$`),
  });
  await expect(question).toHaveCount(1);
  await expect(question).toContainText('What is FCFS?');
  await expect(answer).toHaveCount(1);
  await expect(answer).toContainText('FCFS runs jobs in arrival order.');

  // Inside a named message, its buttons keep their short names; which message they act on
  // is their description (the article's name alone would not say it once the list is long).
  await expect(question.getByRole('button', { name: 'Copy' })).toHaveAccessibleDescription(
    'Your message: What is FCFS?',
  );
  await expect(question.getByRole('button', { name: 'Edit' })).toBeVisible();
  await expect(answer.getByRole('button', { name: 'Regenerate' })).toHaveAccessibleDescription(
    'Answer: FCFS runs jobs in arrival order.',
  );

  // A second question: two of each, the streaming answer already named, and nothing read out.
  await page.getByTestId('chat-input').fill('And SJF?');
  await page.getByTestId('chat-input').press('Enter');
  const streaming = page.locator(
    '[data-testid="chat-message"][data-role="assistant"][data-status="streaming"]',
  );
  await expect(streaming).toHaveCount(1);
  await expect(page.getByRole('article', { name: new RegExp(`^You, ${TIME}$`) })).toHaveCount(2);
  await expect(answer).toHaveCount(2);
  await expect(streaming).toHaveAttribute(
    'aria-label',
    new RegExp(`^Assistant \\(Script script-model\\), ${TIME}$`),
  );
  expect(
    await streaming.evaluate((element) => element.closest('[aria-live], [role="log"], [role="status"]')),
  ).toBeNull();

  held.release(textStream('SJF runs the shortest job first.'));
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').nth(1)).toHaveAttribute(
    'data-status',
    'completed',
  );
  await expect(page.getByTestId('chat-announcement')).toHaveText(
    'Answer ready. SJF runs the shortest job first.',
  );
  await expect(answer.nth(1)).toContainText('SJF runs the shortest job first.');
});

test('in Chinese, chat messages are named 你 and 助手 with the model that answered', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => textStream('先来先服务按到达顺序运行。') });
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await switchLanguage(page, 'zh-CN');
  await openChat(page);
  await askChat(page, '什么是先来先服务？', 1);

  const question = page.getByRole('article', { name: /^你，\d{2}:\d{2}$/ });
  const answer = page.getByRole('article', { name: /^助手（Script script-model），\d{2}:\d{2}$/ });
  await expect(question).toContainText('什么是先来先服务？');
  await expect(answer).toContainText('先来先服务按到达顺序运行。');
  await expect(question.getByRole('button', { name: '复制' })).toHaveAccessibleDescription(
    '你的消息：什么是先来先服务？',
  );
});
