import type * as Transformers from '@huggingface/transformers';
import { AppError } from '../contracts/errors';
import { sha256Hex, stableStringify } from '../core/stable-json';
import {
  defaultRuntimeProbe,
  dtypeSlot,
  loadInTurn,
  loadOnFirstDevice,
  openRuntime,
  progressReporter,
  type ModelLoadOptions,
  type RuntimeProbe,
  type TransformersDevice,
  type TransformersDevicePreference,
} from '../models/transformers';
// Types only from ./embedder: its zod schema must not follow HostedEmbedder into a page bundle.
import type { Embedder, EmbeddingModelInfo, RelevanceFloor } from './embedder';
import {
  findEmbeddingModel,
  type EmbeddingDtype,
  type EmbeddingModelSource,
  type EmbeddingModelSpec,
} from './embedding-models';
import { toEmbeddingModelError } from './model-load-errors';

/**
 * Sentence embeddings from transformers.js' `feature-extraction` pipeline.
 * The library is imported lazily, on the first load, so only the
 * embed worker (or a test) ever pulls it in. Loading (environment, device,
 * progress, abort) is the shared transformers.js host in
 * src/models/transformers/; the worker-side host and the page-side proxy
 * are ./embedder-host.ts.
 *
 * A loaded embedder has a fixed `info`: `model_version` is the revision, the
 * dtype and a hash of the model's config and of how texts are pooled and
 * prefixed, so vectors from another model, another dtype or a re-exported model
 * never mix with stored ones (VectorIndex refuses them with
 * INDEX_MODEL_MISMATCH).
 *
 * The same loading code runs in the app and in the tests; the tests load a tiny
 * model they generate (./__fixtures__/tiny-model) with remote models disabled.
 */

/** `auto`: WebGPU when an adapter exists, else WASM; in Node, onnxruntime-node's CPU back end. */
export type EmbedderDevicePreference = TransformersDevicePreference;
export type EmbedderDevice = TransformersDevice;

/** Everything that decides which model runs where: plain data, so it crosses the worker boundary. */
export interface TransformersEmbedderConfig {
  model: EmbeddingModelSpec;
  source: EmbeddingModelSource;
  /** Default: the model's `default_dtype` for the device. Part of `model_version`. */
  dtype?: EmbeddingDtype;
  device?: EmbedderDevicePreference;
  /** Texts per inference call; the abort signal is checked between batches. Default 16. */
  batch_size?: number;
}

export type EmbedderLoadOptions = ModelLoadOptions;

/** Search queries and indexed texts get different prefixes on some models (e5, bge). */
export type EmbedInput = 'query' | 'passage';

export interface TransformersEmbedOptions {
  signal?: AbortSignal;
  /** Default `passage`: what the index stores. */
  input?: EmbedInput;
}

/** What a load settled on, for status views and logs. */
export interface LoadedEmbeddingModel {
  info: EmbeddingModelInfo;
  device: EmbedderDevice;
  dtype: EmbeddingDtype;
  /** Wall time of the load (download included), ms. */
  load_ms: number;
}

/** Side effects the loader needs, replaceable in tests. */
export interface EmbedderEnvironment extends RuntimeProbe {
  importTransformers(): Promise<typeof Transformers>;
}

export const DEFAULT_EMBED_BATCH_SIZE = 16;

type FeatureExtractor = Transformers.FeatureExtractionPipeline;

/**
 * An embedder over one loaded transformers.js model. Create it with `load`;
 * `forQueries()` gives the same model with the query prefix applied, for
 * callers (like VectorIndex.query) that take a plain Embedder.
 */
export class TransformersEmbedder implements Embedder {
  readonly info: EmbeddingModelInfo;
  readonly relevance_floor?: RelevanceFloor;
  readonly config: TransformersEmbedderConfig;
  readonly loaded: LoadedEmbeddingModel;
  readonly #extractor: FeatureExtractor;
  #disposed = false;

  private constructor(
    config: TransformersEmbedderConfig,
    extractor: FeatureExtractor,
    loaded: LoadedEmbeddingModel,
  ) {
    this.config = config;
    this.#extractor = extractor;
    this.loaded = loaded;
    this.info = loaded.info;
    const floor = relevanceFloorOf(config.model);
    if (floor) this.relevance_floor = floor;
  }

