import { AppError, isAbortError } from '../../contracts/errors';
import { raceAbort } from '../../core/abort';
import {
  configureEnvironment,
  defaultRuntimeProbe,
  dtypeSlot,
  loadOnFirstDevice,
  withoutGpu,
  type TransformersSource,
} from '../../models/transformers';
import type {
  AsrChunk,
  AsrEngine,
  AsrLoadOptions,
  AsrLoadProgress,
  AsrTranscribeOptions,
  AsrWindowResult,
} from '../asr-engine';
import { watchFetchedFiles } from './fetched-files';
import type { AsrDtype, AsrProfile } from '../asr-models';
import {
  loadTransformers,
  type AsrPipeline,
  type AsrPipelineChunk,
  type LogitsProcessorFunction,
  type TransformersAsrLibrary,
  type TransformersDevice,
  type TransformersEnvLike,
  type TransformersProgressInfo,
} from './transformers-library';

/**
 * Whisper through transformers.js' `automatic-speech-recognition` pipeline.
 *
 * - transformers.js is imported on the first load (never at module top level).
 * - Device: WebGPU when an adapter is available, else WASM; in Node the CPU
 *   back end (onnxruntime-node). The profile picks the dtype per back end (CPU
 *   uses the WASM dtype). A WebGPU load that fails is retried once on WASM.
 * - Load progress is transformers.js' `progress_callback`, passed on as
 *   `AsrLoadProgress` (the job turns it into `ModelLoading` events).
 * - Each window: `return_timestamps: true` (phrases); with word timestamps a
 *   second pass with `'word'` (the pipeline gives one or the other per call;
 *   greedy decoding makes both passes decode the same tokens).
 * - Language: the requested one, passed as `language` with `task: 'transcribe'`;
 *   null = detected here the way Whisper does it (one decoder step after
 *   `<|startoftranscript|>`, restricted to the language tokens), because the
 *   pipeline itself does not detect: it falls back to English.
 * - Cancellation: transformers.js takes no AbortSignal and cannot stop a
 *   running ONNX session call. The engine checks the signal before and after
 *   each call and from a logits processor at every decoding step (throwing
 *   there ends `generate()`), so an abort lands within one decoder step, or
 *   after the window's encoder pass, well within a window. A load cannot be
 *   stopped: an aborted load() rejects at once and the download finishes in the
 *   background (its pipeline is kept for the next load of the same profile).
 * - Errors: loading → TRANSCRIPTION_MODEL_UNAVAILABLE, decoding →
 *   TRANSCRIPTION_FAILED, both with a message a person can act on; the
 *   library's own text stays in `cause` (never in the message or details,
 *   which users see); aborts stay AbortErrors.
 */

export interface TransformersAsrEnvironment {
  /** Where model folders (`<model_id>/...`) are read first: a URL path in the browser ("/models/"), a directory in Node. */
  localModelPath?: string;
  /** Default true. */
  allowLocalModels?: boolean;
  /** Whether files missing locally may be downloaded (from `remoteHost`). Default: transformers.js' (true). */
  allowRemoteModels?: boolean;
  /** Hub or mirror to download from, e.g. "https://huggingface.co/". */
  remoteHost?: string;
  /**
   * Where onnxruntime-web's files are served from (the app's own copy, for
   * offline use): a URL prefix for both, or the `.wasm` file's URL (the glue
   * code is bundled with transformers.js).
   */
  wasmPaths?: string | { wasm: string; mjs?: string };
  /** Browser: keep downloaded files in the Cache API. */
  useBrowserCache?: boolean;
  /** Node: a directory for downloaded files. */
  cacheDir?: string;
}

export interface TransformersAsrEngineOptions {
  environment?: TransformersAsrEnvironment;
  /** Force a back end; default: webgpu when available, else wasm (cpu in Node). */
  device?: TransformersDevice;
  /** Whether to use WebGPU. Default: `navigator.gpu.requestAdapter()` returns an adapter. */
  hasWebGpu?: () => Promise<boolean>;
  /** Default: the lazy import of transformers.js. Tests hand in a double. */
  loadLibrary?: () => Promise<TransformersAsrLibrary>;
  /** Default true: detect the language of a window when none is requested. */
  detectLanguage?: boolean;
}

