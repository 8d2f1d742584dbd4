import type { Page } from '@playwright/test';
import { startAnthropicWireServer } from './harness/anthropic-wire-server';
import { askChat } from './harness/chat-steps';
import { startOllamaWireServer } from './harness/ollama-wire-server';
import { reachableWireServers, type WireServer } from './harness/wire-server';
import { expect, openApp, test } from './fixtures';

// Ollama's and Anthropic's own wires, driven through the UI: a local double
// speaks each protocol as the real service does and records what it was sent.

const reach = reachableWireServers(test);

/** Settings → Providers → Add with `preset`, filled in; the form stays open on the Test. */
async function fillProvider(
  page: Page,
  preset: 'ollama' | 'anthropic',
  fields: { baseUrl: string; model?: string; apiKey?: string },
): Promise<void> {
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption(preset);
  await page.getByTestId('provider-base-url').fill(fields.baseUrl);
  if (fields.model !== undefined) await page.getByTestId('provider-model').fill(fields.model);
  if (fields.apiKey !== undefined) await page.getByTestId('provider-api-key').fill(fields.apiKey);
  await page.getByTestId('provider-test').click();
}

async function saveProvider(page: Page, providerId: string): Promise<void> {
  await page.getByTestId('provider-save').click();
  await expect(page.locator(`[data-testid="provider-item"][data-provider-id="${providerId}"]`)).toBeVisible();
  await page.keyboard.press('Escape');
}

/** Picks, in Chat's model picker, the one option that reads like `text`; fails when there are more. */
async function pickModel(page: Page, text: string | RegExp): Promise<void> {
  const option = page.getByTestId('chat-model').locator('option', { hasText: text });
  await expect(option).toHaveCount(1);
  await page.getByTestId('chat-model').selectOption({ label: (await option.textContent())!.trim() });
}

const chats = (server: WireServer, path: string) =>
  server.requests.filter((request) => request.method === 'POST' && request.path === path);

test('Ollama: a local llama3 connects, is offered once, and streams its answer', async ({
  page,
  context,
}) => {
  const ollama = await reach(context, startOllamaWireServer({ answer: 'Hello from the local llama.' }));
  // "llama3" as people type it; Ollama lists it as llama3:latest.
  await fillProvider(page, 'ollama', { baseUrl: ollama.url, model: 'llama3' });
  const result = page.getByTestId('provider-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('Connected: 2 models');
  await expect(page.getByTestId('provider-test-model')).toHaveCount(0);
  await saveProvider(page, 'ollama');

  await page.getByTestId('nav-chat').click();
  const picker = page.getByTestId('chat-model');
  // The picker shows the default before the provider's list arrives: wait for the list.
  await expect(picker.locator('option', { hasText: 'qwen2.5:7b' })).toHaveCount(1);
  const llama = picker.locator('option', { hasText: 'llama3' });
  // One option, named as saved, with the listed model's size, and the id not said twice.
  await expect(llama).toHaveText('Ollama · llama3 (8.0B)');
  await pickModel(page, 'llama3');
  await askChat(page, 'Hi llama, are you there?', 1);
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer.getByTestId('chat-answer')).toHaveText('Hello from the local llama.');

  const [sent] = chats(ollama, '/api/chat');
  // Run with the window /api/show reported for it.
  expect(sent?.body).toMatchObject({ model: 'llama3', stream: true, options: { num_ctx: 8192 } });
  const messages = (sent!.body!.messages as Array<{ role: string; content: string }>).filter(
    (message) => message.role === 'user',
  );
  expect(messages.at(-1)?.content).toContain('Hi llama, are you there?');
  // A local Ollama gets no credentials of any kind.
  for (const request of ollama.requests) {
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['x-api-key']).toBeUndefined();
  }
});