  /**
   * Loads the model (downloading what the source allows), runs one probe text
   * to check the dimension and warm the session, and resolves to a ready
   * embedder. Failures are AppError `EMBEDDING_MODEL_UNAVAILABLE` (missing
   * files, offline, a broken model) or `EMBEDDING_DIMENSION_MISMATCH`; an
   * abort rejects with an AbortError (the download itself runs to its end in
   * the background and is then dropped: transformers.js cannot cancel it).
   */
  static async load(
    config: TransformersEmbedderConfig,
    options: EmbedderLoadOptions = {},
    environment: EmbedderEnvironment = defaultEnvironment,
  ): Promise<TransformersEmbedder> {
    return loadInTurn(options.signal, () => TransformersEmbedder.#loadNow(config, options, environment));
  }

  static async #loadNow(
    config: TransformersEmbedderConfig,
    options: EmbedderLoadOptions,
    environment: EmbedderEnvironment,
  ): Promise<TransformersEmbedder> {
    const modelId = config.model.model_id;
    const started = performance.now();
    const { library: transformers, devices } = await openRuntime(
      () => environment.importTransformers(),
      config.source,
      config.device ?? 'auto',
      environment,
      (error) =>
        new AppError(
          'EMBEDDING_MODEL_UNAVAILABLE',
          'The embedding runtime could not be loaded.',
          { model_id: modelId, reason: 'runtime_unavailable' },
          { cause: error },
        ),
    );
    return loadOnFirstDevice(
      devices,
      async (device) => {
        options.signal?.throwIfAborted();
        const dtype = config.dtype ?? config.model.default_dtype[dtypeSlot(device)];
        const report = progressReporter(options.onProgress);
        let extractor: FeatureExtractor | undefined;
        try {
          extractor = await transformers.pipeline('feature-extraction', modelId, {
            revision: config.model.revision,
            dtype,
            // In Node the default device is onnxruntime-node's CPU back end.
            ...(device === 'cpu' ? {} : { device }),
            progress_callback: report.callback,
          });
          const info = await modelInfo(config, dtype, extractor);
          const loaded: LoadedEmbeddingModel = { info, device, dtype, load_ms: 0 };
          const embedder = new TransformersEmbedder(config, extractor, loaded);
          const [probe] = await embedder.embed(['dimension probe 维度探测']);
          if (probe?.length !== config.model.dimension) {
            throw new AppError(
              'EMBEDDING_DIMENSION_MISMATCH',
              `The embedding model "${modelId}" gives vectors of ${probe?.length ?? 0} numbers, not the ${config.model.dimension} its catalog entry says.`,
              { model_id: modelId, expected: config.model.dimension, found: probe?.length ?? 0 },
            );
          }
          loaded.load_ms = Math.round(performance.now() - started);
          report.ready();
          return embedder;
        } catch (error) {
          // Frees the ONNX session of a half-made embedder too.
          if (extractor) await extractor.dispose().catch(() => undefined);
          throw toEmbeddingModelError(error, modelId);
        }
      },
      // Only a WebGPU failure of the runtime itself is worth a second try on WASM;
      // missing files, aborts and wrong dimensions would fail there too.
      (error) =>
        error instanceof AppError &&
        error.code === 'EMBEDDING_MODEL_UNAVAILABLE' &&
        error.details.reason === 'load_failed',
    );
  }

  /** One vector per text, in order, `info.dimension` long. */
  async embed(texts: string[], options: TransformersEmbedOptions = {}): Promise<Float32Array[]> {
    const { signal } = options;
    signal?.throwIfAborted();
    if (this.#disposed) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The embedding model was unloaded; load it again.', {
        model_id: this.info.model_id,
        reason: 'unloaded',
      });
    }
    const prefix =
      options.input === 'query' ? this.config.model.query_prefix : this.config.model.passage_prefix;
    return inBatches(texts, batchSizeOf(this.config), signal, (batch) =>
      this.#embedBatch(batch.map((text) => prefix + text)),
    );
  }

  /** The same model as a plain Embedder that embeds search queries. */
  forQueries(): Embedder {
    return queryEmbedder(this);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#extractor.dispose().catch(() => undefined);
  }

  async #embedBatch(batch: string[]): Promise<Float32Array[]> {
    let output: Transformers.Tensor;
    try {
      output = await this.#extractor(batch, {
        pooling: this.config.model.pooling,
        normalize: this.config.model.normalize,
      });
    } catch (error) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `The embedding model "${this.info.model_id}" failed while embedding text.`,
        { model_id: this.info.model_id, reason: 'inference_failed' },
        { cause: error },
      );
    }
    try {
      return splitRows(output, batch.length, this.info);
    } finally {
      output.dispose();
    }
  }
}