interface LoadedModel {
  key: string;
  profile: AsrProfile;
  device: TransformersDevice;
  dtype: AsrDtype;
  pipeline: AsrPipeline;
}

/** Points transformers.js at the model source (shared by every model the worker loads). */
export function applyEnvironment(env: TransformersEnvLike, environment: TransformersAsrEnvironment): void {
  configureEnvironment(env, asrSource(environment));
}

/** The speech models' settings as the shared transformers.js source. */
function asrSource(environment: TransformersAsrEnvironment): TransformersSource {
  const source: TransformersSource = { allow_local_models: environment.allowLocalModels ?? true };
  if (environment.localModelPath !== undefined) source.local_model_path = environment.localModelPath;
  if (environment.allowRemoteModels !== undefined) source.allow_remote_models = environment.allowRemoteModels;
  if (environment.remoteHost !== undefined) source.remote_host = environment.remoteHost;
  if (environment.wasmPaths !== undefined) source.wasm_paths = environment.wasmPaths;
  if (environment.useBrowserCache !== undefined) source.use_cache = environment.useBrowserCache;
  if (environment.cacheDir !== undefined) source.cache_dir = environment.cacheDir;
  return source;
}

/** Whisper's language when a model is English-only or detection is off (what transformers.js assumes). */
const FALLBACK_LANGUAGE = 'en';

export class TransformersAsrEngine implements AsrEngine {
  readonly #options: TransformersAsrEngineOptions;
  #library: Promise<TransformersAsrLibrary> | null = null;
  #loaded: LoadedModel | null = null;
  /** In-flight loads by key, so concurrent and aborted-then-retried loads share one download. */
  readonly #loading = new Map<string, Promise<LoadedModel>>();
  /** Calls run one at a time: one model, one ONNX session set. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: TransformersAsrEngineOptions = {}) {
    this.#options = options;
  }

  /** What is loaded now (model, device, dtype), for diagnostics and tests. */
  get loaded(): { model_id: string; profile_id: string; device: TransformersDevice; dtype: AsrDtype } | null {
    const loaded = this.#loaded;
    return loaded
      ? {
          model_id: loaded.profile.model_id,
          profile_id: loaded.profile.profile_id,
          device: loaded.device,
          dtype: loaded.dtype,
        }
      : null;
  }

  async load(profile: AsrProfile, { signal, onProgress }: AsrLoadOptions): Promise<void> {
    signal.throwIfAborted();
    let live = true;
    const report = (progress: AsrLoadProgress) => {
      if (live) onProgress?.(progress);
    };
    try {
      await raceAbort(
        this.#serial(() => this.#ensureLoaded(profile, report)),
        signal,
      );
    } finally {
      // An aborted load keeps downloading in the background; its progress is no one's business now.
      live = false;
    }
  }

