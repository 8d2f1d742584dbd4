import type { BrowserContext, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

// In-browser models end to end: the page, the core worker, the nested
// local-model worker and web-llm's Cache API storage. The "model host" is a
// fake served by `context.route` on the app's own origin (set as the mirror in
// Settings → Local models): a chat config, a tensor manifest with four shards
// served slowly, a tokenizer and a model library. It has no real weights or
// compiled library, so it cannot generate text: generation is tested with
// web-llm's engine double (src/providers/webllm/*.test.ts,
// src/services/local-models-service.test.ts). Chromium here offers WebGPU
// through SwiftShader, without `shader-f16`.

const F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const SHARDS = 4;
const SHARD_BYTES = 256 * 1024;

interface FakeHub {
  /** Shard requests seen, by URL. */
  shardRequests: string[];
  /** Shards delivered whole (a cancelled request is not). */
  shardsServed: number;
  /** Milliseconds each shard takes. */
  shardDelayMs: number;
  mode: 'ok' | 'missing' | 'offline';
}

async function serveFakeHub(context: BrowserContext): Promise<FakeHub> {
  const hub: FakeHub = { shardRequests: [], shardsServed: 0, shardDelayMs: 1000, mode: 'ok' };
  await context.route(/\/fake-(hub|libs)\//, async (route) => {
    const url = route.request().url();
    const file = url.slice(url.lastIndexOf('/') + 1);
    try {
      if (hub.mode === 'offline') return await route.abort('internetdisconnected');
      if (url.includes('/fake-libs/')) {
        return await route.fulfill({ body: Buffer.from([0, 97, 115, 109]), contentType: 'application/wasm' });
      }
      if (hub.mode === 'missing' && file === 'tensor-cache.json') {
        return await route.fulfill({ status: 404, body: 'Entry not found' });
      }
      if (file === 'mlc-chat-config.json')
        return await route.fulfill({ json: { tokenizer_files: ['tokenizer.json'] } });
      if (file === 'tokenizer.json') return await route.fulfill({ json: { version: '1.0' } });
      if (file === 'tensor-cache.json') {
        const records = Array.from({ length: SHARDS }, (_, index) => ({
          dataPath: `params_shard_${index}.bin`,
          format: 'raw-shard',
          nbytes: SHARD_BYTES,
          records: [],
        }));
        return await route.fulfill({ json: { metadata: {}, records } });
      }
      if (file.startsWith('params_shard_')) {
        hub.shardRequests.push(url);
        await new Promise((resolve) => setTimeout(resolve, hub.shardDelayMs));
        return await route.fulfill({
          body: Buffer.alloc(SHARD_BYTES, 1),
          contentType: 'application/octet-stream',
        });
      }
      return await route.fulfill({ status: 404, body: 'Entry not found' });
    } catch {
      // The page cancelled the request while it was delayed.
    }
  });
  return hub;
}

async function openLocalModels(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  const section = page.getByTestId('local-models-settings');
  await expect(section).toBeVisible();
  return section;
}

async function useFakeHub(page: Page, baseURL: string) {
  const section = await openLocalModels(page);
  await section.getByTestId('model-host').fill(`${baseURL}/fake-hub/`);
  await section.getByTestId('model-host-save').click();
  await expect(section.getByTestId('model-host-saved')).toBeVisible();
  await section.getByTestId('local-lib-host').fill(`${baseURL}/fake-libs/`);
  await section.getByTestId('local-model-sources-save').click();
  await expect(page.getByText('Model hosts saved.')).toBeVisible();
  // The model host's save was said once, beside its button: no toast repeated it.
  await expect(page.getByTestId('toast')).toHaveText(['Model hosts saved.']);
  return section;
}

const row = (section: ReturnType<Page['getByTestId']>, model: string) =>
  section.locator(`[data-testid="local-model"][data-model="${model}"]`);

