import * as Comlink from 'comlink';
import type { ModelLoadProgress } from '../models/transformers';
import { TransformersEmbedderHost, type EmbedderHostApi } from '../retrieval/embedder-host';
import { TransformersRerankerHost, type RerankerHostApi } from '../retrieval/reranker-host';
import type { EmbedInput, TransformersEmbedderConfig } from '../retrieval/transformers-embedder';
import type { TransformersRerankerConfig } from '../retrieval/transformers-reranker';

/**
 * What the embed worker exposes: the in-thread TransformersEmbedderHost, with
 * the Comlink details of crossing a thread (vectors are transferred, not
 * copied; the page's progress callback is released when the load ends).
 * Kept apart from embed.worker.ts so tests can expose it on a MessageChannel.
 * The cross-encoder reranker runs here too, beside the embedder, so the page
 * never loads transformers.js for it either.
 */
export function createEmbedWorkerApi(
  host: EmbedderHostApi = new TransformersEmbedderHost(),
  rerankers: RerankerHostApi = new TransformersRerankerHost(),
) {
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
    async loadReranker(
      config: TransformersRerankerConfig,
      onProgress?: (progress: ModelLoadProgress) => void,
    ) {
      try {
        return await rerankers.loadReranker(config, onProgress);
      } finally {
        (onProgress as Partial<Comlink.Remote<() => void>> | undefined)?.[Comlink.releaseProxy]?.();
      }
    },
    rerank: (config: TransformersRerankerConfig, query: string, texts: string[]) =>
      rerankers.rerank(config, query, texts),
    unloadReranker: () => rerankers.unloadReranker(),
  } satisfies EmbedderHostApi & RerankerHostApi;
}

export type EmbedWorkerApi = ReturnType<typeof createEmbedWorkerApi>;
