import * as Comlink from 'comlink';
import {
  TransformersEmbedderHost,
  type EmbedderHostApi,
  type EmbedInput,
  type ModelLoadProgress,
  type TransformersEmbedderConfig,
} from '../retrieval/transformers-embedder';

/**
 * What the embed worker exposes: the in-thread TransformersEmbedderHost, with
 * the Comlink details of crossing a thread (vectors are transferred, not
 * copied; the page's progress callback is released when the load ends).
 * Kept apart from embed.worker.ts so tests can expose it on a MessageChannel.
 */
export function createEmbedWorkerApi(host: EmbedderHostApi = new TransformersEmbedderHost()) {
  return {
    async load(config: TransformersEmbedderConfig, onProgress?: (progress: ModelLoadProgress) => void) {
      try {
        return await host.load(config, onProgress);
      } finally {
        (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
      }
    },
    async embed(config: TransformersEmbedderConfig, texts: string[], input: EmbedInput) {
      const result = await host.embed(config, texts, input);
      return Comlink.transfer(
        result,
        result.vectors.map((vector) => vector.buffer),
      );
    },
    unload: () => host.unload(),
  } satisfies EmbedderHostApi;
}

export type EmbedWorkerApi = ReturnType<typeof createEmbedWorkerApi>;
