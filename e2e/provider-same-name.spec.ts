import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat } from './harness/chat-steps';
import { textStream } from './harness/openai-script-server';

// Two providers may carry one name (two keys for one service, two "Custom" endpoints left as
// named): every model picker must still offer both, each told apart, and send to the one picked.

test('two providers with the same name are both offered, told apart, and the picked one answers', async ({
  page,
  scriptServer,
}) => {
  const first = await scriptServer({ reply: () => textStream('Answer from the first server') });
  const second = await scriptServer({ reply: () => textStream('Answer from the second server') });
  await openApp(page);
  await addScriptProvider(page, first.url, { name: 'Work' });
  await addScriptProvider(page, second.url, { name: 'Work', providerId: 'custom-2' });
  const hostOf = (url: string) => new URL(url).host;
  const firstLabel = `Work (${hostOf(first.url)}) · script-model`;
  const secondLabel = `Work (${hostOf(second.url)}) · script-model`;

  await page.getByTestId('nav-chat').click();
  const chatPicker = page.getByTestId('chat-model');
  await expect(chatPicker.locator('option', { hasText: 'script-model' })).toHaveText([
    firstLabel,
    secondLabel,
  ]);
  await chatPicker.selectOption({ label: secondLabel });
  await askChat(page, 'Which server are you?', 1);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Answer from the second server',
  );
  expect(second.bodies).toHaveLength(1);
  expect(first.bodies).toEqual([]);

  // The agent's picker lists the same two, each once.
  await page.getByTestId('nav-agent').click();
  const agentPicker = page.getByTestId('agent-model');
  await expect(agentPicker.locator('option', { hasText: 'script-model' })).toHaveText([
    firstLabel,
    secondLabel,
  ]);
});
