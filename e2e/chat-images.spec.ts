import type { BrowserContext, Page } from '@playwright/test';
import { startScriptServer, textStream } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

type Part = { type: string; text?: string; image_url?: { url: string } };
type WireMessage = { role: string; content: string | Part[] };

/**
 * The local server as an OpenAI endpoint listing gpt-4o (a vision model in
 * the OpenAI catalog) and script-model (nothing known: text only).
 */
async function visionSetup(page: Page, context: BrowserContext) {
  const server = await startScriptServer({ reply: () => textStream('I see a single pixel.') });
  await context.route(`${server.url}/**`, (route) => route.continue());
  await context.route(`${server.url}/v1/models`, (route) =>
    route.fulfill({
      status: 200,
      headers: { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' },
      body: JSON.stringify({ object: 'list', data: [{ id: 'gpt-4o' }, { id: 'script-model' }] }),
    }),
  );
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('openai');
  await page.getByTestId('provider-base-url').fill(`${server.url}/v1`);
  await page.getByTestId('provider-model').fill('gpt-4o');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="openai"]')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-chat').click();
  // The model list (with capabilities) has arrived once script-model is offered.
  await expect(page.locator('[data-testid="chat-model"] option[value="openai|script-model"]')).toHaveCount(1);
  return server;
}

/** Attaches an image the way a person pastes one, or drops one, from inside the page. */
async function pasteOrDrop(page: Page, how: 'paste' | 'drop', colour: string): Promise<void> {
  await page.evaluate(
    async ({ how, colour }) => {
      const canvas = new OffscreenCanvas(2, 2);
      const context = canvas.getContext('2d')!;
      context.fillStyle = colour;
      context.fillRect(0, 0, 2, 2);
      const blob = await canvas.convertToBlob({ type: 'image/png' });
      const data = new DataTransfer();
      data.items.add(new File([blob], `${how}.png`, { type: 'image/png' }));
      if (how === 'paste') {
        const input = document.querySelector('[data-testid="chat-input"]')!;
        input.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
        );
      } else {
        const thread = document.querySelector('.thread')!;
        thread.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
        );
        thread.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    },
    { how, colour },
  );
}

test('an image picked, pasted or dropped reaches a vision model as OpenAI image parts, with thumbnails', async ({
  page,
  context,
}) => {
  const server = await visionSetup(page, context);
  try {
    await page.getByTestId('chat-model').selectOption('openai|gpt-4o');
    await page
      .getByTestId('chat-attach-input')
      .setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('chat-pending-image')).toHaveCount(1);
    await pasteOrDrop(page, 'paste', '#ff0000');
    await expect(page.getByTestId('chat-pending-image')).toHaveCount(2);
    await pasteOrDrop(page, 'drop', '#0000ff');
    await expect(page.getByTestId('chat-pending-image')).toHaveCount(3);

    await page.getByTestId('chat-input').fill('What is in these pictures?');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]');
    await expect(answer).toHaveAttribute('data-status', 'completed');
    await expect(page.getByTestId('chat-pending-image')).toHaveCount(0);
    const thumbs = page.locator(
      '[data-testid="chat-message"][data-role="user"] [data-testid="chat-message-image"]',
    );
    await expect(thumbs).toHaveCount(3);
    await expect(thumbs.first()).toBeVisible();

    expect(server.bodies).toHaveLength(1);
    const user = (server.bodies[0]!.messages as WireMessage[]).at(-1)!;
    const parts = user.content as Part[];
    expect(parts[0]).toEqual({ type: 'text', text: 'What is in these pictures?' });
    expect(parts.slice(1).map((part) => part.type)).toEqual(['image_url', 'image_url', 'image_url']);
    expect(parts[1]!.image_url!.url).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    for (const part of parts.slice(1)) expect(part.image_url!.url).toMatch(/^data:image\/png;base64,/);
  } finally {
    await server.close();
  }
});

test('a text-only model refuses an image before any request, naming the models that can read it', async ({
  page,
  context,
}) => {
  const server = await visionSetup(page, context);
  try {
    await page.getByTestId('chat-model').selectOption('openai|script-model');
    await page
      .getByTestId('chat-attach-input')
      .setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('chat-pending-image')).toHaveCount(1);
    await page.getByTestId('chat-input').fill('Describe this');
    await page.getByTestId('chat-send').click();
    const refusal = page.getByTestId('chat-refusal');
    await expect(refusal).toContainText('script-model cannot read images. Choose a model that can:');
    await expect(refusal).toContainText('OpenAI · gpt-4o');
    await expect(refusal).not.toContainText('script-model,');
    await expect(page.getByTestId('chat-message')).toHaveCount(0);
    await expect(page.getByTestId('chat-input')).toHaveValue('Describe this');
    expect(server.bodies).toHaveLength(0);

    // Switching to the vision model sends the same message.
    await page.getByTestId('chat-model').selectOption('openai|gpt-4o');
    await page.getByTestId('chat-send').click();
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveAttribute(
      'data-status',
      'completed',
    );
    expect(server.bodies).toHaveLength(1);
  } finally {
    await server.close();
  }
});
