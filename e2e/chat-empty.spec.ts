import { textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';

test('the empty chat names the model that will answer: the real provider picked, the mock only when it is picked', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: () => textStream('Hello.') });
  await openApp(page);
  await page.getByTestId('nav-chat').click();
  // The thread's empty-state line (the model picker's options say "mock" too).
  const empty = page.getByTestId('chat-view').getByText(/^Ask /);
  // Only the mock is configured: it says so, and where to add a real provider.
  await expect(empty).toHaveText(
    'Ask anything. The mock model answers offline; add a real provider in Settings.',
  );

  await addScriptProvider(page, server.url, { apiKey: null });
  await page.getByTestId('chat-model').selectOption({ label: 'Script · script-model' });
  await expect(empty).toHaveText('Ask script-model anything. Your messages are sent to Script.');

  // The mock picked again, beside a real provider: it is named, and the way to real answers.
  await page.getByTestId('chat-model').selectOption('mock|mock-1');
  await expect(empty).toHaveText(
    'Ask anything. The mock model answers offline with scripted text; pick another model above for real answers.',
  );
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the empty chat names the picked provider in Chinese too', async ({ page, scriptServer }) => {
    const server = await scriptServer({ reply: () => textStream('你好。') });
    await openApp(page);
    await addScriptProvider(page, server.url, { apiKey: null });
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('chat-model').selectOption({ label: 'Script · script-model' });
    await expect(page.getByTestId('chat-view').getByText(/^(随便问点什么|向 )/)).toHaveText(
      '向 script-model 提问吧。你的消息会发送给 Script。',
    );
  });
});
