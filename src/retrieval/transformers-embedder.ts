import type * as Transformers from '@huggingface/transformers';
import { AppError, isAbortError } from '../contracts/errors';
// Types only from ./embedder: its zod schema must not follow HostedEmbedder into a page bundle.
import type { Embedder, EmbeddingModelInfo } from './embedder';
import type { EmbeddingDtype, EmbeddingModelSource, EmbeddingModelSpec } from './embedding-models';

/**
 * Sentence embeddings from transformers.js' `feature-extraction` pipeline.
 * The library is imported lazily, on the first load, so only the
 * embed worker (or a test) ever pulls it in.
 *
 * A loaded embedder has a fixed `info`: `model_version` is the revision, the
 * dtype and a hash of the model's config and of how texts are pooled and
 * prefixed, so vectors from another model, another dtype or a re-exported model
 * never mix with stored ones (VectorIndex refuses them with
 * INDEX_MODEL_MISMATCH).
 *
 * The same loading code runs in the app and in the tests; the tests load a tiny
 * model they generate (./tiny-model) with remote models disabled.
 */

/** `auto`: WebGPU when an adapter exists, else WASM; in Node, onnxruntime-node's CPU back end. */
export type EmbedderDevicePreference = 'auto' | 'webgpu' | 'wasm' | 'cpu';
export type EmbedderDevice = 'webgpu' | 'wasm' | 'cpu';

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

/**
 * Download and load progress, for the job that wraps a model download.
 * `loaded`/`total` are bytes over all files seen so far; `percent` is null
 * while the total is unknown. `initialize` is the ONNX session being built
 * after the weights arrived; `ready` comes once, last.
 */
export interface ModelLoadProgress {
  phase: 'download' | 'initialize' | 'ready';
  file: string | null;
  loaded: number;
  total: number | null;
  percent: number | null;
}