  async transcribeWindow(samples: Float32Array, options: AsrTranscribeOptions): Promise<AsrWindowResult> {
    const { signal } = options;
    signal.throwIfAborted();
    return this.#serial(async () => {
      signal.throwIfAborted();
      const loaded = this.#loaded;
      if (!loaded) {
        throw new AppError(
          'TRANSCRIPTION_MODEL_UNAVAILABLE',
          'The speech recognition model is not loaded yet.',
        );
      }
      try {
        return await this.#transcribe(loaded, samples, options);
      } catch (error) {
        signal.throwIfAborted();
        if (isAbortError(error) || error instanceof AppError) throw error;
        throw new AppError(
          'TRANSCRIPTION_FAILED',
          `Speech recognition failed on this part of the audio (${describeDevice(loaded.device)}).`,
          { model_id: loaded.profile.model_id, device: loaded.device },
          { cause: error },
        );
      }
    });
  }

  /** Frees the loaded model (ONNX sessions, GPU buffers). */
  async dispose(): Promise<void> {
    await this.#serial(async () => {
      const loaded = this.#loaded;
      this.#loaded = null;
      await loaded?.pipeline.dispose();
    });
  }

  // -------------------------------------------------------------------------

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #ensureLoaded(profile: AsrProfile, report: (progress: AsrLoadProgress) => void): Promise<void> {
    const current = this.#loaded;
    // Whatever device the model ended up on (after a WebGPU fallback too) serves the same profile.
    if (current && loadKey(profile, current.device) === current.key) {
      this.#loaded = { ...current, profile };
      report({ status: 'ready' });
      return;
    }
    const device = await this.#pickDevice();
    const key = loadKey(profile, device);
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#loadPipeline(profile, device, report).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    const loaded = await loading;
    if (this.#loaded && this.#loaded.key !== loaded.key) {
      // Another model was loaded: free it (the worker holds one model at a time).
      await this.#loaded.pipeline.dispose().catch(() => undefined);
    }
    this.#loaded = { ...loaded, profile };
  }

  async #loadPipeline(
    profile: AsrProfile,
    device: TransformersDevice,
    report: (progress: AsrLoadProgress) => void,
  ): Promise<LoadedModel> {
    let library: TransformersAsrLibrary;
    try {
      library = await this.#libraryOnce();
    } catch (error) {
      this.#library = null;
      throw new AppError(
        'TRANSCRIPTION_MODEL_UNAVAILABLE',
        'The speech recognition runtime (transformers.js) could not be loaded.',
        { profile_id: profile.profile_id, model_id: profile.model_id },
        { cause: error },
      );
    }
    this.#configure(library);
    const fetched = watchFetchedFiles(library.env);
    fetched.reset();
    const attempt = async (target: TransformersDevice): Promise<LoadedModel> => {
      const dtype = profile.dtype[dtypeSlot(target)];
      const pipeline = await library.pipeline('automatic-speech-recognition', profile.model_id, {
        device: target,
        dtype,
        progress_callback: (info) => {
          const progress = toLoadProgress(info);
          if (!progress) return;
          // transformers.js fetches a file before it reports `download`, so this is known here.
          if (progress.status === 'download' && progress.file !== undefined) {
            progress.source = fetched.fetched(progress.file) ? 'network' : 'device';
          }
          report(progress);
        },
      });
      return { key: loadKey(profile, target), profile, device: target, dtype, pipeline };
    };
    // WebGPU present but unusable for this model (limits, driver): WASM (CPU in Node) still works.
    const devices = device === 'webgpu' ? [device, withoutGpu()] : [device];
    return loadOnFirstDevice(
      devices,
      (target) =>
        attempt(target).catch((error: unknown) => Promise.reject(loadError(profile, target, error))),
      (error) => !isMissingFiles((error as AppError).cause),
    );
  }

  #libraryOnce(): Promise<TransformersAsrLibrary> {
    this.#library ??= (this.#options.loadLibrary ?? loadTransformers)();
    return this.#library;
  }

  #configure(library: TransformersAsrLibrary): void {
    applyEnvironment(library.env, this.#options.environment ?? {});
  }

  async #pickDevice(): Promise<TransformersDevice> {
    if (this.#options.device) return this.#options.device;
    const probe = this.#options.hasWebGpu ?? defaultRuntimeProbe.hasWebGpu;
    return (await probe().catch(() => false)) ? 'webgpu' : withoutGpu();
  }

  async #transcribe(
    loaded: LoadedModel,
    samples: Float32Array,
    options: AsrTranscribeOptions,
  ): Promise<AsrWindowResult> {
    const { signal } = options;
    const { pipeline } = loaded;
    const config = pipeline.model.generation_config ?? {};
    const multilingual = config.is_multilingual !== false;
    let language = options.language === null ? null : normalizeLanguage(options.language);
    if (!multilingual) language = FALLBACK_LANGUAGE;
    if (samples.length === 0) return { language: language ?? FALLBACK_LANGUAGE, chunks: [] };
    if (language === null) {
      language =
        this.#options.detectLanguage === false
          ? FALLBACK_LANGUAGE
          : await detectLanguage(pipeline, samples, signal);
      signal.throwIfAborted();
    }
    const base = multilingual ? { language, task: 'transcribe' as const } : {};

    const phrases = await pipeline(samples, {
      ...base,
      return_timestamps: true,
      logits_processor: [abortCheck(signal)],
    });
    signal.throwIfAborted();
    const result: AsrWindowResult = { language, chunks: toChunks(phrases.chunks) };
    if (options.wordTimestamps) {
      const words = await pipeline(samples, {
        ...base,
        return_timestamps: 'word',
        logits_processor: [abortCheck(signal)],
      });
      signal.throwIfAborted();
      result.words = toChunks(words.chunks);
    }
    return result;
  }
}

