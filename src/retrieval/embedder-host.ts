import { AppError } from '../contracts/errors';
import { raceAbort } from '../core/abort';
import { stableStringify } from '../core/stable-json';
import { ModelSlot, type ModelLoadProgress } from '../models/transformers';
// Types only from ./embedder: its zod schema must not follow HostedEmbedder into a page bundle.
import type { Embedder, EmbeddingModelInfo, RelevanceFloor } from './embedder';
import {
  batchSizeOf,
  defaultEnvironment,
  inBatches,
  queryEmbedder,
  relevanceFloorOf,
  TransformersEmbedder,
  type EmbedderEnvironment,
  type EmbedderLoadOptions,
  type EmbedInput,
  type LoadedEmbeddingModel,
  type TransformersEmbedderConfig,
  type TransformersEmbedOptions,
} from './transformers-embedder';

/**
 * Keeps one loaded model and reloads when a request names another: what the
 * embed worker hosts. Each request carries the whole config, so a worker the
 * browser killed and restarted picks up where it was.
 */
export interface EmbedderHostApi {
  load(
    config: TransformersEmbedderConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedEmbeddingModel>;
  /** Reloads first when `config` is not the loaded model's. `info` says which model made the vectors. */
  embed(
    config: TransformersEmbedderConfig,
    texts: string[],
    input: EmbedInput,
  ): Promise<{ info: EmbeddingModelInfo; vectors: Float32Array[] }>;
  unload(): Promise<void>;
}

export class TransformersEmbedderHost implements EmbedderHostApi {
  readonly #slot: ModelSlot<TransformersEmbedderConfig, TransformersEmbedder>;

  constructor(environment: EmbedderEnvironment = defaultEnvironment) {
    this.#slot = new ModelSlot(
      (config, onProgress) =>
        TransformersEmbedder.load(config, onProgress ? { onProgress } : {}, environment),
      embedderConfigKey,
    );
  }

  async load(
    config: TransformersEmbedderConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedEmbeddingModel> {
    return (await this.#slot.ready(config, onProgress)).loaded;
  }

  async embed(
    config: TransformersEmbedderConfig,
    texts: string[],
    input: EmbedInput,
  ): Promise<{ info: EmbeddingModelInfo; vectors: Float32Array[] }> {
    return this.#slot.run(config, async (embedder) => ({
      info: embedder.info,
      vectors: await embedder.embed(texts, { input }),
    }));
  }

  unload(): Promise<void> {
    return this.#slot.unload();
  }
}

/**
 * An Embedder whose model runs in a host (the embed worker's proxy, or an
 * in-thread host in tests). Batches and the abort signal are handled on this
 * side, so an abort takes effect between batches without a round trip.
 */
export class HostedEmbedder implements Embedder {
  readonly info: EmbeddingModelInfo;
  readonly relevance_floor?: RelevanceFloor;
  readonly loaded: LoadedEmbeddingModel;
  readonly #host: EmbedderHostApi;
  readonly #config: TransformersEmbedderConfig;

  constructor(host: EmbedderHostApi, config: TransformersEmbedderConfig, loaded: LoadedEmbeddingModel) {
    this.#host = host;
    this.#config = config;
    this.loaded = loaded;
    this.info = loaded.info;
    const floor = relevanceFloorOf(config.model);
    if (floor) this.relevance_floor = floor;
  }

  /** Loads `config` in `host` and resolves to an Embedder for it. */
  static async load(
    host: EmbedderHostApi,
    config: TransformersEmbedderConfig,
    options: EmbedderLoadOptions = {},
  ): Promise<HostedEmbedder> {
    options.signal?.throwIfAborted();
    const loaded = await raceAbort(host.load(config, options.onProgress), options.signal);
    return new HostedEmbedder(host, config, loaded);
  }

  async embed(texts: string[], options: TransformersEmbedOptions = {}): Promise<Float32Array[]> {
    const { signal } = options;
    return inBatches(texts, batchSizeOf(this.#config), signal, async (batch) => {
      const result = await raceAbort(
        this.#host.embed(this.#config, batch, options.input ?? 'passage'),
        signal,
      );
      if (!sameModel(result.info, this.info)) {
        // The host reloaded (a restarted worker) and found other files: these
        // vectors are not this embedder's.
        throw new AppError(
          'EMBEDDING_MODEL_UNAVAILABLE',
          'The embedding model changed while it was in use; load it again.',
          { model_id: this.info.model_id, reason: 'model_changed' },
        );
      }
      return result.vectors;
    });
  }

  forQueries(): Embedder {
    return queryEmbedder(this);
  }
}

/** `sameEmbeddingModel` of ./embedder, without importing that module's zod. */
function sameModel(a: EmbeddingModelInfo, b: EmbeddingModelInfo): boolean {
  return (
    a.model_id === b.model_id &&
    a.model_version === b.model_version &&
    a.dimension === b.dimension &&
    a.normalization === b.normalization
  );
}

/** A stable key of everything that decides the vectors and where they are computed (not the batch size). */
export function embedderConfigKey(config: TransformersEmbedderConfig): string {
  return stableStringify({ ...config, batch_size: undefined });
}