test('Ollama without this page in OLLAMA_ORIGINS: the test and the chat point at OLLAMA_ORIGINS', async ({
  page,
  context,
}) => {
  const ollama = await reach(context, startOllamaWireServer({ cors: false }));
  await fillProvider(page, 'ollama', { baseUrl: ollama.url, model: 'llama3' });
  await expect(page.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('provider-test-help')).toContainText('OLLAMA_ORIGINS');
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('provider-help')).toContainText(`OLLAMA_ORIGINS="${origin}" ollama serve`);
  await saveProvider(page, 'ollama');

  await page.getByTestId('nav-chat').click();
  await pickModel(page, 'llama3');
  await page.getByTestId('chat-input').fill('Hi llama');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed');
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toContainText(`Could not reach ${ollama.url}`);
  await expect(help).toContainText('OLLAMA_ORIGINS');
  await help.getByTestId('provider-error-settings').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="ollama"]')).toBeVisible();
});

test('Anthropic: the preset’s claude-sonnet-4-5 connects with the key, is offered once, and streams', async ({
  page,
  context,
}) => {
  const key = 'sk-ant-e2e-wire-key';
  const anthropic = await reach(
    context,
    startAnthropicWireServer({ apiKey: key, answer: 'Hello from Claude.' }),
  );
  await fillProvider(page, 'anthropic', { baseUrl: anthropic.url, apiKey: key });
  await expect(page.getByTestId('provider-model')).toHaveValue('claude-sonnet-4-5');
  const result = page.getByTestId('provider-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('Connected: 2 models');
  await expect(page.getByTestId('provider-test-model')).toHaveCount(0);
  await saveProvider(page, 'anthropic');

  await page.getByTestId('nav-chat').click();
  const picker = page.getByTestId('chat-model');
  await expect(picker.locator('option', { hasText: 'Haiku 4.5' })).toHaveCount(1);
  const sonnet = picker.locator('option', { hasText: /sonnet[- ]4[-.]5/i });
  await expect(sonnet).toHaveCount(1);
  await expect(sonnet).toContainText('Claude Sonnet 4.5');
  await pickModel(page, /sonnet[- ]4[-.]5/i);
  await askChat(page, 'Hi Claude', 1);
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer.getByTestId('chat-answer')).toHaveText('Hello from Claude.');

  const [sent] = chats(anthropic, '/v1/messages');
  expect(sent?.body).toMatchObject({ model: 'claude-sonnet-4-5', stream: true });
  const last = (sent!.body!.messages as Array<{ role: string; content: Array<{ text?: string }> }>).at(-1)!;
  expect(last.role).toBe('user');
  expect(last.content.map((block) => block.text ?? '').join('')).toContain('Hi Claude');
  expect(sent!.headers['x-api-key']).toBe(key);
  expect(sent!.headers['anthropic-version']).toBe('2023-06-01');
  expect(sent!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
});

test('Anthropic refusing the key (401): the test and the chat say the key was rejected', async ({
  page,
  context,
}) => {
  const anthropic = await reach(context, startAnthropicWireServer({ apiKey: 'sk-ant-the-right-one' }));
  await fillProvider(page, 'anthropic', { baseUrl: anthropic.url, apiKey: 'sk-ant-a-wrong-one' });
  await expect(page.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('provider-test-result')).toContainText('Anthropic refused the API key.');
  await expect(page.getByTestId('provider-test-advice')).toContainText('Paste the key again');
  await saveProvider(page, 'anthropic');

  await page.getByTestId('nav-chat').click();
  await pickModel(page, 'claude-sonnet-4-5');
  await page.getByTestId('chat-input').fill('Hi Claude');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed');
  await expect(answer.getByTestId('chat-error')).toHaveText('The AI provider rejected the API key.');
  // Retry alone cannot help: the answer says which address refused the key and opens its settings.
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toContainText(`${anthropic.url} did not accept the API key.`);
  await help.getByTestId('provider-error-settings').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="anthropic"]')).toBeVisible();
  expect(chats(anthropic, '/v1/messages').map((request) => request.headers['x-api-key'])).toEqual([
    'sk-ant-a-wrong-one',
  ]);
});
