import { textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';
import { addScriptProvider } from './harness/agent-steps';
import { askChat, openChat } from './harness/chat-steps';

test('a fact stated in one chat is sent in the next; switched off or deleted, it is not', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({ contextLength: 8192, reply: () => textStream('Noted.') });
  // The last answer's request: the digest of the chat before (in a response format) may follow it.
  const lastBody = () => JSON.stringify(server.bodies.findLast((body) => body.response_format === undefined));
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });

  await openChat(page);
  const ask = (text: string, answerCount: number) => askChat(page, text, answerCount);

  await ask('Remember that my advisor is Prof. Li.', 1);

  // A new conversation: the fact comes from memory, not from its history.
  await page.getByTestId('chat-new').click();
  await ask('Who is my advisor?', 1);
  expect(lastBody()).toContain('my advisor is Prof. Li');

  // This conversation's switch off: the fact stays out of its requests.
  await page.getByTestId('chat-memory-toggle').uncheck();
  await expect(page.getByTestId('chat-memory-toggle')).not.toBeChecked();
  await ask('Who is my advisor, again?', 2);
  expect(lastBody()).not.toContain('Prof. Li');

  // Deleted in the memory list: no later conversation gets it.
  await page.getByTestId('chat-memory-panel').click();
  const item = page.getByTestId('memory-item').filter({ hasText: 'my advisor is Prof. Li' });
  await expect(item.getByTestId('memory-source')).toHaveText('from you');
  await item.getByTestId('memory-delete').click();
  await expect(page.getByTestId('memory-empty')).toBeVisible();

  await page.getByTestId('chat-new').click();
  await expect(page.getByTestId('chat-memory-toggle')).toBeChecked();
  await ask('Who is my advisor?', 1);
  expect(lastBody()).not.toContain('Prof. Li');
});

test('a new chat answers without waiting for the chat before to be digested; the digest then shows in Memories and is recalled', async ({
  page,
  context,
  scriptServer,
}) => {
  const digest = {
    summary: 'The user planned a hiking trip to the Alps for July.',
    facts: [{ content: 'The user is vegetarian', importance: 0.7, expires_in_days: null }],
  };
  const server = await scriptServer({
    contextLength: 8192,
    reply: (body) => textStream(body.response_format ? JSON.stringify(digest) : 'Sounds good.'),
  });
  // The digest is held until the new chat's answer has streamed: a slow provider's digest.
  let releaseDigest = () => {};
  const digestHeld = new Promise<void>((resolve) => (releaseDigest = resolve));
  let digestAsked = () => {};
  const asked = new Promise<void>((resolve) => (digestAsked = resolve));
  await context.route(`${server.url}/**`, async (route) => {
    if (route.request().postData()?.includes('"response_format"')) {
      digestAsked();
      await digestHeld;
    }
    await route.continue();
  });
  const digests = () => server.bodies.filter((body) => body.response_format !== undefined);
  await openApp(page);
  await addScriptProvider(page, server.url, { apiKey: null });
  await openChat(page);
  const ask = (text: string, answerCount: number) => askChat(page, text, answerCount);

  await ask('Help me plan a hiking trip to the Alps in July. I am vegetarian.', 1);
  await ask('Which huts serve dinner?', 2);
  // Turns of one chat cost no memory request.
  expect(server.bodies).toHaveLength(2);

  await page.getByTestId('chat-memory-panel').click();
  await expect(page.getByTestId('memory-empty')).toBeVisible();
  await page.getByTestId('chat-new').click();
  await ask('What should I pack for the Alps trip?', 1);
  // The answer came while the digest was still held, and said nothing of it.
  await expect(page.getByTestId('chat-digest-status')).toHaveCount(0);
  await asked;
  expect(server.bodies).toHaveLength(3);
  expect(digests()).toHaveLength(0);
  expect(JSON.stringify(server.bodies.at(-1))).not.toContain('Which huts serve dinner?');

  releaseDigest();
  // The open memory list shows the digest once it is stored.
  const items = page.getByTestId('memory-item');
  await expect(items).toHaveCount(2);
  await expect(items.filter({ hasText: 'The user is vegetarian' }).getByTestId('memory-source')).toHaveText(
    'from you',
  );
  await expect(items.filter({ hasText: 'hiking trip to the Alps' })).toHaveAttribute('data-type', 'episodic');
  await expect(items.filter({ hasText: 'hiking trip to the Alps' }).getByTestId('memory-source')).toHaveText(
    'summary of a chat',
  );
  expect(digests()).toHaveLength(1);
  expect(digests()[0]!.response_format).toMatchObject({
    type: 'json_schema',
    json_schema: { name: 'conversation_digest' },
  });
  expect(JSON.stringify(digests()[0]!.messages)).toContain('Which huts serve dinner?');

  // The new chat's next request recalls the digest, not the old chat's messages.
  await ask('Which boots for the Alps trip?', 2);
  const turn = JSON.stringify(server.bodies.at(-1));
  expect(turn).toContain('hiking trip to the Alps for July');
  expect(turn).not.toContain('Which huts serve dinner?');
  expect(digests()).toHaveLength(1);
});
