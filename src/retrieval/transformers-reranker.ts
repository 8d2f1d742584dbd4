import type * as Transformers from '@huggingface/transformers';
import { AppError } from '../contracts/errors';
import type { EmbeddingDevice, EmbeddingDtype, EmbeddingModelSource } from './embedding-models';
import type { Reranker } from './hybrid-search';
import {
  candidateDevices,
  configureEnvironment,
  defaultEnvironment,
  progressReporter,
  raceAbort,
  serialiseLoad,
  sha256Hex,
  stableStringify,
  toEmbeddingModelError,
  type EmbedderDevice,
  type ModelLoadProgress,
  type EmbedderDevicePreference,
  type EmbedderEnvironment,
  type EmbedderLoadOptions,
} from './transformers-embedder';

/**
 * A cross-encoder reranker on transformers.js: the query and each
 * candidate block go through the model together, as one text-classification
 * input pair (token types 0 and 1), and the relevance logit orders them.
 * Used by hybridSearch when the RetrievalProfile's `rerank` is on.
 *
 * It loads the tokenizer and the sequence-classification model directly (what
 * the `text-classification` pipeline does inside) so the raw logit is the
 * score: the pipeline would squash one-logit models through a sigmoid and
 * report only the top label of two-label ones.
 */

export interface RerankerModelSpec {
  model_id: string;
  label: string;
  languages: ReadonlyArray<'zh' | 'en' | 'multilingual'>;
  revision: string;
  /** Query and passage together are truncated to this many tokens. */
  max_tokens: number;
  default_dtype: Record<EmbeddingDevice, EmbeddingDtype>;
  /** Approximate download per dtype, MB (guidance only, as in embedding-models.ts). */
  approx_download_mb: Partial<Record<EmbeddingDtype, number>>;
}

/**
 * Cross-encoders with ONNX exports transformers.js loads. Sizes are
 * approximate: the parameter counts times the bytes per weight.
 */
export const RERANKER_MODELS: readonly RerankerModelSpec[] = [
  {
    // BAAI bge-reranker-base (XLM-R base, 278M parameters): Chinese and English.
    model_id: 'Xenova/bge-reranker-base',
    label: 'BGE reranker base (中文 + English)',
    languages: ['multilingual', 'zh', 'en'],
    revision: 'main',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'q8' },
    approx_download_mb: { fp32: 1110, q8: 280 },
  },
  {
    // ms-marco MiniLM-L-6 (23M parameters): small and fast, English only.
    model_id: 'Xenova/ms-marco-MiniLM-L-6-v2',
    label: 'MS MARCO MiniLM-L6 (English)',
    languages: ['en'],
    revision: 'main',
    max_tokens: 512,
    default_dtype: { webgpu: 'fp32', wasm: 'q8' },
    approx_download_mb: { fp32: 91, q8: 23 },
  },
];

export interface TransformersRerankerConfig {
  model: RerankerModelSpec;
  source: EmbeddingModelSource;
  dtype?: EmbeddingDtype;
  device?: EmbedderDevicePreference;
  /** Pairs per inference call; the abort signal is checked between batches. Default 8. */
  batch_size?: number;
}

export const DEFAULT_RERANK_BATCH_SIZE = 8;

export class TransformersReranker implements Reranker {
  readonly info: { model_id: string; model_version: string };
  readonly device: EmbedderDevice;
  readonly dtype: EmbeddingDtype;
  readonly #config: TransformersRerankerConfig;
  readonly #tokenizer: Transformers.PreTrainedTokenizer;
  readonly #model: Transformers.PreTrainedModel;
  #disposed = false;

  private constructor(
    config: TransformersRerankerConfig,
    tokenizer: Transformers.PreTrainedTokenizer,
    model: Transformers.PreTrainedModel,
    info: { model_id: string; model_version: string },
    device: EmbedderDevice,
    dtype: EmbeddingDtype,
  ) {
    this.#config = config;
    this.dtype = dtype;
    this.#tokenizer = tokenizer;
    this.#model = model;
    this.info = info;
    this.device = device;
  }

