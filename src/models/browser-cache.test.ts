import { describe, expect, it } from 'vitest';
import { MetonaProviderError } from '../ir';
import { createBrowserModelCache, modelBaseUrl, type ModelLocation } from './browser-cache';
import type { ModelDownloadProgress } from '../providers/webllm/engine-port';

const MODEL = 'Tiny-q4f32_1-MLC';
const location: ModelLocation = {
  model: 'https://hub.test/mlc-ai/Tiny-q4f32_1-MLC',
  modelLib: 'https://libs.test/Tiny-q4f32_1-webgpu.wasm',
};
const BASE = 'https://hub.test/mlc-ai/Tiny-q4f32_1-MLC/resolve/main/';
const SHARD = 1000;

/** The Cache API in memory: scopes of URL → response. */
class MemoryCaches {
  readonly scopes = new Map<string, Map<string, Response>>();
  async has(scope: string) {
    return this.scopes.has(scope);
  }
  async open(scope: string) {
    const store = this.scopes.get(scope) ?? new Map<string, Response>();
    this.scopes.set(scope, store);
    const key = (request: RequestInfo | URL) =>
      typeof request === 'string' ? request : 'url' in request ? request.url : request.href;
    return {
      keys: async () => [...store.keys()].map((url) => new Request(url)),
      match: async (request: RequestInfo | URL) => store.get(key(request))?.clone(),
      put: async (request: RequestInfo | URL, response: Response) => {
        const body = await response.arrayBuffer(); // consumes the stream, as the browser does
        store.set(key(request), new Response(body, { headers: response.headers }));
      },
      delete: async (request: RequestInfo | URL) => store.delete(key(request)),
    } as unknown as Cache;
  }
  urls(scope: string): string[] {
    return [...(this.scopes.get(scope)?.keys() ?? [])].sort();
  }
}

/** A model host: config, manifest with three shards, tokenizer, library. */
function host(options: { missing?: string[]; offlineAfter?: number; onShard?: (url: string) => void } = {}) {
  const files: Record<string, unknown> = {
    [`${BASE}mlc-chat-config.json`]: { tokenizer_files: ['tokenizer.json', 'vocab.json'] },
    [`${BASE}tensor-cache.json`]: {
      records: [0, 1, 2].map((index) => ({ dataPath: `params_shard_${index}.bin`, nbytes: SHARD })),
    },
    [`${BASE}tokenizer.json`]: { model: {} },
    [location.modelLib]: 'wasm',
  };
  const requested: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    requested.push(url);
    if (options.offlineAfter !== undefined && requested.length > options.offlineAfter)
      throw new TypeError('Failed to fetch');
    if (options.missing?.some((file) => url.endsWith(file))) return new Response('no', { status: 404 });
    if (url.includes('params_shard_')) {
      options.onShard?.(url);
      const signal = init?.signal;
      // Two halves, so a cancel can land mid-file.
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (signal?.aborted) return controller.error(signal.reason);
          controller.enqueue(new Uint8Array(SHARD / 2));
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (signal?.aborted) return controller.error(signal.reason);
          controller.enqueue(new Uint8Array(SHARD / 2));
          controller.close();
        },
      });
      return new Response(body);
    }
    const file = files[url];
    if (file === undefined) return new Response('no', { status: 404 });
    return new Response(typeof file === 'string' ? file : JSON.stringify(file));
  };
  return { fetch, requested };
}

function setup(options: Parameters<typeof host>[0] = {}) {
  const caches = new MemoryCaches();
  const server = host(options);
  const cache = createBrowserModelCache({
    locate: (id) => (id === MODEL ? location : undefined),
    caches: caches as unknown as CacheStorage,
    fetch: server.fetch as typeof fetch,
  });
  return { caches, server, cache };
}

const download = (
  cache: ReturnType<typeof setup>['cache'],
  signal = new AbortController().signal,
  progress: ModelDownloadProgress[] = [],
) => cache.download(MODEL, { signal, onProgress: (report) => progress.push(report) });

describe('browser model cache', () => {
  it('cleans model URLs the way web-llm does', () => {
    expect(modelBaseUrl('https://huggingface.co/mlc-ai/X')).toBe(
      'https://huggingface.co/mlc-ai/X/resolve/main/',
    );
    expect(modelBaseUrl('https://host.test/m/resolve/v2/')).toBe('https://host.test/m/resolve/v2/');
  });

  it("stores every file web-llm's reload reads, under its scopes and keys, with byte progress", async () => {
    const { cache, caches } = setup();
    expect(await cache.has(MODEL)).toBe(false);
    const progress: ModelDownloadProgress[] = [];
    const { bytes } = await download(cache, undefined, progress);
    expect(caches.urls('webllm/config')).toEqual([`${BASE}mlc-chat-config.json`]);
    expect(caches.urls('webllm/model')).toEqual([
      `${BASE}params_shard_0.bin`,
      `${BASE}params_shard_1.bin`,
      `${BASE}params_shard_2.bin`,
      `${BASE}tensor-cache.json`,
      `${BASE}tokenizer.json`,
    ]);
    expect(caches.urls('webllm/wasm')).toEqual([location.modelLib]);
    const last = progress.at(-1)!;
    expect(last).toEqual({ loadedBytes: bytes, totalBytes: bytes, file: 'tensor-cache.json' });
    const shardReports = progress.filter((report) => report.file.startsWith('params_shard_'));
    expect(shardReports).toHaveLength(6); // two chunks per shard
    expect(shardReports.every((report) => report.totalBytes === bytes)).toBe(true);
    expect(shardReports.map((report) => report.loadedBytes)).toEqual(
      [...shardReports.map((report) => report.loadedBytes)].sort((a, b) => a - b),
    );
    expect(await cache.has(MODEL)).toBe(true);
    expect(await cache.sizeBytes(MODEL)).toBe(bytes);
  });

  it('resumes: files already cached are not fetched again', async () => {
    const { cache, server } = setup();
    await download(cache);
    server.requested.length = 0;
    await download(cache);
    expect(server.requested).toEqual([]);
  });

  it('aborts mid-file at once, rejecting with the reason', async () => {
    const controller = new AbortController();
    const { cache } = setup({
      onShard: (url) => url.endsWith('_1.bin') && controller.abort(new DOMException('stop', 'AbortError')),
    });
    await expect(download(cache, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(await cache.has(MODEL)).toBe(false);
    expect(await cache.sizeBytes(MODEL)).toBeGreaterThan(0); // partial files stay until deleted
    await cache.delete(MODEL);
    expect(await cache.sizeBytes(MODEL)).toBe(0);
  });

  it('says which file the host lacks (404 → model_files_missing)', async () => {
    const { cache } = setup({ missing: ['tensor-cache.json'] });
    const failure = await download(cache).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MetonaProviderError);
    expect(failure).toMatchObject({ code: 'model_not_found', providerCode: 'model_files_missing' });
    expect((failure as Error).message).toContain('tensor-cache.json');
  });

  it('says the host is unreachable when offline', async () => {
    const { cache } = setup({ offlineAfter: 3 });
    await expect(download(cache)).rejects.toMatchObject({
      code: 'network_error',
      providerCode: 'model_fetch_failed',
      retryable: true,
    });
  });

  it('knows nothing of unknown models', async () => {
    const { cache } = setup();
    expect(await cache.has('Other-MLC')).toBe(false);
    expect(await cache.sizeBytes('Other-MLC')).toBeUndefined();
    await expect(
      cache.download('Other-MLC', { signal: new AbortController().signal, onProgress: () => undefined }),
    ).rejects.toMatchObject({ code: 'model_not_found' });
  });
});