export interface EmbedderLoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ModelLoadProgress) => void;
}

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
export interface EmbedderEnvironment {
  /** True when a WebGPU adapter can be had. */
  hasWebGpu(): Promise<boolean>;
  /** True in Node (tests, scripts): onnxruntime-node instead of WASM. */
  isNode(): boolean;
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
    options.signal?.throwIfAborted();
    const loading = serialiseLoad(() => TransformersEmbedder.#loadNow(config, options, environment));
    if (!options.signal) return loading;
    const signal = options.signal;
    return new Promise<TransformersEmbedder>((resolve, reject) => {
      const onAbort = (): void => {
        reject(abortReason(signal));
        // Free the model if it still arrives.
        void loading.then((embedder) => embedder.dispose()).catch(() => undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      loading.then(
        (embedder) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) void embedder.dispose();
          else resolve(embedder);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  static async #loadNow(
    config: TransformersEmbedderConfig,
    options: EmbedderLoadOptions,
    environment: EmbedderEnvironment,
  ): Promise<TransformersEmbedder> {
    const modelId = config.model.model_id;
    const started = performance.now();
    let transformers: typeof Transformers;
    try {
      transformers = await environment.importTransformers();
    } catch (error) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        'The embedding runtime could not be loaded.',
        { model_id: modelId, reason: 'runtime_unavailable' },
        { cause: error },
      );
    }
    configureEnvironment(transformers.env, config.source);

    const devices = await candidateDevices(config.device ?? 'auto', environment);
    let lastError: unknown;
    for (const device of devices) {
      options.signal?.throwIfAborted();
      const dtype = config.dtype ?? config.model.default_dtype[device === 'webgpu' ? 'webgpu' : 'wasm'];
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
        const mapped = toEmbeddingModelError(error, modelId);
        lastError = mapped;
        // Only a WebGPU failure of the runtime itself is worth a second try on WASM;
        // missing files, aborts and wrong dimensions would fail there too.
        const retryable =
          device === 'webgpu' &&
          mapped instanceof AppError &&
          mapped.code === 'EMBEDDING_MODEL_UNAVAILABLE' &&
          mapped.details.reason === 'load_failed';
        if (!retryable) throw mapped;
      }
    }
    throw lastError;
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
    const batchSize = batchSizeOf(this.config);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = texts.slice(start, start + batchSize).map((text) => prefix + text);
      vectors.push(...(await this.#embedBatch(batch)));
    }
    signal?.throwIfAborted();
    return vectors;
  }

  /** The same model as a plain Embedder that embeds search queries. */
  forQueries(): Embedder {
    return {
      info: this.info,
      embed: (texts, options = {}) => this.embed(texts, { ...options, input: 'query' }),
    };
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

interface HostedModel {
  key: string;
  ready: Promise<TransformersEmbedder>;
  /** Work on this model runs in order; disposal waits for it. */
  tail: Promise<unknown>;
}

export class TransformersEmbedderHost implements EmbedderHostApi {
  #current: HostedModel | undefined;
  readonly #environment: EmbedderEnvironment;

  constructor(environment: EmbedderEnvironment = defaultEnvironment) {
    this.#environment = environment;
  }

  async load(
    config: TransformersEmbedderConfig,
    onProgress?: (progress: ModelLoadProgress) => void,
  ): Promise<LoadedEmbeddingModel> {
    return (await this.#use(config, onProgress).ready).loaded;
  }

  async embed(
    config: TransformersEmbedderConfig,
    texts: string[],
    input: EmbedInput,
  ): Promise<{ info: EmbeddingModelInfo; vectors: Float32Array[] }> {
    const hosted = this.#use(config);
    const run = hosted.tail.then(async () => {
      const embedder = await hosted.ready;
      return { info: embedder.info, vectors: await embedder.embed(texts, { input }) };
    });
    hosted.tail = run.catch(() => undefined);
    return run;
  }

  async unload(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (current) await retire(current);
  }

  #use(config: TransformersEmbedderConfig, onProgress?: (progress: ModelLoadProgress) => void): HostedModel {
    const key = embedderConfigKey(config);
    const current = this.#current;
    if (current?.key === key) {
      if (onProgress) {
        // Already loading or loaded: report the end, so a second caller's job completes too.
        void current.ready.then(
          () => onProgress({ phase: 'ready', file: null, loaded: 0, total: null, percent: 100 }),
          () => undefined,
        );
      }
      return current;
    }
    const ready = TransformersEmbedder.load(config, onProgress ? { onProgress } : {}, this.#environment);
    const hosted: HostedModel = { key, ready, tail: ready.catch(() => undefined) };
    this.#current = hosted;
    // A failed load is forgotten, so the next request tries again.
    ready.catch(() => {
      if (this.#current === hosted) this.#current = undefined;
    });
    if (current) void retire(current);
    return hosted;
  }
}

/**
 * An Embedder whose model runs in a host (the embed worker's proxy, or an
 * in-thread host in tests). Batches and the abort signal are handled on this
 * side, so an abort takes effect between batches without a round trip.
 */
export class HostedEmbedder implements Embedder {
  readonly info: EmbeddingModelInfo;
  readonly loaded: LoadedEmbeddingModel;
  readonly #host: EmbedderHostApi;
  readonly #config: TransformersEmbedderConfig;

  constructor(host: EmbedderHostApi, config: TransformersEmbedderConfig, loaded: LoadedEmbeddingModel) {
    this.#host = host;
    this.#config = config;
    this.loaded = loaded;
    this.info = loaded.info;
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
    const batchSize = batchSizeOf(this.#config);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = texts.slice(start, start + batchSize);
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
      vectors.push(...result.vectors);
    }
    signal?.throwIfAborted();
    return vectors;
  }

  forQueries(): Embedder {
    return {
      info: this.info,
      embed: (texts, options = {}) => this.embed(texts, { ...options, input: 'query' }),
    };
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

/** Maps anything a load or download throws to the contract's error; aborts and AppErrors pass through. */
export function toEmbeddingModelError(error: unknown, modelId: string): unknown {
  if (isAbortError(error) || error instanceof AppError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  if (
    name === 'ModelFileNotFoundError' ||
    /not found|could not locate|404|no such file|ENOENT/i.test(message)
  ) {
    return new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `The embedding model "${modelId}" is not available: its files are not on this device and could not be downloaded.`,
      { model_id: modelId, reason: 'missing_files' },
      { cause: error },
    );
  }
  // fetch's own failures: "fetch failed" (Node), "Failed to fetch" (Chromium),
  // "NetworkError ..." (Firefox), "Load failed" (Safari). Other TypeErrors are bugs.
  if (/fetch|network|load failed|ECONNREFUSED|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|offline/i.test(message)) {
    return new AppError(
      'EMBEDDING_MODEL_UNAVAILABLE',
      `The embedding model "${modelId}" could not be downloaded: the model host cannot be reached. Check the connection or the model host setting.`,
      { model_id: modelId, reason: 'network' },
      { cause: error },
    );
  }
  return new AppError(
    'EMBEDDING_MODEL_UNAVAILABLE',
    `The embedding model "${modelId}" could not be loaded.`,
    { model_id: modelId, reason: 'load_failed' },
    { cause: error },
  );
}

export const defaultEnvironment: EmbedderEnvironment = {
  async hasWebGpu() {
    const gpu = (
      globalThis.navigator as (Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }) | undefined
    )?.gpu;
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) != null;
    } catch {
      return false;
    }
  },
  isNode() {
    const process = (globalThis as { process?: { versions?: { node?: string } } }).process;
    return typeof process?.versions?.node === 'string';
  },
  importTransformers: () => import('@huggingface/transformers'),
};

// ---------------------------------------------------------------------------

/** transformers.js keeps its settings in one global `env`: loads (embedders and rerankers) take turns. */
let loadQueue: Promise<unknown> = Promise.resolve();
export function serialiseLoad<T>(task: () => Promise<T>): Promise<T> {
  const run = loadQueue.then(task, task);
  loadQueue = run.catch(() => undefined);
  return run;
}

interface EnvironmentDefaults {
  localModelPath: string;
  remoteHost: string;
  remotePathTemplate: string;
  wasmPaths: unknown;
  useBrowserCache: boolean;
  useFSCache: boolean;
  cacheDir: string | null;
}
const environmentDefaults = new WeakMap<object, EnvironmentDefaults>();

/**
 * Applies a source to transformers.js' global `env`. Every field is set each
 * time, to the source's value or the library's own default, so one load's
 * settings never leak into the next.
 */
export function configureEnvironment(env: typeof Transformers.env, source: EmbeddingModelSource): void {
  const onnxWasm = env.backends.onnx.wasm;
  let defaults = environmentDefaults.get(env);
  if (!defaults) {
    defaults = {
      localModelPath: env.localModelPath,
      remoteHost: env.remoteHost,
      remotePathTemplate: env.remotePathTemplate,
      wasmPaths: onnxWasm?.wasmPaths,
      useBrowserCache: env.useBrowserCache,
      useFSCache: env.useFSCache,
      cacheDir: env.cacheDir,
    };
    environmentDefaults.set(env, defaults);
  }
  env.allowLocalModels = source.allow_local_models;
  env.localModelPath = source.local_model_path ?? defaults.localModelPath;
  env.allowRemoteModels = source.allow_remote_models;
  env.remoteHost = source.remote_host ?? defaults.remoteHost;
  env.remotePathTemplate = source.remote_path_template ?? defaults.remotePathTemplate;
  if (onnxWasm) onnxWasm.wasmPaths = (source.wasm_paths ?? defaults.wasmPaths) as typeof onnxWasm.wasmPaths;
  // Only a cache this runtime has may be on: Cache Storage in browsers, files in Node.
  env.useBrowserCache =
    source.use_cache === undefined ? defaults.useBrowserCache : source.use_cache && defaults.useBrowserCache;
  env.useFSCache =
    source.use_cache === undefined ? defaults.useFSCache : source.use_cache && defaults.useFSCache;
  env.cacheDir = source.cache_dir ?? defaults.cacheDir;
}

export async function candidateDevices(
  preference: EmbedderDevicePreference,
  environment: EmbedderEnvironment,
): Promise<EmbedderDevice[]> {
  if (preference !== 'auto') return [preference];
  if (environment.isNode()) return ['cpu'];
  return (await environment.hasWebGpu()) ? ['webgpu', 'wasm'] : ['wasm'];
}

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

interface ProgressReporter {
  callback: ((event: Transformers.ProgressInfo) => void) | undefined;
  ready(): void;
}

/**
 * Turns transformers.js' per-file events into one running byte count. Emits
 * when the phase or file changes or the whole percent (MB while the total is
 * unknown) moves, so a worker does not post thousands of messages.
 */
export function progressReporter(
  onProgress: ((progress: ModelLoadProgress) => void) | undefined,
): ProgressReporter {
  if (!onProgress) return { callback: undefined, ready: () => undefined };
  const files = new Map<string, { loaded: number; total: number | null }>();
  /** transformers.js' own sum over the files it expects, when it could size them. */
  let expected: { loaded: number; total: number } | undefined;
  let lastKey = '';
  const bytes = (): { loaded: number; total: number | null } => {
    if (expected && expected.total > 0) return { ...expected };
    let loaded = 0;
    let total: number | null = 0;
    for (const entry of files.values()) {
      loaded += entry.loaded;
      total = total === null || entry.total === null ? null : total + entry.total;
    }
    return { loaded, total: total || null };
  };
  const emit = (phase: ModelLoadProgress['phase'], file: string | null): void => {
    const { loaded, total } = bytes();
    const percent = total === null ? null : Math.min(100, (loaded / total) * 100);
    const step = percent === null ? `mb${Math.floor(loaded / 1_048_576)}` : Math.floor(percent);
    const key = `${phase}|${file}|${step}`;
    if (key === lastKey) return;
    lastKey = key;
    notify(onProgress, { phase, file, loaded, total, percent });
  };
  return {
    callback(event) {
      switch (event.status) {
        case 'initiate':
        case 'download':
          if (!files.has(event.file)) files.set(event.file, { loaded: 0, total: null });
          emit('download', event.file);
          break;
        case 'progress':
          files.set(event.file, { loaded: event.loaded, total: event.total });
          emit('download', event.file);
          break;
        case 'progress_total':
          expected = { loaded: event.loaded, total: event.total };
          break;
        case 'done': {
          const entry = files.get(event.file);
          if (entry && entry.total !== null) entry.loaded = entry.total;
          // After the weights come the ONNX session and the probe run.
          emit(event.file.endsWith('.onnx') ? 'initialize' : 'download', event.file);
          break;
        }
        case 'ready':
          break;
        default: {
          const unknown: never = event;
          void unknown;
        }
      }
    },
    ready() {
      const { loaded, total } = bytes();
      notify(onProgress, {
        phase: 'ready',
        file: null,
        loaded: total ?? loaded,
        total: total ?? loaded,
        percent: 100,
      });
    },
  };
}

/** A failing (or remote, promise-returning) progress listener must not fail the load. */
function notify(onProgress: (progress: ModelLoadProgress) => void, progress: ModelLoadProgress): void {
  try {
    void Promise.resolve(onProgress(progress)).catch(() => undefined);
  } catch {
    // ignored
  }
}

async function retire(hosted: HostedModel): Promise<void> {
  await hosted.tail;
  const embedder = await hosted.ready.catch(() => undefined);
  await embedder?.dispose();
}

function batchSizeOf(config: TransformersEmbedderConfig): number {
  const size = config.batch_size ?? DEFAULT_EMBED_BATCH_SIZE;
  return Number.isInteger(size) && size > 0 ? size : DEFAULT_EMBED_BATCH_SIZE;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Rejects as soon as `signal` aborts; the work itself is left to finish. */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** JSON with sorted keys and without functions, so equal data gives equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (typeof inner === 'function') return undefined;
    if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
      return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return inner;
  });
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