test('Settings → Local models: a download shows byte progress, cancels, completes, lists its size and deletes', async ({
  page,
  context,
  baseURL,
}) => {
  const hub = await serveFakeHub(context);
  await openApp(page);
  const section = await useFakeHub(page, baseURL!);
  await expect(section.getByTestId('local-models-gpu')).toContainText(/swiftshader/i);
  const model = row(section, F32);
  await expect(model).toHaveAttribute('data-cached', 'false');

  // Start, watch the bytes arrive, cancel mid-way.
  await model.getByTestId('local-model-start').click();
  const progress = model.getByTestId('local-model-progress');
  await expect(progress).toBeVisible();
  await expect(model.getByTestId('local-model-progress-text')).toContainText(
    /Downloading Qwen2\.5 0\.5B.*MB of/,
  );
  await expect.poll(async () => Number(await progress.getAttribute('data-percent'))).toBeGreaterThan(0);
  const percentAtCancel = Number(await progress.getAttribute('data-percent'));
  expect(percentAtCancel).toBeLessThan(100);
  // The job panel shows the same job.
  const job = page.locator('[data-testid="job-item"]').filter({ hasText: 'Download Qwen2.5 0.5B' });
  await expect(job).toHaveCount(1);
  await expect(job).toContainText(/ \/ 1(\.0)? MB/);
  await model.getByTestId('local-model-cancel').click();
  await expect(job).toHaveAttribute('data-status', 'cancelled');
  await expect(model.getByTestId('local-model-start')).toBeVisible();
  await expect(model).toHaveAttribute('data-cached', 'false');
  expect(hub.shardsServed).toBeLessThan(SHARDS);
  const requestedBeforeRetry = hub.shardRequests.length;

  // Again, to the end: web-llm's cache now holds the model.
  hub.shardDelayMs = 50;
  await model.getByTestId('local-model-start').click();
  await expect(model).toHaveAttribute('data-cached', 'true');
  await expect(model.getByTestId('local-model-cached')).toContainText(/Downloaded · 1(\.0)? MB/);
  // Cancelled shards were deleted, so every shard was fetched again.
  expect(hub.shardRequests.length - requestedBeforeRetry).toBe(SHARDS);
  const cached = await page.evaluate(async () => {
    const cache = await caches.open('webllm/model');
    return (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
  });
  expect(cached).toEqual([
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_0.bin',
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_1.bin',
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_2.bin',
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_3.bin',
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/tensor-cache.json',
    '/fake-hub/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/tokenizer.json',
  ]);

  await model.getByTestId('local-model-delete').click();
  await expect(model).toHaveAttribute('data-cached', 'false');
  expect(await page.evaluate(async () => (await (await caches.open('webllm/model')).keys()).length)).toBe(0);
});

test('chat picker: local models first; a q4f16 model is refused naming its q4f32 twin; an uncached one offers the download', async ({
  page,
  context,
  baseURL,
}) => {
  const hub = await serveFakeHub(context);
  hub.shardDelayMs = 50;
  await openApp(page);
  await useFakeHub(page, baseURL!);
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-chat').click();

  const picker = page.getByTestId('chat-model');
  // With WebGPU, the in-browser group comes first; every provider model follows.
  await expect(picker.locator('optgroup').first()).toHaveAttribute('label', 'In-browser models');
  await expect(picker.locator('optgroup').last()).toContainText('mock-1');
  await expect(picker.locator('optgroup').first().locator('option')).toHaveCount(24);

  await picker.selectOption({ value: `webllm|${F16}` });
  const offer = page.getByTestId('chat-download-offer');
  await expect(offer.getByTestId('local-model-refusal')).toContainText(
    `needs the WebGPU feature "shader-f16"; this GPU`,
  );
  await expect(offer.getByTestId('local-model-refusal')).toContainText('Qwen2.5 0.5B Instruct (q4f32)');
  await expect(offer.getByTestId('local-model-start')).toHaveCount(0);
  await page.getByTestId('chat-input').fill('Hello');
  await expect(page.getByTestId('chat-send')).toBeDisabled();

  await offer.getByTestId('chat-use-twin').click();
  await expect(picker).toHaveValue(`webllm|${F32}`);
  await expect(offer).toContainText('is not downloaded yet');
  await expect(offer).toContainText(/MB download · .* GPU memory/);
  await offer.getByTestId('local-model-start').click();
  await expect(offer).toHaveCount(0);
  await expect(page.getByTestId('chat-send')).toBeEnabled();
  await expect(picker.locator(`option[value="webllm|${F32}"]`)).not.toContainText('not downloaded');

  // The chat goes through the local-model worker, which loads web-llm now. The
  // fake model's library is not real WebAssembly, so the answer fails, plainly.
  // (Enter sends: the job panel now covers the Send button.)
  await page.getByTestId('chat-input').press('Enter');
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  await expect(answer).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(answer).toContainText(
    /model library of "Qwen2\.5-0\.5B-Instruct-q4f32_1-MLC" could not be loaded/,
  );
  // The turn said the model was loading before it failed; the line is gone with the failure.
  await expect(answer.getByTestId('chat-loading')).toHaveCount(0);
  const turnEvents = await page.evaluate(async () => {
    const request = indexedDB.open('notes-agent');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rows = await new Promise<Array<{ resource_id: string; sequence: number; event: string }>>(
      (resolve) => {
        const all = db.transaction('events').objectStore('events').getAll();
        all.onsuccess = () => resolve(all.result);
      },
    );
    db.close();
    const turn = rows.find((row) => row.event === 'ModelLoading')?.resource_id;
    return rows
      .filter((row) => row.resource_id === turn)
      .sort((a, b) => a.sequence - b.sequence)
      .map((row) => row.event);
  });
  expect(turnEvents[0]).toBe('ModelLoading');
  expect(turnEvents.slice(-2)).toEqual(['Error', 'Done']);
  expect(turnEvents).not.toContain('TextDelta');
});

test('a model the host does not have is refused as not found; an unreachable host says so', async ({
  page,
  context,
  baseURL,
}) => {
  const hub = await serveFakeHub(context);
  await openApp(page);
  const section = await useFakeHub(page, baseURL!);
  const model = row(section, F32);

  hub.mode = 'missing';
  await model.getByTestId('local-model-start').click();
  await expect(model.getByTestId('local-model-error')).toContainText(
    /The model host has no files for "Qwen2\.5-0\.5B-Instruct-q4f32_1-MLC" \(HTTP 404/,
  );
  const failed = page.locator('[data-testid="job-item"][data-status="failed"]');
  await expect(failed).toHaveCount(1);
  const job = await page.evaluate(async () => {
    // The job record itself carries the contract's code.
    const request = indexedDB.open('notes-agent');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const rows = await new Promise<Array<{ kind: string; status: string; error: { code: string } | null }>>(
      (resolve) => {
        const all = db.transaction('jobs').objectStore('jobs').getAll();
        all.onsuccess = () => resolve(all.result);
      },
    );
    db.close();
    return rows.filter((row) => row.kind === 'model.download').map((row) => [row.status, row.error?.code]);
  });
  expect(job).toEqual([['failed', 'MODEL_NOT_FOUND']]);

  hub.mode = 'offline';
  await model.getByTestId('local-model-start').click();
  await expect(model.getByTestId('local-model-error')).toContainText(/the model host is unreachable/);
  await expect(model).toHaveAttribute('data-cached', 'false');
});
