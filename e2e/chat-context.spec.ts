import type { Page } from '@playwright/test';
import { textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat, openChat } from './harness/chat-steps';

// Eight chat turns, each a full request and streamed answer: heavy on a loaded machine.
test.setTimeout(180_000);

const LONG = 'Deadlock needs mutual exclusion, hold and wait, no preemption and a circular wait. '.repeat(6);

/** Answers a compression request with a summary, any other turn with a short reply. */
function summarisingReply(body: Record<string, unknown>): string {
  const messages = (body.messages ?? []) as Array<{ role: string; content: string }>;
  const summary = messages.some((m) => m.role === 'system' && m.content.includes('You compress'));
  return textStream(summary ? 'The user asked about deadlock several times.' : 'Noted, keep going.');
}

/** Eight long questions on the "Small" provider's model, each answered before the next. */
async function chatEightLongTurns(page: Page): Promise<void> {
  await openChat(page, 'Small · script-model');
  for (let turn = 1; turn <= 8; turn++) await askChat(page, `Question ${turn}: ${LONG}`, turn);
}

test('a long chat on a small-context model keeps answering and says earlier messages were summarised', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ contextLength: 1024, reply: summarisingReply });
  await openApp(page);
  await addScriptProvider(page, server.url, { name: 'Small', apiKey: null });

  await chatEightLongTurns(page);
  await expect(page.getByTestId('chat-context-notice')).toHaveText(
    'Earlier messages summarised to fit the model’s context window.',
  );
  const sizes = server.bodies.map((body) => JSON.stringify(body.messages).length / 4);
  expect(Math.max(...sizes)).toBeLessThan(1024);
});

test('a context window set per model in the provider form wins over what the server reports', async ({
  page,
  scriptServer,
}) => {
  // The server claims 32k; the user knows the model runs with 1,024 tokens.
  const server = await scriptServer({ contextLength: 32_768, reply: summarisingReply });
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
  // Stored, not only typed: a fresh page reads it back from the settings. It loads at the root:
  // reloading `#/settings/providers` reopens Settings by itself, racing the click that opens it.
  await openApp(page);
  await expect(await openForm()).toHaveValue('1024');
  await page.keyboard.press('Escape');

  await chatEightLongTurns(page);
  // Eight turns of ~150 tokens would fit the reported 32k whole: only the set window compresses them.
  await expect(page.getByTestId('chat-context-notice')).toBeVisible();
  expect(server.bodies.some((body) => JSON.stringify(body.messages).includes('You compress'))).toBe(true);
  const sizes = server.bodies.map((body) => JSON.stringify(body.messages).length / 4);
  expect(Math.max(...sizes)).toBeLessThan(1024);
  const last = JSON.stringify(server.bodies.at(-1)?.messages);
  expect(last).not.toContain('Question 1:');
});
