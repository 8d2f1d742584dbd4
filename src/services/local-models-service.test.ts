import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import type { DeviceProbe, GpuAdapterLike } from '../models/device-check';
import {
  FakeModelCache,
  WebLlmEngineDouble,
  textScript,
  type FakeDownloadOptions,
} from '../providers/webllm/__fixtures__/engine-double';
import type { ModelSources } from '../models/model-sources';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';
import { MODEL_DOWNLOAD_JOB_KIND } from './local-models-service';
import { testCore } from './test-core';

const MIB = 2 ** 20;
const GIB = 2 ** 30;
const F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const OTHER = 'SmolLM2-360M-Instruct-q4f32_1-MLC';

/** SwiftShader, as headless Chromium offers it: WebGPU without shader-f16. */
function swiftShader(): DeviceProbe['gpu'] {
  const adapter: GpuAdapterLike = {
    features: new Set<string>(),
    limits: { maxBufferSize: GIB, maxStorageBufferBindingSize: GIB },
    info: { vendor: 'google', architecture: 'swiftshader' },
  };
  return { requestAdapter: async () => adapter };
}

function setup(options: { download?: FakeDownloadOptions; device?: DeviceProbe } = {}) {
  const cache = new FakeModelCache({
    shards: 5,
    shardBytes: 10 * MIB,
    shardDelayMs: 20,
    ...options.download,
  });
  const engine = new WebLlmEngineDouble({
    cache,
    script: (request) => textScript(request.model!, ['Hello', ' from the local model']),
  });
  const sources: ModelSources[] = [];
  const host = new WebLlmWorkerHost({
    load: async () => ({ engine }),
    cache,
    setSources: (next) => void sources.push(next),
  });
  const device = options.device ?? {
    gpu: swiftShader(),
    storage: { estimate: async () => ({ quota: 50 * GIB, usage: 0 }) },
  };
  let starts = 0;
  const core = testCore({
    localModels: () => {
      starts++;
      return { client: host, device };
    },
  });
  return { core, cache, engine, sources, starts: () => starts };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );

