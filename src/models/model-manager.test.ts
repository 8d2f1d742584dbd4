import { describe, expect, it } from 'vitest';
import { MetonaProviderError } from '../ir';
import type { DeviceProbe, GpuAdapterLike } from './device-check';
import {
  FakeModelCache,
  WebLlmEngineDouble,
  type EngineDoubleOptions,
  type FakeDownloadOptions,
} from '../providers/webllm/__fixtures__/engine-double';
import { WebLlmModelManager, toDownloadProgress, type DownloadProgress } from './model-manager';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';

const MIB = 2 ** 20;
const GIB = 2 ** 30;
const F32 = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const F16 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

function gpu(f16: boolean): DeviceProbe['gpu'] {
  const adapter: GpuAdapterLike = {
    features: new Set(f16 ? ['shader-f16'] : []),
    limits: { maxBufferSize: GIB, maxStorageBufferBindingSize: GIB },
    info: { vendor: 'google', architecture: 'swiftshader' },
  };
  return { requestAdapter: async () => adapter };
}

function setup(options: EngineDoubleOptions & { device?: DeviceProbe; download?: FakeDownloadOptions } = {}) {
  const engine = new WebLlmEngineDouble({
    cache: new FakeModelCache({ shards: 5, shardBytes: 40 * MIB, shardDelayMs: 30, ...options.download }),
    ...options,
  });
  const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
  const device = options.device ?? {
    gpu: gpu(false),
    storage: { estimate: async () => ({ quota: 50 * GIB, usage: 0 }) },
  };
  return { engine, manager: new WebLlmModelManager({ client: host, device }) };
}

describe('download progress from web-llm reports', () => {
  const name = 'Qwen2.5 0.5B';
  it.each<[string, number, DownloadProgress]>([
    [
      'Start to fetch params',
      0,
      { phase: 'downloading', currentBytes: 0, percent: 0, message: 'Starting to download Qwen2.5 0.5B' },
    ],
    [
      'Fetching param cache[3/52]: 150MB fetched. 25% completed, 5 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
      0.25,
      {
        phase: 'downloading',
        currentBytes: 150 * MIB,
        totalBytes: 600 * MIB,
        percent: 25,
        message: 'Downloading Qwen2.5 0.5B: 150 MB of 600 MB (25%)',
      },
    ],
    [
      'Loading model from cache[10/52]: 300MB loaded. 50% completed, 2 secs elapsed.',
      0.5,
      {
        phase: 'loading',
        currentBytes: 300 * MIB,
        totalBytes: 600 * MIB,
        percent: 50,
        message: 'Loading Qwen2.5 0.5B from the browser cache (50%)',
      },
    ],
    [
      'Loading GPU shader modules[40/80]: 50% completed, 3 secs elapsed.',
      0.5,
      { phase: 'loading', percent: 50, message: 'Preparing Qwen2.5 0.5B on the GPU (50%)' },
    ],
    [
      'Finish loading on WebGPU - nvidia',
      1,
      { phase: 'loading', percent: 100, message: 'Qwen2.5 0.5B is ready' },
    ],
    ['Something new', Number.NaN, { phase: 'loading', percent: null, message: 'Something new' }],
  ])('%s', (text, progress, expected) => {
    expect(toDownloadProgress({ text, progress, timeElapsed: 1 }, name)).toEqual(expected);
  });
});

