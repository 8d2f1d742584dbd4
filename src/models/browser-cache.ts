import { MetonaProviderError } from '../ir';
import { cachedResponseBytes } from '../core/cached-response-bytes';
import type { ModelDownloadProgress, WebLlmCachePort } from '../providers/webllm/engine-port';
import { modelFileMissingError, modelHostFailedError } from '../providers/webllm/map-error';

/**
 * web-llm's model storage in the Cache API, read and written the way its
 * `reload()` does (same scopes, same URL keys), so a model downloaded here is
 * loaded by web-llm from the cache without a network request. Downloading
 * here rather than through `reload()` needs no GPU and no 12 MB library, gives
 * byte progress, and can be aborted; web-llm's own download can do none of these.
 */

/** Where one model's files come from (its web-llm `ModelRecord`, after mirrors). */
export interface ModelLocation {
  model: string;
  modelLib: string;
}

/** The Cache API scopes web-llm reads (`caches.open(scope)`). */
export const WEBLLM_CACHE_SCOPES = ['webllm/model', 'webllm/config', 'webllm/wasm'] as const;
type Scope = (typeof WEBLLM_CACHE_SCOPES)[number];

/** web-llm's tensor manifest (tvmjs `TENSOR_CACHE_MANIFEST_FILENAME`). */
export const TENSOR_MANIFEST = 'tensor-cache.json';
export const CHAT_CONFIG = 'mlc-chat-config.json';

/** web-llm's `cleanModelUrl`: `https://huggingface.co/u/m` → `https://huggingface.co/u/m/resolve/main/`. */
export function modelBaseUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

/** web-llm fetches a model library on localhost or on the page's own server without caching it. */
export function cachesModelLib(modelLib: string): boolean {
  return modelLib.startsWith('http') && !modelLib.includes('localhost');
}

interface TensorManifest {
  records: Array<{ dataPath: string; nbytes: number }>;
}

interface ChatConfig {
  tokenizer_files?: string[];
}

function tokenizerFile(config: ChatConfig): string | undefined {
  const files = config.tokenizer_files ?? [];
  return ['tokenizer.json', 'tokenizer.model'].find((file) => files.includes(file));
}

export interface BrowserModelCacheOptions {
  /** The model's URLs, or undefined for a model the app does not know. */
  locate: (modelId: string) => ModelLocation | undefined;
  caches: CacheStorage;
  fetch?: typeof fetch;
}