describe('LocalModelsService', () => {
  let core: ReturnType<typeof testCore>;
  afterEach(async () => core?.close());

  it('lists the catalog with what is cached and what this device can run', async () => {
    const context = setup();
    core = context.core;
    context.cache.seed(OTHER, 123);
    const { webgpu, items } = await core.api.localModels.list();
    expect(webgpu).toEqual({ available: true, message: null, adapter: 'google / swiftshader' });
    const other = items.find((item) => item.model === OTHER)!;
    expect(other).toMatchObject({ cached: true, size_bytes: 123, runnable: true, download_job_id: null });
    const f16 = items.find((item) => item.model === F16)!;
    expect(f16).toMatchObject({
      cached: false,
      runnable: false,
      unavailable_reason: 'no_shader_f16',
      requires_shader_f16: true,
      f32_alternative: F32,
    });
    expect(f16.unavailable_message).toContain(F32);
    expect(items.find((item) => item.model === F32)).toMatchObject({ runnable: true, cached: false });
  });

  it('says plainly when there is no WebGPU, for every model', async () => {
    const context = setup({ device: {} });
    core = context.core;
    const { webgpu, items } = await core.api.localModels.list();
    expect(webgpu.available).toBe(false);
    expect(webgpu.message).toMatch(/does not offer WebGPU/);
    expect(items.every((item) => !item.runnable && item.unavailable_reason === 'no_webgpu')).toBe(true);
    expect(await codeOf(core.api.localModels.download(F32))).toBe('PROVIDER_UNAVAILABLE');
  });

  it('downloads as a job with byte progress; the model is then listed with its size', async () => {
    const context = setup();
    core = context.core;
    const job = await core.api.localModels.download(F32);
    expect(job).toMatchObject({ kind: MODEL_DOWNLOAD_JOB_KIND, status: 'queued', input: { model: F32 } });
    await core.idle();
    const done = await core.api.jobs.get(job.job_id);
    expect(done).toMatchObject({ status: 'completed', result: { model: F32, bytes: 50 * MIB } });
    expect(done.progress).toMatchObject({
      phase: 'downloading',
      current: 50 * MIB,
      total: 50 * MIB,
      percent: 100,
    });
    const events = await core.api.events.list(job.job_id);
    const progress = events.items.filter((event) => event.event === 'Progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(events.items.at(-1)?.event).toBe('Completed');
    const listed = (await core.api.localModels.list()).items.find((item) => item.model === F32);
    expect(listed).toMatchObject({ cached: true, size_bytes: 50 * MIB, download_job_id: null });
    // Downloaded once: a second download is a conflict, not a re-download.
    expect(await codeOf(core.api.localModels.download(F32))).toBe('STATE_CONFLICT');
    expect(context.cache.downloads).toEqual([F32]);
  });

  it('refuses bad input with the contract codes', async () => {
    const context = setup();
    core = context.core;
    expect(await codeOf(core.api.localModels.download(''))).toBe('VALIDATION_FAILED');
    expect(await codeOf(core.api.localModels.download('No-Such-Model-MLC'))).toBe('MODEL_NOT_FOUND');
    expect(await codeOf(core.api.localModels.delete('No-Such-Model-MLC'))).toBe('MODEL_NOT_FOUND');
    expect(await codeOf(core.api.localModels.setSources({ model_host: 'hf-mirror.com' }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('refuses a q4f16 model on a GPU without shader-f16, naming its q4f32 twin, before any job', async () => {
    const context = setup();
    core = context.core;
    const failure = await core.api.localModels.download(F16).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      code: 'MODEL_CAPABILITY_MISMATCH',
      details: { reason: 'no_shader_f16' },
    });
    expect((failure as Error).message).toContain(F32);
    expect((await core.api.jobs.list({ kind: MODEL_DOWNLOAD_JOB_KIND })).items).toEqual([]);
  });

  it('refuses a download that does not fit the storage quota', async () => {
    const context = setup({
      device: { gpu: swiftShader(), storage: { estimate: async () => ({ quota: GIB, usage: GIB - MIB }) } },
    });
    core = context.core;
    expect(await codeOf(core.api.localModels.download(F32))).toBe('STORAGE_QUOTA_EXCEEDED');
  });

  it('gives one job for two clicks, and refuses deleting a model while it downloads', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const context = setup({ download: { beforeLastShard: held } });
    core = context.core;
    const [first, second] = await Promise.all([
      core.api.localModels.download(F32),
      core.api.localModels.download(F32),
    ]);
    expect(second.job_id).toBe(first.job_id);
    const again = await core.api.localModels.download(F32);
    expect(again.job_id).toBe(first.job_id);
    const listed = (await core.api.localModels.list()).items.find((item) => item.model === F32);
    expect(listed?.download_job_id).toBe(first.job_id);
    expect(await codeOf(core.api.localModels.delete(F32))).toBe('STATE_CONFLICT');
    release();
    await core.idle();
    await core.api.localModels.delete(F32);
    expect((await core.api.localModels.list()).items.find((item) => item.model === F32)?.cached).toBe(false);
    expect(context.cache.shardCount(F32)).toBe(0);
  });

  it('cancels a running download: the job ends cancelled and no partial files stay', async () => {
    const context = setup({ download: { shardDelayMs: 200 } });
    core = context.core;
    const job = await core.api.localModels.download(F32);
    await expect.poll(async () => (await core.api.jobs.get(job.job_id)).status).toBe('running');
    await expect.poll(() => context.cache.shardCount(F32), { timeout: 2000 }).toBeGreaterThan(0);
    await core.api.jobs.cancel(job.job_id);
    await core.idle();
    expect((await core.api.jobs.get(job.job_id)).status).toBe('cancelled');
    expect(context.cache.shardCount(F32)).toBe(0);
    // Cancelled: a new download starts a new job.
    const next = await core.api.localModels.download(F32);
    expect(next.job_id).not.toBe(job.job_id);
    await core.idle();
  });

  it('resumes a download the closed tab left running, fetching only the missing shards', async () => {
    const context = setup();
    core = context.core;
    context.cache.addShard(F32, 10 * MIB);
    context.cache.addShard(F32, 10 * MIB);
    await core.db.jobs.put({
      job_id: 'job_left_running',
      kind: MODEL_DOWNLOAD_JOB_KIND,
      status: 'running',
      progress: null,
      input: { model: F32 },
      result: null,
      error: null,
      created_at: '2026-11-30T08:00:00Z',
      started_at: '2026-11-30T08:00:01Z',
      updated_at: '2026-11-30T08:00:02Z',
      completed_at: null,
    });
    expect(await core.recover()).toEqual({ failed: 0, requeued: 1 });
    // The resumed job is the model's download: a click rejoins it.
    expect((await core.api.localModels.download(F32)).job_id).toBe('job_left_running');
    await core.idle();
    expect(await core.api.jobs.get('job_left_running')).toMatchObject({ status: 'completed' });
    expect(context.cache.shardCount(F32)).toBe(5);
    expect(context.cache.downloads).toEqual([F32]);
  });

  it('fails the job with MODEL_NOT_FOUND when the host lacks the model, PROVIDER_UNAVAILABLE offline', async () => {
    const missing = setup({ download: { missing: [F32] } });
    core = missing.core;
    const job = await core.api.localModels.download(F32);
    await core.idle();
    expect(await core.api.jobs.get(job.job_id)).toMatchObject({
      status: 'failed',
      error: { code: 'MODEL_NOT_FOUND' },
    });
    await core.close();

    const offline = setup({
      download: { failAfterShards: { shards: 2, error: new TypeError('Failed to fetch') } },
    });
    core = offline.core;
    const second = await core.api.localModels.download(F32);
    await core.idle();
    const failed = await core.api.jobs.get(second.job_id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_UNAVAILABLE' } });
    expect(failed.error?.message).toMatch(/unreachable/);
    expect(offline.cache.shardCount(F32)).toBe(0);
  });

  it('stores model hosts and hands them to the worker, after its first configuration', async () => {
    const context = setup();
    core = context.core;
    expect(await core.api.localModels.sources()).toEqual({ model_host: null, lib_host: null });
    const [, saved] = await Promise.all([
      core.api.localModels.list(),
      core.api.localModels.setSources({ model_host: 'https://hf-mirror.com', lib_host: null }),
    ]);
    expect(saved).toEqual({ model_host: 'https://hf-mirror.com/', lib_host: null });
    await core.api.localModels.list();
    expect(context.sources.at(-1)).toEqual({ modelHost: 'https://hf-mirror.com/', libHost: null });
    expect(context.starts()).toBe(1);
  });

  it('chats with a downloaded local model through the worker, and refuses one not downloaded', async () => {
    const context = setup();
    core = context.core;
    context.cache.seed(OTHER, 10);
    const answer = await core.api.chat.complete({ content: 'Hi', provider_id: 'webllm', model: OTHER });
    expect(answer).toMatchObject({
      status: 'completed',
      content: 'Hello from the local model',
      provider_id: 'webllm',
      model: OTHER,
    });
    expect(context.engine.reloads).toEqual([OTHER]);

    const refused = await core.api.chat.complete({ content: 'Hi', provider_id: 'webllm', model: F32 });
    expect(refused).toMatchObject({ status: 'failed', error: { code: 'MODEL_NOT_FOUND' } });
    expect(refused.error?.message).toMatch(/not downloaded/);
  });

  it("maps the composer's thinking toggle to web-llm's enable_thinking (Qwen3)", async () => {
    const context = setup();
    core = context.core;
    const qwen3 = 'Qwen3-0.6B-q4f32_1-MLC';
    context.cache.seed(qwen3, 10);
    await core.api.chat.complete({ content: 'Hi', provider_id: 'webllm', model: qwen3, thinking: false });
    await core.api.chat.complete({
      content: 'Think',
      provider_id: 'webllm',
      model: qwen3,
      thinking: true,
      thinking_effort: 'high',
    });
    // A new conversation first digests the previous chat into memory (a JSON-format request);
    // the user's own turns are the others.
    const turns = context.engine.requests.filter((request) => request.response_format === undefined);
    expect(turns.map((request) => request.extra_body?.enable_thinking)).toEqual([false, true]);
    expect(
      await codeOf(
        core.api.chat.complete({ content: 'x', thinking: true, thinking_effort: 'extreme' as 'high' }),
      ),
    ).toBe('VALIDATION_FAILED');
  });

  it('keeps the built-in local provider out of create, patch and delete', async () => {
    const context = setup();
    core = context.core;
    expect(await codeOf(core.api.providers.create({ preset: 'webllm' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(core.api.providers.delete('webllm'))).toBe('STATE_CONFLICT');
    expect(await codeOf(core.api.providers.patch('webllm', { enabled: false }))).toBe('STATE_CONFLICT');
    expect((await core.api.providers.get('webllm')).type).toBe('webllm');
    const models = await core.api.providers.models('webllm');
    // Tools prompted where not native; JSON held by web-llm's grammar.
    expect(models.items.find((item) => item.model === F32)?.capabilities).toEqual([
      'chat',
      'streaming',
      'tool_calling',
      'structured_output',
    ]);
  });

  it('reports local models as unavailable where no worker can start', async () => {
    core = testCore();
    expect(await codeOf(core.api.localModels.list())).toBe('PROVIDER_UNAVAILABLE');
  });
});
