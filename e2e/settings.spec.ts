import type { Page, Route } from '@playwright/test';
import { buildTinyWhisper } from '../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { createNote, dialogFitsTheWindow, expect, openApp, test } from './fixtures';
import { silenceWav } from './harness/wav';

// Settings as pages, the one model host every download uses, and errors that say what to do next.

const PAGES = [
  'general',
  'providers',
  'local-models',
  'search',
  'transcription',
  'agent',
  'plugins',
  'memory',
  'storage',
] as const;

/** The host the embedding and reranker specs route; here it answers only Whisper's files. */
const MODEL_HOST = 'https://models.notes-agent.test/';
const WHISPER_ID = 'onnx-community/whisper-tiny';
const whisper = buildTinyWhisper();

async function openSettingsPage(page: Page, id: (typeof PAGES)[number]): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId(`settings-nav-${id}`).click();
  await expect(page.getByTestId(`settings-page-${id}`)).toBeVisible();
}

test('every settings page opens from the page list on a desktop', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings-nav')).toBeVisible();
  // General first.
  await expect(page.getByTestId('settings-page-general')).toBeVisible();
  for (const id of PAGES) {
    const link = page.getByTestId(`settings-nav-${id}`);
    await expect(link).toHaveAttribute('href', `#/settings/${id}`);
    await link.click();
    await expect(page.getByTestId(`settings-page-${id}`)).toBeVisible();
    await expect(link).toHaveAttribute('aria-current', 'page');
    // The list stays beside the page.
    await expect(page.getByTestId('settings-nav')).toBeVisible();
    expect(await dialogFitsTheWindow(page)).toBe(true);
  }
  await expect(page.getByTestId('settings-page-storage').getByTestId('storage-usage')).not.toBeEmpty();
});

test('memories have one page: Agent settings links to Memory instead of listing them', async ({ page }) => {
  await openApp(page);
  await openSettingsPage(page, 'agent');
  const agent = page.getByTestId('settings-page-agent');
  await expect(agent.getByTestId('agent-memory-note')).toBeVisible();
  await expect(agent.getByTestId('memory-settings')).toHaveCount(0);
  await agent.getByTestId('agent-memory-link').click();
  await expect(page.getByTestId('settings-page-memory')).toBeVisible();
  await expect(page.getByTestId('settings-nav-memory')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('settings-page-memory').getByTestId('memory-settings')).toBeVisible();
});

test('Storage lists what uses space and empties the trash', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Keep 茶', '留下 🍵 kept');
  await createNote(page, 'Disposable', 'text');
  await page.getByTestId('trash-note').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(0);

  await openSettingsPage(page, 'storage');
  const kind = (name: string) => page.locator(`[data-testid="storage-kind"][data-kind="${name}"]`);
  await expect(kind('notes')).toHaveAttribute('data-count', '1');
  // UTF-8 bytes of title and body: a Chinese character is three, the emoji four.
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  await expect(kind('notes')).toHaveAttribute('data-bytes', String(bytes('Keep 茶') + bytes('留下 🍵 kept')));
  await expect(kind('trash')).toHaveAttribute('data-count', '1');
  await expect(kind('trash')).toHaveAttribute('data-bytes', String(bytes('Disposable') + bytes('text')));
  await expect(kind('attachments')).toHaveAttribute('data-count', '0');
  await expect(kind('note-versions')).toBeVisible();
  await kind('trash').getByTestId('storage-empty-trash').click();
  await page.getByTestId('confirm-accept').click();
  await expect(kind('trash')).toHaveAttribute('data-count', '0');
  await expect(kind('notes')).toHaveAttribute('data-count', '1');
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-trash').click();
  await expect(page.getByTestId('note-item').filter({ hasText: 'Disposable' })).toHaveCount(0);
});

