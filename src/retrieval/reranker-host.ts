import { AppError } from '../contracts/errors';
import { raceAbort } from '../core/abort';
import { stableStringify } from '../core/stable-json';
import { ModelSlot, type ModelLoadProgress } from '../models/transformers';
import type { EmbeddingDtype } from './embedding-models';
import type { Reranker } from './hybrid-search';
import {
  defaultEnvironment,
  type EmbedderDevice,
  type EmbedderEnvironment,
  type EmbedderLoadOptions,
} from './transformers-embedder';
import { TransformersReranker, type TransformersRerankerConfig } from './transformers-reranker';

/** What a reranker loaded as: enough to restore it in a later session without loading it then. */
export interface LoadedRerankerModel {
  info: { model_id: string; model_version: string };
  device: EmbedderDevice;
  dtype: EmbeddingDtype;
  /** Wall time of the load (download included), ms. */
  load_ms: number;
}

/**
 * Keeps one loaded cross-encoder and reloads when a request names another, as
 * TransformersEmbedderHost does for embedders: what the embed worker hosts
 * beside the embedder. Each request carries the whole config, so a restarted
 * worker reloads the model (from the browser cache) on the next score.
 */
export interface RerankerHostApi {
  loadReranker(
    config: TransformersRerankerConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedRerankerModel>;
  rerank(
    config: TransformersRerankerConfig,
    query: string,
    texts: string[],
  ): Promise<{ info: { model_id: string; model_version: string }; scores: number[] }>;
  unloadReranker(): Promise<void>;
}

export class TransformersRerankerHost implements RerankerHostApi {
  readonly #slot: ModelSlot<TransformersRerankerConfig, TimedReranker>;

  constructor(environment: EmbedderEnvironment = defaultEnvironment) {
    this.#slot = new ModelSlot(
      async (config, onProgress) => {
        const started = performance.now();
        const reranker = await TransformersReranker.load(
          config,
          onProgress ? { onProgress } : {},
          environment,
        );
        return {
          reranker,
          load_ms: Math.round(performance.now() - started),
          dispose: () => reranker.dispose(),
        };
      },
      (config) => stableStringify({ ...config, batch_size: undefined }),
    );
  }

  async loadReranker(
    config: TransformersRerankerConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedRerankerModel> {
    const { reranker, load_ms } = await this.#slot.ready(config, onProgress);
    return { info: reranker.info, device: reranker.device, dtype: reranker.dtype, load_ms };
  }

  async rerank(
    config: TransformersRerankerConfig,
    query: string,
    texts: string[],
  ): Promise<{ info: { model_id: string; model_version: string }; scores: number[] }> {
    return this.#slot.run(config, async ({ reranker }) => ({
      info: reranker.info,
      scores: await reranker.score(query, texts),
    }));
  }

  unloadReranker(): Promise<void> {
    return this.#slot.unload();
  }
}

/** A loaded reranker and how long its load took (download included). */
interface TimedReranker {
  reranker: TransformersReranker;
  load_ms: number;
  dispose(): Promise<void>;
}

/**
 * A Reranker whose model runs in a host (the embed worker's proxy, or an
 * in-thread host in tests). The abort signal is answered on this side.
 */
export class HostedReranker implements Reranker {
  readonly info: { model_id: string; model_version: string };
  readonly loaded: LoadedRerankerModel;
  readonly #host: RerankerHostApi;
  readonly #config: TransformersRerankerConfig;

  constructor(host: RerankerHostApi, config: TransformersRerankerConfig, loaded: LoadedRerankerModel) {
    this.#host = host;
    this.#config = config;
    this.loaded = loaded;
    this.info = loaded.info;
  }

  static async load(
    host: RerankerHostApi,
    config: TransformersRerankerConfig,
    options: EmbedderLoadOptions = {},
  ): Promise<HostedReranker> {
    options.signal?.throwIfAborted();
    const loaded = await raceAbort(host.loadReranker(config, options.onProgress), options.signal);
    return new HostedReranker(host, config, loaded);
  }

  async score(query: string, texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
    options.signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const result = await raceAbort(this.#host.rerank(this.#config, query, texts), options.signal);
    if (
      result.info.model_id !== this.info.model_id ||
      result.info.model_version !== this.info.model_version
    ) {
      // The host reloaded (a restarted worker) and found other files.
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        'The reranker model changed while it was in use; choose it again.',
        { model_id: this.info.model_id, kind: 'reranker', reason: 'model_changed' },
      );
    }
    return result.scores;
  }
}
