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

test('a context window set per model in the provider form wins over what the server reports', async ({
  page,
  context,
}) => {
  // The server claims 32k; the user knows the model runs with 1,024 tokens.
  const server = await startScriptServer({
    contextLength: 32_768,
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

    const openForm = async () => {
      await page.getByTestId('open-settings').click();
      await page.getByTestId('settings-nav-providers').click();
      await page
        .locator('[data-testid="provider-item"][data-provider-id="custom"]')
        .getByTestId('provider-edit')
        .click();
      return page.locator('[data-testid="provider-context-window"][data-model="script-model"] input');
    };
    const field = await openForm();
    await field.fill('1024');
    await field.press('Tab');
    // Stored, not only typed: a fresh page reads it back from the settings.
    await page.reload();
    await expect(await openForm()).toHaveValue('1024');
    await page.keyboard.press('Escape');

    await page.getByTestId('nav-chat').click();
    await page.getByTestId('chat-model').selectOption({ label: 'Small · script-model' });
    const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
    for (let turn = 1; turn <= 8; turn++) {
      await page.getByTestId('chat-input').fill(`Question ${turn}: ${LONG}`);
      await page.getByTestId('chat-input').press('Enter');
      await expect(answers.nth(turn - 1)).toHaveAttribute('data-status', 'completed');
    }
    // Eight turns of ~150 tokens would fit the reported 32k whole: only the set window compresses them.
    await expect(page.getByTestId('chat-context-notice')).toBeVisible();
    expect(server.bodies.some((body) => JSON.stringify(body.messages).includes('You compress'))).toBe(true);
    const sizes = server.bodies.map((body) => JSON.stringify(body.messages).length / 4);
    expect(Math.max(...sizes)).toBeLessThan(1024);
    const last = JSON.stringify(server.bodies.at(-1)?.messages);
    expect(last).not.toContain('Question 1:');
  } finally {
    await server.close();
  }
});
