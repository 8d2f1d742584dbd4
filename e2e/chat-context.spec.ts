import { startScriptServer, textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';

const LONG = 'Deadlock needs mutual exclusion, hold and wait, no preemption and a circular wait. '.repeat(6);

test('a long chat on a small-context model keeps answering and says earlier messages were summarised', async ({
  page,
  context,
}) => {
  const server = await startScriptServer({
    contextLength: 1024,
    reply: (body) => {
      const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
      const summary = messages.some((m) => m.role === 'system' && m.content.includes('You compress'));
      return textStream(summary ? 'The user asked about deadlock several times.' : 'Noted, keep going.');
    },
  });
  await context.route(`${server.url}/**`, (route) => route.continue());
  try {
    await openApp(page);
    await addScriptProvider(page, server.url, { name: 'Small', apiKey: null });

    await page.getByTestId('nav-chat').click();
    await page.getByTestId('chat-model').selectOption({ label: 'Small · script-model' });
    const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
    for (let turn = 1; turn <= 8; turn++) {
      await page.getByTestId('chat-input').fill(`Question ${turn}: ${LONG}`);
      await page.getByTestId('chat-input').press('Enter');
      await expect(answers.nth(turn - 1)).toHaveAttribute('data-status', 'completed');
    }
    await expect(page.getByTestId('chat-context-notice')).toHaveText(
      'Earlier messages summarised to fit the model’s context window.',
    );
    const sizes = server.bodies.map((body) => JSON.stringify(body.messages).length / 4);
    expect(Math.max(...sizes)).toBeLessThan(1024);
  } finally {
    await server.close();
  }
});