  /**
   * Loads the model (downloading what the source allows). Failures are
   * `EMBEDDING_MODEL_UNAVAILABLE` with `details.kind = 'reranker'` (the
   * contract has no reranker code); an abort rejects with an AbortError.
   */
  static async load(
    config: TransformersRerankerConfig,
    options: EmbedderLoadOptions = {},
    environment: EmbedderEnvironment = defaultEnvironment,
  ): Promise<TransformersReranker> {
    options.signal?.throwIfAborted();
    const loading = serialiseLoad(() => TransformersReranker.#loadNow(config, options, environment));
    const signal = options.signal;
    if (!signal) return loading;
    // An abort answers at once; a load that still finishes is freed.
    loading.then(
      (reranker) => {
        if (signal.aborted) void reranker.dispose();
      },
      () => undefined,
    );
    return raceAbort(loading, signal);
  }

  static async #loadNow(
    config: TransformersRerankerConfig,
    options: EmbedderLoadOptions,
    environment: EmbedderEnvironment,
  ): Promise<TransformersReranker> {
    const modelId = config.model.model_id;
    let transformers: typeof Transformers;
    try {
      transformers = await environment.importTransformers();
    } catch (error) {
      throw rerankerError(error, modelId);
    }
    configureEnvironment(transformers.env, config.source);
    const devices = await candidateDevices(config.device ?? 'auto', environment);
    let lastError: unknown;
    for (const device of devices) {
      options.signal?.throwIfAborted();
      const dtype = config.dtype ?? config.model.default_dtype[device === 'webgpu' ? 'webgpu' : 'wasm'];
      const report = progressReporter(options.onProgress);
      let model: Transformers.PreTrainedModel | undefined;
      try {
        const tokenizer = await transformers.AutoTokenizer.from_pretrained(modelId, {
          revision: config.model.revision,
          progress_callback: report.callback,
        });
        model = await transformers.AutoModelForSequenceClassification.from_pretrained(modelId, {
          revision: config.model.revision,
          dtype,
          ...(device === 'cpu' ? {} : { device }),
          progress_callback: report.callback,
        });
        const { normalized_config: _derived, ...modelConfig } = model.config as unknown as Record<
          string,
          unknown
        >;
        const fingerprint = stableStringify({ config: modelConfig, max_tokens: config.model.max_tokens });
        const info = {
          model_id: modelId,
          model_version: `${config.model.revision}.${dtype}.${(await sha256Hex(fingerprint)).slice(0, 16)}`,
        };
        const reranker = new TransformersReranker(config, tokenizer, model, info, device, dtype);
        // One probe pair: a model that is not a classifier fails here, not in the first search.
        await reranker.score('probe 探测', ['probe 探测']);
        report.ready();
        return reranker;
      } catch (error) {
        if (model) await model.dispose().catch(() => undefined);
        const mapped = rerankerError(error, modelId);
        lastError = mapped;
        const retryable =
          device === 'webgpu' && mapped instanceof AppError && mapped.details.reason === 'load_failed';
        if (!retryable) throw mapped;
      }
    }
    throw lastError;
  }

  /** One relevance score per text, for (query, text) pairs; higher is more relevant. */
  async score(query: string, texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[]> {
    const { signal } = options;
    signal?.throwIfAborted();
    if (this.#disposed) {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The reranker model was unloaded; load it again.', {
        model_id: this.info.model_id,
        kind: 'reranker',
        reason: 'unloaded',
      });
    }
    const size = this.#config.batch_size ?? DEFAULT_RERANK_BATCH_SIZE;
    const batchSize = Number.isInteger(size) && size > 0 ? size : DEFAULT_RERANK_BATCH_SIZE;
    const scores: number[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      signal?.throwIfAborted();
      scores.push(...(await this.#scoreBatch(query, texts.slice(start, start + batchSize))));
    }
    signal?.throwIfAborted();
    return scores;
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.#model.dispose().catch(() => undefined);
  }

  async #scoreBatch(query: string, passages: string[]): Promise<number[]> {
    try {
      const inputs = this.#tokenizer(
        passages.map(() => query),
        {
          text_pair: passages,
          padding: true,
          truncation: true,
          max_length: this.#config.model.max_tokens,
        },
      );
      const { logits } = (await this.#model(inputs)) as { logits: Transformers.Tensor };
      const [rows, labels = 1] = logits.dims;
      const data = logits.data as Float32Array;
      if (rows !== passages.length)
        throw new Error(`expected ${passages.length} rows of logits, got ${rows}`);
      // One logit: the relevance. Two or more: the last label ("relevant") against the first.
      return passages.map((_, row) =>
        labels === 1 ? (data[row] ?? 0) : (data[row * labels + labels - 1] ?? 0) - (data[row * labels] ?? 0),
      );
    } catch (error) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        `The reranker model "${this.info.model_id}" failed while scoring.`,
        { model_id: this.info.model_id, kind: 'reranker', reason: 'inference_failed' },
        { cause: error },
      );
    }
  }
}

