import type { Page } from '@playwright/test';
import { startScriptServer, textStream, type ScriptServer } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';

type WireMessage = { role: string; content: string };

/** The scripted model answers "Answer <n>: <question>", n counting every completion. */
async function echoServer(): Promise<ScriptServer> {
  let count = 0;
  return startScriptServer({
    reply: (body) => {
      const last = ((body.messages ?? []) as WireMessage[]).at(-1);
      count += 1;
      return textStream(`Answer ${count}: ${last?.content ?? ''}`);
    },
  });
}

async function addProvider(page: Page, server: ScriptServer): Promise<void> {
  await addScriptProvider(page, server.url, { apiKey: null });
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label: 'Script · script-model' });
}

async function ask(page: Page, text: string): Promise<void> {
  const answers = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  const before = await answers.count();
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-input').press('Enter');
  await expect(answers.nth(before)).toHaveAttribute('data-status', 'completed');
}

const userTexts = (server: ScriptServer) =>
  server.bodies.map((body) =>
    (body.messages as WireMessage[]).filter((message) => message.role === 'user').map((m) => m.content),
  );

test('copy, edit-and-resend after a confirm, regenerate, and save an answer as a note', async ({
  page,
  context,
}) => {
  const server = await echoServer();
  await context.route(`${server.url}/**`, (route) => route.continue());
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  try {
    await openApp(page);
    await addProvider(page, server);
    await ask(page, 'What is 2+2?');
    await ask(page, 'And 3+3?');
    const messages = page.getByTestId('chat-message');
    await expect(messages).toHaveCount(4);

    // Copy an answer.
    await messages.nth(1).getByTestId('chat-copy').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Copied to the clipboard.' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Answer 1: What is 2+2?');

    // Edit the first question: the later turn goes, after a confirm.
    await messages.nth(0).getByTestId('chat-edit').click();
    await page.getByTestId('chat-edit-input').fill('What is 2+3?');
    await page.getByTestId('chat-edit-send').click();
    await expect(page.getByRole('dialog')).toContainText('drops the 2 later messages');
    await page.getByTestId('confirm-accept').click();
    await expect(messages).toHaveCount(2);
    await expect(messages.nth(1)).toHaveAttribute('data-status', 'completed');
    await expect(messages.nth(0)).toContainText('What is 2+3?');
    await expect(messages.nth(1)).toContainText('Answer 3: What is 2+3?');
    expect(userTexts(server).at(-1)).toEqual(['What is 2+3?']);

    // Regenerate the last answer.
    await messages.nth(1).getByTestId('chat-regenerate').click();
    await expect(messages.nth(1)).toContainText('Answer 4: What is 2+3?');
    await expect(messages).toHaveCount(2);
    expect(server.bodies).toHaveLength(4);

    // Save it as a note and open the note.
    await messages.nth(1).getByTestId('chat-save-note').click();
    const saved = page.getByTestId('toast').filter({ hasText: 'Saved as the note “What is 2+3?”' });
    await expect(saved).toBeVisible();
    await saved.getByRole('button', { name: 'Open' }).click();
    await expect(page.getByTestId('note-title')).toHaveValue('What is 2+3?');
    // The keyboard goes along to the note (the toast and its button are gone).
    await expect(page.getByTestId('note-title')).toBeFocused();
    await expect(page.getByTestId('note-body')).toHaveValue('Answer 4: What is 2+3?');
  } finally {
    await server.close();
  }
});

test('rename, search, delete with undo, and a system prompt sent with later answers', async ({
  page,
  context,
}) => {
  const server = await echoServer();
  await context.route(`${server.url}/**`, (route) => route.continue());
  try {
    await openApp(page);
    await addProvider(page, server);
    await ask(page, 'Kafka partitions');
    await page.getByTestId('chat-new').click();
    await ask(page, 'Baking bread');
    const rows = page.getByTestId('chat-conversation');
    await expect(rows).toHaveCount(2);

    // Rename.
    await page.locator('.conversation-row', { hasText: 'Baking bread' }).getByTestId('chat-rename').click();
    await page.getByTestId('chat-rename-input').fill('Sourdough');
    await page.getByTestId('chat-rename-save').click();
    await expect(rows.filter({ hasText: 'Sourdough' })).toHaveCount(1);

    // Search finds by title and by message text.
    await page.getByTestId('chat-search').fill('sourdough');
    await expect(rows).toHaveCount(1);
    await page.getByTestId('chat-search').fill('PARTITIONS');
    await expect(rows).toHaveText(['Kafka partitions']);
    await page.getByTestId('chat-search').fill('nothing of the kind');
    await expect(rows).toHaveCount(0);
    await expect(page.getByText('No conversation matches.')).toBeVisible();
    await page.getByTestId('chat-search').fill('');
    await expect(rows).toHaveCount(2);

    // Delete, then Undo brings it back with its messages.
    await page
      .locator('.conversation-row', { hasText: 'Kafka partitions' })
      .getByTestId('chat-delete')
      .click();
    await expect(rows).toHaveText(['Sourdough']);
    const toast = page.getByTestId('toast').filter({ hasText: 'Conversation deleted.' });
    await toast.getByRole('button', { name: 'Undo' }).click();
    await expect(rows).toHaveCount(2);
    await rows.filter({ hasText: 'Kafka partitions' }).click();
    await expect(page.getByTestId('chat-message')).toHaveCount(2);

    // A system prompt for this conversation goes with its next request.
    await page.getByTestId('chat-system-prompt').locator('summary').click();
    await page.getByTestId('chat-system-prompt-input').fill('Always answer like a pirate.');
    await page.getByTestId('chat-system-prompt-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'System prompt saved' })).toBeVisible();
    const before = server.bodies.length;
    await ask(page, 'And consumers?');
    const system = (server.bodies[before]!.messages as WireMessage[])[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Always answer like a pirate.');
    expect(JSON.stringify(server.bodies.slice(0, before))).not.toContain('pirate');
  } finally {
    await server.close();
  }
});

test('an old conversation opens at its latest message, and toasts stay clear of the input', async ({
  page,
  context,
}) => {
  const server = await startScriptServer({
    reply: () =>
      textStream(Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n')),
  });
  await context.route(`${server.url}/**`, (route) => route.continue());
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  try {
    await openApp(page);
    await addProvider(page, server);
    for (let turn = 1; turn <= 4; turn++) await ask(page, `Long question ${turn}`);
    await page.getByTestId('chat-new').click();
    await ask(page, 'Short one');

    await page.getByTestId('chat-conversation').filter({ hasText: 'Long question 1' }).click();
    const messages = page.getByTestId('chat-message');
    await expect(messages).toHaveCount(8);
    await expect(messages.last()).toBeInViewport();
    await expect(messages.first()).not.toBeInViewport();

    await messages.last().getByTestId('chat-copy').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Copied to the clipboard.' });
    await expect(toast).toBeVisible();
    const toastBox = (await toast.boundingBox())!;
    const inputBox = (await page.getByTestId('chat-input').boundingBox())!;
    const sendBox = (await page.getByTestId('chat-send').boundingBox())!;
    for (const box of [inputBox, sendBox]) expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(box.y);
  } finally {
    await server.close();
  }
});
