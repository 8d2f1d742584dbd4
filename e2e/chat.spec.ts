import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { startHeldStreamServer } from './harness/held-stream-server';

const RECORDING = new URL(
  '../src/providers/openai-compatible/__fixtures__/deepseek-text.chunks.txt',
  import.meta.url,
);

/** A tiny OpenAI-compatible endpoint on 127.0.0.1 that replays one SSE recording, with CORS. */
async function startReplay(): Promise<{ url: string; server: Server; authorizations: string[] }> {
  const lines = readFileSync(RECORDING, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#') && !line.startsWith(':'));
  const authorizations: string[] = [];
  const server = createServer((req, res) => {
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'authorization, content-type, accept',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    authorizations.push(req.headers.authorization ?? '');
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'replay-model', object: 'model' }] }));
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
      for (const line of lines) res.write(`data: ${line}\n\n`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, authorizations };
}

test('chat with the mock provider streams, shows thinking, and Stop stops it', async ({ page, context }) => {
  // The answer Stop stops is held open after its first words: it is still streaming when Stop is
  // pressed, however slow the machine (a demo answer of fixed length could end before).
  const held = await startHeldStreamServer('Once upon a time');
  await context.route(`${held.url}/**`, (route) => route.continue());
  try {
    await openApp(page);
    await page.getByTestId('nav-chat').click();
    await expect(page.getByTestId('chat-model')).toContainText('mock');

    await page.getByTestId('chat-input').fill('Hello');
    await page.getByTestId('chat-send').click();
    const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText('Hello');
    await expect(answer).toHaveAttribute('data-status', 'completed');
    await expect(answer).toContainText('I am the mock model');
    await expect(answer.getByTestId('chat-thinking')).toContainText(/Thought for \d+\.\d s/);
    await answer.getByTestId('chat-thinking').locator('summary').click();
    await expect(answer.getByTestId('chat-thinking')).toContainText('demo model');
    await expect(answer.getByTestId('chat-usage')).toContainText('tokens/s');

    await addScriptProvider(page, held.url);
    await page.getByTestId('chat-model').selectOption({ label: 'Script · script-model' });
    await page.getByTestId('chat-input').fill('Tell me a long story');
    await page.getByTestId('chat-send').click();
    const long = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(long.getByTestId('chat-answer')).toHaveText('Once upon a time');
    await expect(long).toHaveAttribute('data-status', 'streaming');
    await page.getByTestId('chat-stop').click();
    // Stop reached the provider: the request was dropped, so no more words can come.
    await held.dropped;
    await expect(long).toHaveAttribute('data-status', 'cancelled');
    await expect(long.getByTestId('chat-answer')).toHaveText('Once upon a time');
    await expect(long).toContainText('Stopped');
    await expect(page.getByTestId('chat-stop')).toHaveCount(0);
    await expect(page.getByTestId('chat-retry')).toBeVisible();
    // The message box takes the next question at once.
    await page.getByTestId('chat-input').fill('Another question');
    await expect(page.getByTestId('chat-send')).toBeEnabled();

    // Persisted: after a reload the conversation is there, the stopped answer's words kept.
    await page.reload();
    await page.getByTestId('nav-chat').click();
    await page.getByTestId('chat-conversation').first().click();
    await expect(page.locator('[data-testid="chat-message"]')).toHaveCount(4);
    const stored = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(stored).toHaveAttribute('data-status', 'cancelled');
    await expect(stored.getByTestId('chat-answer')).toHaveText('Once upon a time');
  } finally {
    await held.close();
  }
});

test('an OpenAI-compatible provider on a local replay server answers in the UI', async ({
  page,
  context,
}) => {
  const replay = await startReplay();
  await context.route(`${replay.url}/**`, (route) => route.continue());
  try {
    await openApp(page);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-nav-providers').click();
    await page.getByTestId('provider-add').click();
    await page.getByTestId('provider-preset').selectOption('custom');
    await page.getByTestId('provider-name').fill('Replay');
    await page.getByTestId('provider-base-url').fill(`${replay.url}/v1`);
    await page.getByTestId('provider-model').fill('replay-model');
    await page.getByTestId('provider-api-key').fill('sk-e2e-secret');
    await page.getByTestId('provider-test').click();
    await expect(page.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'true');
    await page.getByTestId('provider-save').click();
    const saved = page.locator('[data-testid="provider-item"][data-provider-id="custom"]');
    await expect(saved).toBeVisible();
    await saved.getByTestId('provider-edit').click();
    await expect(page.getByTestId('provider-api-key')).toHaveValue('');
    await page.keyboard.press('Escape');

    await page.getByTestId('nav-chat').click();
    await page.getByTestId('chat-model').selectOption({ label: 'Replay · replay-model' });
    await page.getByTestId('chat-input').fill('Say hi');
    await page.getByTestId('chat-send').click();
    const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await expect(answer).toHaveAttribute('data-status', 'completed');
    await expect(answer.getByTestId('chat-answer')).not.toBeEmpty();
    await expect(answer.getByTestId('chat-usage')).toContainText('Replay');
    expect(replay.authorizations).toContain('Bearer sk-e2e-secret');
  } finally {
    replay.server.closeAllConnections();
    await new Promise((resolve) => replay.server.close(resolve));
  }
});