describe('WebLlmModelManager', () => {
  it('checks the device, downloads with byte progress, and lists the model with its size', async () => {
    const { manager, engine } = setup();
    const progress: DownloadProgress[] = [];
    const result = await manager.download(F32, { onProgress: (report) => progress.push(report) });
    expect(result).toEqual({ bytes: 200 * MIB });
    // Downloading needs no GPU: the model is loaded on its first chat.
    expect(engine.reloads).toEqual([]);
    expect(progress.map((report) => report.percent)).toEqual([20, 40, 60, 80, 100]);
    expect(progress.at(-1)).toEqual({
      phase: 'downloading',
      currentBytes: 200 * MIB,
      totalBytes: 200 * MIB,
      percent: 100,
      message: 'Downloading Qwen2.5 0.5B Instruct (q4f32): 200 MB of 200 MB (100%)',
    });
    expect(await manager.listCached()).toEqual([
      { modelId: F32, sizeBytes: 200 * MIB, entry: expect.objectContaining({ id: F32 }) },
    ]);
  });

  it('refuses before downloading anything when the GPU lacks shader-f16', async () => {
    const { manager, engine } = setup();
    const failure = await manager.download(F16).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MetonaProviderError);
    expect(failure).toMatchObject({ code: 'model_not_found', providerCode: 'no_shader_f16' });
    expect((failure as Error).message).toContain(F32);
    expect(engine.cache.downloads).toEqual([]);
  });

  it('refuses a download that does not fit the storage quota, but not a cached model', async () => {
    const full = {
      gpu: gpu(true),
      storage: { estimate: async () => ({ quota: GIB, usage: GIB - 10 * MIB }) },
    };
    const { manager, engine } = setup({ device: full });
    await expect(manager.download(F32)).rejects.toMatchObject({ providerCode: 'insufficient_storage' });
    expect(engine.cache.downloads).toEqual([]);
    engine.cache.seed(F32, 300 * MIB);
    await expect(manager.download(F32)).resolves.toBeDefined();
  });

  it('says WebGPU is missing', async () => {
    const { manager } = setup({ device: {} });
    await expect(manager.download(F32)).rejects.toMatchObject({
      code: 'model_overloaded',
      providerCode: 'no_webgpu',
    });
    expect(await manager.checkDevice(F32)).toMatchObject({ ok: false, reason: 'no_webgpu' });
  });

  it('cancels a download: the pending fetch stops and the partial shards are deleted', async () => {
    const { manager, engine } = setup();
    const controller = new AbortController();
    const download = manager.download(F32, {
      signal: controller.signal,
      onProgress: (report) => {
        if (report.percent === 40) controller.abort();
      },
    });
    await expect(download).rejects.toMatchObject({ code: 'user_aborted' });
    expect(engine.cache.shardCount(F32)).toBe(0);
    expect(await manager.listCached()).toEqual([]);
  });

  it('keeps the partial shards when asked, and the next download resumes from them', async () => {
    const { manager, engine } = setup();
    const controller = new AbortController();
    await manager
      .download(F32, {
        signal: controller.signal,
        keepPartialOnCancel: true,
        onProgress: (report) => {
          if (report.percent === 40) controller.abort();
        },
      })
      .catch(() => undefined);
    expect(engine.cache.shardCount(F32)).toBe(2);
    await manager.download(F32);
    expect(engine.cache.shardCount(F32)).toBe(5); // 3 more, not 5
  });

  it('does not start when already cancelled, and deletes a cached model', async () => {
    const { manager, engine } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(manager.download(F32, { signal: controller.signal })).rejects.toMatchObject({
      code: 'user_aborted',
    });
    expect(engine.cache.downloads).toEqual([]);
    engine.cache.seed(F32, 5);
    await manager.deleteCached(F32);
    expect(await manager.listCached()).toEqual([]);
  });

  it('reports an offline download clearly and leaves no partial files', async () => {
    const { manager, engine } = setup({
      download: { failAfterShards: { shards: 2, error: new TypeError('Failed to fetch') } },
    });
    const failure = await manager.download(F32).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'network_error',
      providerCode: 'model_fetch_failed',
      retryable: true,
    });
    expect(engine.cache.shardCount(F32)).toBe(0);
  });

  it('says when the model host does not have the model', async () => {
    const { manager } = setup({ download: { missing: [F32] } });
    await expect(manager.download(F32)).rejects.toMatchObject({
      code: 'model_not_found',
      providerCode: 'model_files_missing',
    });
  });
});