test('Storage shows chat models, model files and the app apart, and each button deletes only its own', async ({
  page,
}) => {
  await openApp(page);
  // Two files as transformers.js keeps them, and a stand-in for a web-llm cache.
  await page.evaluate(async () => {
    const files = await caches.open('transformers-cache');
    const body = (size: number) =>
      new Response(new Uint8Array(size), { headers: { 'content-length': String(size) } });
    await files.put('https://models.example/org/whisper/resolve/main/config.json', body(1_000));
    await files.put('https://models.example/org/whisper/resolve/main/onnx/encoder.onnx', body(250_000));
    await (await caches.open('webllm/model')).put('https://models.example/chat/params.bin', body(10));
  });
  await openSettingsPage(page, 'storage');
  const kind = (name: string) => page.locator(`[data-testid="storage-kind"][data-kind="${name}"]`);
  await expect(kind('model-files')).toHaveAttribute('data-count', '2');
  await expect(kind('model-files')).toHaveAttribute('data-bytes', '251000');
  await expect(kind('model-files')).toContainText('Downloaded model files (search, speech, speaker labels)');
  await expect(kind('models')).toContainText('Downloaded in-browser chat models');
  await expect(kind('caches')).toContainText('The app, kept for offline use');
  // One button a row, each saying what it deletes; the app's own files have none.
  await expect(kind('model-files').getByRole('button')).toHaveText('Delete model files');
  await expect(kind('models').getByRole('button')).toHaveText('Delete chat models');
  await expect(kind('caches').getByRole('button')).toHaveCount(0);

  await kind('model-files').getByTestId('storage-clear-model-files').click();
  await expect(page.locator('#confirm-title')).toHaveText('Delete model files');
  await expect(page.getByText(/the search, speech and speaker-label models\?/)).toBeVisible();
  await page.getByTestId('confirm-accept').click();
  await expect(kind('model-files')).toHaveAttribute('data-count', '0');
  await expect(kind('model-files').getByRole('button')).toBeDisabled();
  const left = await page.evaluate(async () => ({
    files: await caches.has('transformers-cache'),
    chat: await caches.has('webllm/model'),
  }));
  expect(left).toEqual({ files: false, chat: true });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('settings show the page list, then the chosen page with a way back', async ({ page }) => {
    await openApp(page);
    // Settings opened once start-up is over is a history entry, so closing it goes back.
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    // The sidebar (with the Settings button) is behind the menu on a phone.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('open-settings').click();
    for (const id of PAGES) {
      await expect(page.getByTestId('settings-nav')).toBeVisible();
      await expect(page.locator('[data-testid^="settings-page-"]')).toBeHidden();
      await page.getByTestId(`settings-nav-${id}`).click();
      await expect(page.getByTestId(`settings-page-${id}`)).toBeVisible();
      await expect(page.getByTestId('settings-nav')).toBeHidden();
      expect(await dialogFitsTheWindow(page)).toBe(true);
      await page.getByTestId('settings-back').click();
    }
    // Closed and opened again: the list first. Closing Settings goes back to the address it
    // was opened from, and applying that address closes the menu: wait for that hashchange
    // before opening the menu, or the late close shuts it again.
    await page.evaluate(() => {
      (window as { backLanded?: Promise<void> }).backLanded = new Promise<void>((resolve) =>
        addEventListener('hashchange', () => resolve(), { once: true }),
      );
    });
    await page.keyboard.press('Escape');
    await page.evaluate(() => (window as { backLanded?: Promise<void> }).backLanded);
    await expect(page.getByTestId('settings')).toHaveCount(0);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByTestId('open-settings').click();
    await expect(page.getByTestId('settings-nav')).toBeVisible();
  });
});