export function findRerankerModel(
  modelId: string,
  models: readonly RerankerModelSpec[] = RERANKER_MODELS,
): RerankerModelSpec | undefined {
  return models.find((model) => model.model_id === modelId);
}

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
  #current: { key: string; ready: Promise<{ reranker: TransformersReranker; load_ms: number }> } | undefined;
  readonly #environment: EmbedderEnvironment;

  constructor(environment: EmbedderEnvironment = defaultEnvironment) {
    this.#environment = environment;
  }

  async loadReranker(
    config: TransformersRerankerConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedRerankerModel> {
    const { reranker, load_ms } = await this.#use(config, onProgress);
    return { info: reranker.info, device: reranker.device, dtype: reranker.dtype, load_ms };
  }

  async rerank(
    config: TransformersRerankerConfig,
    query: string,
    texts: string[],
  ): Promise<{ info: { model_id: string; model_version: string }; scores: number[] }> {
    const { reranker } = await this.#use(config);
    return { info: reranker.info, scores: await reranker.score(query, texts) };
  }

  async unloadReranker(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (current) await current.ready.then(({ reranker }) => reranker.dispose()).catch(() => undefined);
  }

  #use(
    config: TransformersRerankerConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<{ reranker: TransformersReranker; load_ms: number }> {
    const key = stableStringify({ ...config, batch_size: undefined });
    const current = this.#current;
    if (current?.key === key) {
      // Already loading or loaded: report the end, so a second caller's job completes too.
      if (onProgress) {
        void current.ready.then(
          () => onProgress({ phase: 'ready', file: null, loaded: 0, total: null, percent: 100 }),
          () => undefined,
        );
      }
      return current.ready;
    }
    const started = performance.now();
    const ready = TransformersReranker.load(config, onProgress ? { onProgress } : {}, this.#environment).then(
      (reranker) => ({ reranker, load_ms: Math.round(performance.now() - started) }),
    );
    const hosted = { key, ready };
    this.#current = hosted;
    // A failed load is forgotten, so the next request tries again.
    ready.catch(() => {
      if (this.#current === hosted) this.#current = undefined;
    });
    if (current) void current.ready.then(({ reranker }) => reranker.dispose()).catch(() => undefined);
    return ready;
  }
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

function rerankerError(error: unknown, modelId: string): unknown {
  const mapped = toEmbeddingModelError(error, modelId);
  if (!(mapped instanceof AppError) || mapped.code !== 'EMBEDDING_MODEL_UNAVAILABLE') return mapped;
  const reason = typeof mapped.details.reason === 'string' ? mapped.details.reason : 'load_failed';
  const messages: Record<string, string> = {
    missing_files: `The reranker model "${modelId}" is not available: its files are not on this device and could not be downloaded.`,
    network: `The reranker model "${modelId}" could not be downloaded: the model host cannot be reached.`,
  };
  return new AppError(
    'EMBEDDING_MODEL_UNAVAILABLE',
    messages[reason] ?? `The reranker model "${modelId}" could not be loaded.`,
    { ...mapped.details, kind: 'reranker', reason },
    { cause: error },
  );
}
