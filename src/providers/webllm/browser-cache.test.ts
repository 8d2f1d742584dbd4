import { describe, expect, it } from 'vitest';
import { createBrowserModelCache, modelBaseUrl, type WebLlmCacheFunctions } from './browser-cache';
import type { WebLlmAppConfig } from './engine-port';

const appConfig: WebLlmAppConfig = {
  model_list: [
    {
      model: 'https://huggingface.co/mlc-ai/Tiny-q4f32_1-MLC',
      model_id: 'Tiny-q4f32_1-MLC',
      model_lib: 'https://example.test/libs/Tiny-q4f32_1-webgpu.wasm',
    },
  ],
};

/** The Cache API in memory, enough for `sizeBytes`. */
function fakeCaches(entries: Record<string, Array<[string, number, boolean?]>>): CacheStorage {
  const stores = new Map(
    Object.entries(entries).map(([scope, items]) => [
      scope,
      new Map(
        items.map(([url, bytes, withLength = true]) => [
          url,
          new Response(
            new Uint8Array(bytes),
            withLength ? { headers: { 'content-length': String(bytes) } } : {},
          ),
        ]),
      ),
    ]),
  );
  return {
    has: async (scope: string) => stores.has(scope),
    open: async (scope: string) => {
      const store = stores.get(scope)!;
      return {
        keys: async () => [...store.keys()].map((url) => new Request(url)),
        match: async (request: Request) => store.get(request.url)?.clone(),
      } as unknown as Cache;
    },
  } as unknown as CacheStorage;
}

const webllm = (calls: string[]): WebLlmCacheFunctions => ({
  prebuiltAppConfig: appConfig,
  hasModelInCache: async (id) => {
    calls.push(`has ${id}`);
    return true;
  },
  deleteModelAllInfoInCache: async (id) => {
    calls.push(`delete ${id}`);
  },
});

describe('browser model cache', () => {
  it('cleans model URLs the way web-llm does', () => {
    expect(modelBaseUrl('https://huggingface.co/mlc-ai/X')).toBe(
      'https://huggingface.co/mlc-ai/X/resolve/main/',
    );
    expect(modelBaseUrl('https://host.test/m/resolve/v2/')).toBe('https://host.test/m/resolve/v2/');
  });

  it("sums a model's weights, tokenizer, config and wasm in the Cache API", async () => {
    const base = 'https://huggingface.co/mlc-ai/Tiny-q4f32_1-MLC/resolve/main/';
    const caches = fakeCaches({
      'webllm/model': [
        [`${base}params_shard_0.bin`, 1000],
        [`${base}params_shard_1.bin`, 500, false],
        [`${base}tokenizer.json`, 20],
        ['https://huggingface.co/mlc-ai/Other-MLC/resolve/main/params_shard_0.bin', 9999],
      ],
      'webllm/config': [[`${base}mlc-chat-config.json`, 3]],
      'webllm/wasm': [['https://example.test/libs/Tiny-q4f32_1-webgpu.wasm', 70]],
    });
    const calls: string[] = [];
    const cache = createBrowserModelCache(webllm(calls), { caches });
    expect(await cache.sizeBytes('Tiny-q4f32_1-MLC')).toBe(1593);
    expect(await cache.sizeBytes('Unknown-MLC')).toBeUndefined();
    expect(await cache.has('Tiny-q4f32_1-MLC')).toBe(true);
    await cache.delete('Tiny-q4f32_1-MLC');
    expect(calls).toEqual(['has Tiny-q4f32_1-MLC', 'delete Tiny-q4f32_1-MLC']);
  });

  it('reports no size for other cache backends', async () => {
    const cache = createBrowserModelCache(webllm([]), {
      appConfig: { ...appConfig, cacheBackend: 'indexeddb' },
      caches: fakeCaches({}),
    });
    expect(await cache.sizeBytes('Tiny-q4f32_1-MLC')).toBeUndefined();
  });
});