test('the one model host reaches every model download: chat models, embeddings, reranker, Whisper and speaker labels', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const requested: string[] = [];
  await context.route(`${MODEL_HOST}**`, async (route: Route) => {
    const url = route.request().url();
    requested.push(url);
    const prefix = `${MODEL_HOST}${WHISPER_ID}/resolve/main/`;
    const file = url.startsWith(prefix)
      ? whisper[url.slice(prefix.length) as keyof typeof whisper]
      : undefined;
    const headers = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    if (file === undefined) return route.fulfill({ status: 404, headers, body: 'not found' });
    return route.fulfill({ status: 200, headers, body: typeof file === 'string' ? file : Buffer.from(file) });
  });
  const from = (part: string) => requested.filter((url) => url.includes(part));

  await openApp(page);
  await openSettingsPage(page, 'local-models');
  await page.getByTestId('model-host').fill(MODEL_HOST);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();

  // In-browser chat model (WebLLM).
  const local = page.locator('[data-testid="local-model"][data-model="Qwen2.5-0.5B-Instruct-q4f32_1-MLC"]');
  await local.getByTestId('local-model-start').click();
  await expect(local.getByTestId('local-model-error')).toBeVisible({ timeout: 30_000 });
  expect(from('Qwen2.5-0.5B-Instruct-q4f32_1-MLC').length).toBeGreaterThan(0);

  // Embedding model and reranker (transformers.js).
  await page.getByTestId('settings-nav-search').click();
  await page.getByTestId('embedding-model').selectOption('Xenova/multilingual-e5-small');
  await page.getByTestId('embedding-use').click();
  await expect(page.getByTestId('embedding-download-job').getByTestId('job-item')).toHaveAttribute(
    'data-status',
    'failed',
    { timeout: 45_000 },
  );
  expect(from('Xenova/multilingual-e5-small/').length).toBeGreaterThan(0);
  await page.getByTestId('reranker-model').selectOption('Xenova/ms-marco-MiniLM-L-6-v2');
  await page.getByTestId('reranker-use').click();
  await expect(page.getByTestId('reranker-download-job').getByTestId('job-item')).toHaveAttribute(
    'data-status',
    'failed',
    { timeout: 45_000 },
  );
  expect(from('Xenova/ms-marco-MiniLM-L-6-v2/').length).toBeGreaterThan(0);

  // Whisper and the speaker labels model: the page says where they come from.
  await page.getByTestId('settings-nav-transcription').click();
  await expect(page.getByTestId('transcription-model-host-note')).toContainText(MODEL_HOST);
  await page
    .getByTestId('transcription-diarization-model')
    .selectOption('onnx-community/pyannote-segmentation-3.0');
  await page.getByTestId('transcription-save-source').click();
  await expect(page.getByTestId('transcription-source-saved')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-transcription').click();
  await page.getByTestId('audio-file-input').setInputFiles({
    name: 'short.wav',
    mimeType: 'audio/wav',
    buffer: silenceWav(3),
  });
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', /completed|failed/, { timeout: 150_000 });
  expect(from(`${WHISPER_ID}/resolve/main/config.json`).length).toBeGreaterThan(0);
  expect(from('onnx-community/pyannote-segmentation-3.0/').length).toBeGreaterThan(0);

  // Every model request went to that one host.
  expect(requested.every((url) => url.startsWith(MODEL_HOST))).toBe(true);
});

