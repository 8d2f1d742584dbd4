// The embedding-model workflows against the real core services, in-thread over
// fake-indexeddb, with the generated tiny model as the one catalog entry.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const root = await mkdtemp(join(tmpdir(), 'notes-agent-embedding-ui-'));

vi.mock('../api/core-client', async () => {
  const { coreClientDouble } = await import('../../services/test-core');
  const { inThreadEmbeddingEngine } = await import('../../services/embedding-engine');
  const { localOnlySource, tinyModelSpec, TINY_MODEL_ID, writeTinyEmbeddingModel } =
    await import('../../retrieval/__fixtures__/tiny-model');
  const models = join(root, 'models');
  await writeTinyEmbeddingModel(models, TINY_MODEL_ID);
  return coreClientDouble({
    embedding: {
      engine: inThreadEmbeddingEngine(),
      models: [tinyModelSpec()],
      source: localOnlySource(models),
    },
  });
});

const { core } = await import('../api/core-client');
const { testCore } = (await import('../api/core-client')) as unknown as {
  testCore: { close: () => Promise<void>; idle: () => Promise<void> };
};
const { embedding } = await import('./embedding.svelte');
const { indexStatus } = await import('./search.svelte');
const { toasts } = await import('../toasts/toasts.svelte');
const { jobs } = await import('../jobs/jobs.svelte');
const service = await import('./embedding.service');
const { TINY_MODEL_ID } = await import('../../retrieval/__fixtures__/tiny-model');

afterAll(async () => {
  await testCore.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  embedding.reset();
  indexStatus.reset();
  for (const toast of toasts.items) toasts.dismiss(toast.id);
});

const messages = () => toasts.items.map((toast) => [toast.kind, toast.message]);

describe('embedding model workflows', () => {
  it('reads the catalog, downloads the chosen model as a tracked job, then the index asks for a vector rebuild', async () => {
    await core.notes.create({ title: 'Deadlock', body: 'A wait cycle.' });
    // hash-v1 vectors exist before the switch.
    await testCore.idle();
    const settings = await service.refreshEmbeddingSettings();
    expect(settings?.models.map((model) => model.model_id)).toEqual(['hash-v1', TINY_MODEL_ID]);
    expect(embedding.settings?.model_id).toBe('hash-v1');

    await service.chooseEmbeddingModel(TINY_MODEL_ID);
    const jobId = embedding.downloadJobId!;
    expect(jobs.get(jobId)?.label).toContain(TINY_MODEL_ID);
    await vi.waitFor(() => expect(jobs.get(jobId)?.status).toBe('completed'), { timeout: 15_000 });
    await vi.waitFor(() => expect(indexStatus.incompatible).toBe(true), { timeout: 5_000 });
    // The settings are read again once the job ends, without being awaited.
    await vi.waitFor(() => expect(embedding.settings?.model_id).toBe(TINY_MODEL_ID));
    expect(messages()).toContainEqual(['success', expect.stringContaining(TINY_MODEL_ID)]);
  });

  it('saves a valid model host, and reports an invalid one without saving it', async () => {
    expect(await service.saveModelHost('ftp://models.example.org/')).toBe(false);
    expect(messages()[0]?.[0]).toBe('error');
    expect((await core.embedding.settings()).remote_host).toBeNull();
    expect(await service.saveModelHost('https://models.example.org/')).toBe(true);
    expect(embedding.settings?.remote_host).toBe('https://models.example.org/');
  });

  it('an unknown model is reported as an error toast', async () => {
    await service.chooseEmbeddingModel('nobody/none');
    expect(messages()).toEqual([['error', expect.any(String)]]);
    expect(embedding.downloadJobId).toBeNull();
  });
});