/**
 * Whisper's language detection: encode the window, run one decoder step from
 * `<|startoftranscript|>` with every token but the language tokens masked, and
 * read the language token it picks. Costs one extra encoder pass per window.
 */
async function detectLanguage(
  pipeline: AsrPipeline,
  samples: Float32Array,
  signal: AbortSignal,
): Promise<string> {
  const config = pipeline.model.generation_config;
  const languages = Object.entries(config?.lang_to_id ?? {});
  const start = config?.decoder_start_token_id;
  if (languages.length === 0 || start === null || start === undefined) return FALLBACK_LANGUAGE;
  const allowed = new Set(languages.map(([, id]) => id));
  const onlyLanguages: LogitsProcessorFunction = (_inputIds, logits) => {
    signal.throwIfAborted();
    const vocab = logits.dims.at(-1) ?? logits.data.length;
    for (let index = 0; index < logits.data.length; index++) {
      if (!allowed.has(index % vocab)) logits.data[index] = Number.NEGATIVE_INFINITY;
    }
    return logits;
  };
  const { input_features } = await pipeline.processor(samples);
  signal.throwIfAborted();
  const output = (await pipeline.model.generate({
    inputs: input_features,
    decoder_input_ids: [start],
    max_new_tokens: 1,
    logits_processor: [onlyLanguages],
  })) as { tolist(): unknown[][] };
  const token = Number(output.tolist()[0]?.at(-1));
  const found = languages.find(([, id]) => id === token)?.[0];
  return found ? found.slice(2, -2) : FALLBACK_LANGUAGE;
}

/** A logits processor that ends generation when the signal aborts (checked once per decoding step). */
function abortCheck(signal: AbortSignal): LogitsProcessorFunction {
  return (_inputIds, logits) => {
    signal.throwIfAborted();
    return logits;
  };
}

/** "en-US" → "en", "English" → "english" (transformers.js maps names to codes itself). */
function normalizeLanguage(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] ?? language.toLowerCase();
}

function toChunks(chunks: AsrPipelineChunk[] | undefined): AsrChunk[] {
  return (chunks ?? []).map((chunk) => ({
    text: chunk.text,
    timestamp: [chunk.timestamp[0] ?? 0, chunk.timestamp[1] ?? null],
  }));
}

function toLoadProgress(info: TransformersProgressInfo): AsrLoadProgress | undefined {
  if (info.status === 'progress_total') return undefined; // the job sums per-file progress itself
  const progress: AsrLoadProgress = { status: info.status };
  if (info.file !== undefined) progress.file = info.file;
  if (info.loaded !== undefined) progress.loaded = info.loaded;
  if (info.total !== undefined) progress.total = info.total;
  if (info.progress !== undefined) progress.progress = info.progress;
  return progress;
}

function loadKey(profile: AsrProfile, device: TransformersDevice): string {
  return `${profile.model_id}|${device}|${profile.dtype[dtypeSlot(device)]}`;
}

/**
 * transformers.js reports missing files as `ModelFileNotFoundError` ("... was
 * not found locally at ..."), or "Could not locate file" from the hub, and
 * network failures as a TypeError "Failed to fetch" / "fetch failed".
 */
export function isMissingFiles(error: unknown): boolean {
  if (error instanceof Error && error.name === 'ModelFileNotFoundError') return true;
  const reason = reasonOf(error);
  return /could not locate file|not found|404|failed to fetch|fetch failed|local model|remote models/i.test(
    reason,
  );
}

function loadError(profile: AsrProfile, device: TransformersDevice, error: unknown): AppError {
  const details = {
    profile_id: profile.profile_id,
    model_id: profile.model_id,
    device,
    dtype: profile.dtype[dtypeSlot(device)],
  };
  const message = isMissingFiles(error)
    ? `The speech recognition model "${profile.model_id}" is not available: its files are not on this device and could not be downloaded.`
    : `The speech recognition model "${profile.model_id}" could not be started (${describeDevice(device)}).`;
  return new AppError('TRANSCRIPTION_MODEL_UNAVAILABLE', message, details, { cause: error });
}

function describeDevice(device: TransformersDevice): string {
  return device === 'webgpu' ? 'WebGPU' : device === 'wasm' ? 'WebAssembly' : 'CPU';
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