test("an unreachable provider's error names its URL and the likely causes, and links to Providers", async ({
  page,
}) => {
  const baseUrl = 'https://llm.notes-agent.test/v1';
  await openApp(page);
  await openSettingsPage(page, 'providers');
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('provider-name').fill('Offline box');
  await page.getByTestId('provider-base-url').fill(baseUrl);
  await page.getByTestId('provider-model').fill('some-model');
  // The test says so before saving.
  await page.getByTestId('provider-test').click();
  await expect(page.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('provider-test-help')).toContainText(`Could not reach ${baseUrl}`);
  await expect(page.getByTestId('provider-test-help')).toContainText('CORS');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label: 'Offline box · some-model' });
  await page.getByTestId('chat-input').fill('Hello?');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toHaveAttribute('data-url', baseUrl);
  await expect(help).toContainText(`Could not reach ${baseUrl}`);
  await expect(help).toContainText('The server is not running');
  await expect(help).toContainText('CORS');
  await expect(help).toContainText('The base URL is wrong');
  await expect(help).toHaveAttribute('data-kind', 'providers.unreachable');

  await help.getByTestId('provider-error-settings').click();
  await expect(page.getByTestId('settings-page-providers')).toBeVisible();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');

  // The agent's failed run says the same, in words rather than an error code.
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Offline box · some-model' });
  await page.getByTestId('agent-input').fill('List my notes');
  await page.getByTestId('agent-run').click();
  const failure = page.getByTestId('agent-run-error');
  await expect(failure).toHaveAttribute('data-code', 'PROVIDER_UNAVAILABLE', { timeout: 60_000 });
  await expect(failure).not.toContainText('PROVIDER_UNAVAILABLE');
  const agentHelp = page.getByTestId('agent-timeline').getByTestId('provider-error-help');
  await expect(agentHelp).toContainText(`Could not reach ${baseUrl}`);
  await expect(agentHelp).toContainText('CORS');
  await agentHelp.getByTestId('provider-error-settings').click();
  await expect(page.getByTestId('settings-page-providers')).toBeVisible();
});

test('a provider that answers with a server error says so, without the checklist for an unreachable address', async ({
  page,
  context,
}) => {
  const baseUrl = 'https://busy.notes-agent.test/v1';
  let requests = 0;
  // The server is there (CORS and all) and answers every request with a 500.
  await context.route(`${baseUrl}/**`, async (route: Route) => {
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*' };
    if (route.request().method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors });
    requests += 1;
    return route.fulfill({
      status: 500,
      headers: { ...cors, 'Content-Type': 'application/json' },
      body: JSON.stringify({ error: { message: 'upstream crashed', type: 'server_error' } }),
    });
  });
  await openApp(page);
  await openSettingsPage(page, 'providers');
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('provider-name').fill('Busy box');
  await page.getByTestId('provider-base-url').fill(baseUrl);
  await page.getByTestId('provider-model').fill('some-model');
  await page.getByTestId('provider-test').click();
  await expect(page.getByTestId('provider-test-result')).toHaveAttribute('data-ok', 'false');
  const testHelp = page.getByTestId('provider-test-help');
  await expect(testHelp).toContainText(`${baseUrl} answered, but with a server error`);
  await expect(testHelp).toContainText('try again in a moment');
  await expect(testHelp).not.toContainText('CORS');
  await expect(testHelp).not.toContainText('Could not reach');
  await page.getByTestId('provider-save').click();
  await expect(page.locator('[data-testid="provider-item"][data-provider-id="custom"]')).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-model').selectOption({ label: 'Busy box · some-model' });
  await page.getByTestId('chat-input').fill('Hello?');
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  expect(requests).toBeGreaterThan(1);
  await expect(answer.getByTestId('chat-error')).toHaveText('The AI provider is not available.');
  const help = answer.getByTestId('provider-error-help');
  await expect(help).toHaveAttribute('data-kind', 'providers.serverError');
  await expect(help).toContainText(`${baseUrl} answered, but with a server error`);
  await expect(help).not.toContainText('CORS');
  await expect(help.getByTestId('provider-error-settings')).toBeVisible();

  // The stored answer keeps it: after a reload the help is the same.
  await page.reload();
  await expect(answer.getByTestId('provider-error-help')).toHaveAttribute(
    'data-kind',
    'providers.serverError',
  );

  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Busy box · some-model' });
  await page.getByTestId('agent-input').fill('List my notes');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-error')).toHaveAttribute('data-code', 'PROVIDER_UNAVAILABLE', {
    timeout: 60_000,
  });
  const agentHelp = page.getByTestId('agent-timeline').getByTestId('provider-error-help');
  await expect(agentHelp).toContainText(`${baseUrl} answered, but with a server error`);
  await expect(agentHelp).not.toContainText('CORS');
});
