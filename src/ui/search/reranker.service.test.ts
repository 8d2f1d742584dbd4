// The reranker workflows against the real core services, in-thread over
// fake-indexeddb, with the generated tiny cross-encoder as the one catalog entry.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const root = await mkdtemp(join(tmpdir(), 'notes-agent-reranker-ui-'));

vi.mock('../api/core-client', async () => {
  const { coreClientDouble } = await import('../../services/test-core');
  const { inThreadRerankerEngine } = await import('../../services/reranker-engine');
  const { localOnlySource, tinyCrossEncoderSpec, writeTinyCrossEncoder } =
    await import('../../retrieval/__fixtures__/tiny-model');
  const models = join(root, 'models');
  await writeTinyCrossEncoder(models);
  return coreClientDouble({
    rerankers: {
      engine: inThreadRerankerEngine(),
      models: [tinyCrossEncoderSpec()],
      source: localOnlySource(models),
    },
  });
});

const { core } = await import('../api/core-client');
const { testCore } = (await import('../api/core-client')) as unknown as {
  testCore: { close: () => Promise<void> };
};
const { reranker } = await import('./reranker.svelte');
const { toasts } = await import('../toasts/toasts.svelte');
const { jobs } = await import('../jobs/jobs.svelte');
const service = await import('./reranker.service');
const { TINY_CROSS_ENCODER_ID } = await import('../../retrieval/__fixtures__/tiny-model');

afterAll(async () => {
  await testCore.close();
  await rm(root, { recursive: true, force: true });
});
beforeEach(() => {
  reranker.reset();
  for (const toast of toasts.items) toasts.dismiss(toast.id);
});

const messages = () => toasts.items.map((toast) => [toast.kind, toast.message]);

describe('reranker workflows', () => {
  it('reads the catalog, downloads the chosen reranker as a tracked job, then turns it off', async () => {
    const settings = await service.refreshRerankerSettings();
    expect(settings?.model_id).toBeNull();
    expect(settings?.models.map((model) => model.model_id)).toEqual([TINY_CROSS_ENCODER_ID]);

    await service.chooseReranker(TINY_CROSS_ENCODER_ID);
    const jobId = reranker.downloadJobId!;
    expect(jobs.get(jobId)?.label).toContain(TINY_CROSS_ENCODER_ID);
    await vi.waitFor(() => expect(jobs.get(jobId)?.status).toBe('completed'), { timeout: 15_000 });
    await vi.waitFor(() => expect(reranker.settings?.model_id).toBe(TINY_CROSS_ENCODER_ID));
    expect(messages()).toContainEqual(['success', expect.stringContaining(TINY_CROSS_ENCODER_ID)]);

    await service.chooseReranker(null);
    expect(reranker.settings?.model_id).toBeNull();
    expect((await core.rerankers.settings()).model_id).toBeNull();
    expect(messages()).toContainEqual(['info', 'Reranking is off.']);
  });

  it('an unknown model is reported as an error toast, without a job', async () => {
    await service.chooseReranker('nobody/none');
    expect(messages()).toEqual([['error', expect.any(String)]]);
    expect(reranker.downloadJobId).toBeNull();
  });
});