export const defaultEnvironment: EmbedderEnvironment = {
  ...defaultRuntimeProbe,
  importTransformers: () => import('@huggingface/transformers'),
};

async function modelInfo(
  config: TransformersEmbedderConfig,
  dtype: EmbeddingDtype,
  extractor: FeatureExtractor,
): Promise<EmbeddingModelInfo> {
  const { model } = config;
  // What changes the vectors: the model's config.json, and how texts are
  // prefixed and pooled. The weights are pinned by revision + dtype. The
  // library's derived `normalized_config` is left out, so upgrading
  // transformers.js does not by itself invalidate stored vectors.
  const { normalized_config: _derived, ...modelConfig } = extractor.model.config as unknown as Record<
    string,
    unknown
  >;
  const fingerprint = stableStringify({
    config: modelConfig,
    pooling: model.pooling,
    normalize: model.normalize,
    query_prefix: model.query_prefix,
    passage_prefix: model.passage_prefix,
  });
  return {
    model_id: model.model_id,
    model_version: `${model.revision}.${dtype}.${(await sha256Hex(fingerprint)).slice(0, 16)}`,
    dimension: model.dimension,
    normalization: model.normalize ? 'l2' : 'none',
  };
}

function splitRows(output: Transformers.Tensor, rows: number, info: EmbeddingModelInfo): Float32Array[] {
  const [count, dimension] = output.dims;
  if (output.dims.length !== 2 || count !== rows || !(output.data instanceof Float32Array)) {
    throw new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `The embedding model "${info.model_id}" returned output of an unexpected shape.`,
      { model_id: info.model_id, reason: 'unexpected_output', dims: [...output.dims] },
    );
  }
  const width = dimension ?? 0;
  const data = output.data;
  const vectors: Float32Array[] = [];
  for (let row = 0; row < rows; row++) {
    const vector = data.slice(row * width, (row + 1) * width);
    // An empty text can pool to 0/0; a zero vector matches nothing instead.
    for (let index = 0; index < width; index++) if (!Number.isFinite(vector[index])) vector[index] = 0;
    vectors.push(vector);
  }
  return vectors;
}

export function batchSizeOf(config: TransformersEmbedderConfig): number {
  const size = config.batch_size ?? DEFAULT_EMBED_BATCH_SIZE;
  return Number.isInteger(size) && size > 0 ? size : DEFAULT_EMBED_BATCH_SIZE;
}

/**
 * Runs `embedBatch` over `texts` a batch at a time, in order; the abort signal
 * is checked between batches (a running inference call cannot be stopped).
 */
export async function inBatches(
  texts: string[],
  batchSize: number,
  signal: AbortSignal | undefined,
  embedBatch: (batch: string[]) => Promise<Float32Array[]>,
): Promise<Float32Array[]> {
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    signal?.throwIfAborted();
    vectors.push(...(await embedBatch(texts.slice(start, start + batchSize))));
  }
  signal?.throwIfAborted();
  return vectors;
}

/** An embedder of passages and queries as a plain Embedder that embeds search queries. */
export function queryEmbedder(embedder: {
  info: EmbeddingModelInfo;
  relevance_floor?: RelevanceFloor;
  embed(texts: string[], options?: TransformersEmbedOptions): Promise<Float32Array[]>;
}): Embedder {
  return {
    info: embedder.info,
    ...(embedder.relevance_floor ? { relevance_floor: embedder.relevance_floor } : {}),
    embed: (texts, options = {}) => embedder.embed(texts, { ...options, input: 'query' }),
  };
}

/**
 * The spec's floor; a spec saved in the settings before floors existed gets
 * the one of its catalog entry, so an upgrade does not leave it without.
 */
export function relevanceFloorOf(spec: EmbeddingModelSpec): RelevanceFloor | undefined {
  return spec.relevance_floor ?? findEmbeddingModel(spec.model_id)?.relevance_floor;
}