export function createBrowserModelCache(options: BrowserModelCacheOptions): WebLlmCachePort {
  const { locate, caches } = options;
  const fetchFile = options.fetch ?? ((input, init) => fetch(input, init));

  const open = (scope: Scope) => caches.open(scope);
  const cached = async (scope: Scope, url: string) => (await open(scope)).match(url);

  async function readJson<T>(scope: Scope, url: string): Promise<T | undefined> {
    const response = await cached(scope, url);
    if (!response) return undefined;
    try {
      return (await response.json()) as T;
    } catch {
      return undefined;
    }
  }

  function known(modelId: string): ModelLocation & { base: string } {
    const location = locate(modelId);
    if (!location) throw new MetonaProviderError(modelFileMissingError(modelId, modelId, 404));
    return { ...location, base: modelBaseUrl(location.model) };
  }

  /** Fetches one file into a scope, counting bytes as they arrive; resolves with its size. */
  async function save(
    modelId: string,
    scope: Scope,
    url: string,
    signal: AbortSignal,
    onBytes: (bytes: number) => void,
  ): Promise<number> {
    let response: Response;
    try {
      response = await fetchFile(url, { signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw new MetonaProviderError(modelHostFailedError(modelId, url, error));
    }
    if (!response.ok || !response.body) {
      throw new MetonaProviderError(modelFileMissingError(modelId, url, response.status));
    }
    let size = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          onBytes(chunk.byteLength);
          controller.enqueue(chunk);
        },
      }),
    );
    const headers = new Headers(response.headers);
    headers.delete('content-encoding'); // the body below is already decoded
    try {
      await (await open(scope)).put(url, new Response(counted, { status: 200, headers }));
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw new MetonaProviderError(modelHostFailedError(modelId, url, error));
    }
    return size;
  }

  return {
    async has(modelId) {
      const location = locate(modelId);
      if (!location) return false;
      const base = modelBaseUrl(location.model);
      const config = await readJson<ChatConfig>('webllm/config', base + CHAT_CONFIG);
      const manifest = await readJson<TensorManifest>('webllm/model', base + TENSOR_MANIFEST);
      if (!config || !manifest) return false;
      const model = await open('webllm/model');
      const tokenizer = tokenizerFile(config);
      const urls = [
        ...(tokenizer ? [base + tokenizer] : []),
        ...manifest.records.map((record) => new URL(record.dataPath, base).href),
      ];
      for (const url of urls) if (!(await model.match(url))) return false;
      if (cachesModelLib(location.modelLib) && !(await cached('webllm/wasm', location.modelLib)))
        return false;
      return true;
    },

    async sizeBytes(modelId) {
      const location = locate(modelId);
      if (!location) return undefined;
      const base = modelBaseUrl(location.model);
      let total = 0;
      for (const scope of WEBLLM_CACHE_SCOPES) {
        if (!(await caches.has(scope))) continue;
        const cache = await open(scope);
        for (const request of await cache.keys()) {
          if (!request.url.startsWith(base) && request.url !== location.modelLib) continue;
          const response = await cache.match(request);
          if (response) total += await cachedResponseBytes(response);
        }
      }
      return total;
    },

    /** Every file of the model, complete or partial (web-llm's own delete fetches a missing manifest). */
    async delete(modelId) {
      const location = locate(modelId);
      if (!location) return;
      const base = modelBaseUrl(location.model);
      for (const scope of WEBLLM_CACHE_SCOPES) {
        if (!(await caches.has(scope))) continue;
        const cache = await open(scope);
        for (const request of await cache.keys()) {
          if (request.url.startsWith(base) || request.url === location.modelLib) await cache.delete(request);
        }
      }
    },

    /**
     * The files `reload()` reads, in its order: chat config, tensor manifest,
     * tokenizer, model library, then the weight shards. Files already cached
     * are skipped, so a download kept after a cancel resumes.
     */
    async download(modelId, { signal, onProgress }) {
      const { base, modelLib } = known(modelId);
      let loadedBytes = 0;
      let totalBytes: number | null = null;
      const report = (file: string) =>
        onProgress({ loadedBytes, totalBytes, file } satisfies ModelDownloadProgress);
      const fetchOnce = async (scope: Scope, url: string) => {
        signal.throwIfAborted();
        const existing = await cached(scope, url);
        if (existing) {
          loadedBytes += await cachedResponseBytes(existing);
          return;
        }
        const file = url.slice(url.lastIndexOf('/') + 1);
        await save(modelId, scope, url, signal, (bytes) => {
          loadedBytes += bytes;
          report(file);
        });
      };

      await fetchOnce('webllm/config', base + CHAT_CONFIG);
      await fetchOnce('webllm/model', base + TENSOR_MANIFEST);
      const config = await readJson<ChatConfig>('webllm/config', base + CHAT_CONFIG);
      const manifest = await readJson<TensorManifest>('webllm/model', base + TENSOR_MANIFEST);
      if (!config || !manifest || !Array.isArray(manifest.records)) {
        throw new MetonaProviderError(modelFileMissingError(modelId, base + TENSOR_MANIFEST, 0));
      }
      const tokenizer = tokenizerFile(config);
      if (tokenizer) await fetchOnce('webllm/model', base + tokenizer);
      if (cachesModelLib(modelLib)) await fetchOnce('webllm/wasm', modelLib);
      totalBytes = loadedBytes + manifest.records.reduce((sum, record) => sum + record.nbytes, 0);
      report(TENSOR_MANIFEST);
      for (const record of manifest.records) {
        await fetchOnce('webllm/model', new URL(record.dataPath, base).href);
      }
      totalBytes = loadedBytes;
      report(TENSOR_MANIFEST);
      return { bytes: loadedBytes };
    },
  };
}
