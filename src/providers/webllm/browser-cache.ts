import type { WebLlmAppConfig, WebLlmCachePort } from './engine-port';

/** The cache functions of the web-llm module (passed in by the worker, which imports it). */
export interface WebLlmCacheFunctions {
  prebuiltAppConfig: WebLlmAppConfig;
  hasModelInCache(modelId: string, appConfig?: WebLlmAppConfig): Promise<boolean>;
  deleteModelAllInfoInCache(modelId: string, appConfig?: WebLlmAppConfig): Promise<void>;
}

/** The Cache API scopes web-llm writes to (`caches.open(scope)`). */
export const WEBLLM_CACHE_SCOPES = ['webllm/model', 'webllm/config', 'webllm/wasm'] as const;

/** web-llm's `cleanModelUrl`: `https://huggingface.co/u/m` → `https://huggingface.co/u/m/resolve/main/`. */
export function modelBaseUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

async function responseBytes(response: Response): Promise<number> {
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/**
 * web-llm's own `hasModelInCache` and `deleteModelAllInfoInCache`, plus what
 * it lacks: a model's size, summed over its entries in the Cache API (weights,
 * tokenizer, config under the model's URL, and its wasm library). Other cache
 * backends (IndexedDB, OPFS) report no size.
 */
export function createBrowserModelCache(
  webllm: WebLlmCacheFunctions,
  options: { appConfig?: WebLlmAppConfig; caches?: CacheStorage } = {},
): WebLlmCachePort {
  const appConfig = options.appConfig ?? webllm.prebuiltAppConfig;
  const storage = options.caches ?? (typeof caches === 'undefined' ? undefined : caches);
  return {
    has: (modelId) => webllm.hasModelInCache(modelId, appConfig),
    delete: (modelId) => webllm.deleteModelAllInfoInCache(modelId, appConfig),
    async sizeBytes(modelId) {
      if ((appConfig.cacheBackend ?? 'cache') !== 'cache' || !storage) return undefined;
      const record = appConfig.model_list.find((candidate) => candidate.model_id === modelId);
      if (!record) return undefined;
      const base = modelBaseUrl(record.model);
      let total = 0;
      for (const scope of WEBLLM_CACHE_SCOPES) {
        if (!(await storage.has(scope))) continue;
        const cache = await storage.open(scope);
        for (const request of await cache.keys()) {
          if (!request.url.startsWith(base) && request.url !== record.model_lib) continue;
          const response = await cache.match(request);
          if (response) total += await responseBytes(response);
        }
      }
      return total;
    },
  };
}
