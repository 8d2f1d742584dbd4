import type { JobDto } from '../contracts';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import type { SettingsRepository } from '../db';
import {
  DEFAULT_EMBEDDING_MODEL_SOURCE,
  type EmbeddingDtype,
  type EmbeddingModelSource,
} from '../retrieval/embedding-models';
import type { ModelLoadOptions, ModelLoadProgress } from '../models/transformers';

/**
 * What the embedding model and reranker choices share: a download job with
 * ordered progress that a cancel stops, one download at a time, and a settings
 * row whose writes take turns.
 */

/** Where a transformers.js model runs, as a model-choice service sees it. */
export interface HostedModelEngine<Config, Loaded, Model> {
  /** Downloads (or reads from the cache) and loads the model; progress as it goes. */
  load(config: Config, options?: ModelLoadOptions): Promise<Model>;
  /**
   * A model loaded in an earlier session, without loading it now: the first
   * use loads it (from the browser cache).
   */
  restore(config: Config, loaded: Loaded): Model;
  /**
   * Stops whatever the engine is doing, downloads included (transformers.js
   * cannot abort a download; ending the worker can). The next call starts afresh.
   */
  stop(): void;
}

/**
 * Runs `load` inside a download job: its progress becomes the job's (in order,
 * all written before the job ends) and a cancel calls `stop`, which is how a
 * worker-hosted download is cut off (transformers.js cannot abort one).
 * Rejects with the abort reason when the job was cancelled, even if the load
 * finished, so the caller stores nothing.
 */
export async function loadWithProgress<T>(
  context: JobContext<unknown>,
  stop: () => void,
  load: (options: ModelLoadOptions) => Promise<T>,
): Promise<T> {
  let progress: Promise<void> = context.progress({ phase: 'download', current: 0, total: null });
  const onAbort = (): void => stop();
  context.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const loaded = await load({
      signal: context.signal,
      onProgress: (event) => {
        progress = progress
          .then(() =>
            context.progress({
              phase: event.phase,
              current: event.loaded,
              total: event.total,
              message: progressMessage(event),
            }),
          )
          .catch(() => undefined);
      },
    });
    await progress;
    context.signal.throwIfAborted();
    return loaded;
  } finally {
    context.signal.removeEventListener('abort', onAbort);
    await progress;
  }
}

/** File and megabytes, e.g. `onnx/model_quantized.onnx · 12.5 / 135.0 MB`. */
export function progressMessage(event: ModelLoadProgress): string | null {
  const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);
  const amount =
    event.total !== null ? `${mb(event.loaded)} / ${mb(event.total)} MB` : `${mb(event.loaded)} MB`;
  return event.file ? `${event.file} · ${amount}` : amount;
}

/** The one download of a kind that may be queued or running; a finished job frees the slot. */
export class DownloadSlot {
  readonly #runtime: JobRuntime;
  #jobId: string | null = null;

  constructor(runtime: JobRuntime) {
    this.#runtime = runtime;
  }

  hold(jobId: string): void {
    this.#jobId = jobId;
  }

  /** The job in the slot while it is queued or running, else null. */
  async active(): Promise<string | null> {
    const jobId = this.#jobId;
    if (jobId === null) return null;
    let job: JobDto;
    try {
      job = await this.#runtime.get(jobId);
    } catch {
      return null;
    }
    if (job.status === 'queued' || job.status === 'running') return jobId;
    if (this.#jobId === jobId) this.#jobId = null;
    return null;
  }
}

/** A settings row read through `parse` (defaults for missing fields); writes take turns so none undoes another. */
export class SettingsRecord<T> {
  readonly #settings: SettingsRepository;
  readonly #key: string;
  readonly #parse: (stored: Partial<T> | undefined) => T;
  #writes: Promise<unknown> = Promise.resolve();

  constructor(settings: SettingsRepository, key: string, parse: (stored: Partial<T> | undefined) => T) {
    this.#settings = settings;
    this.#key = key;
    this.#parse = parse;
  }

  async get(): Promise<T> {
    return this.#parse(await this.#settings.get<Partial<T>>(this.#key));
  }

  update(change: (stored: T) => T): Promise<void> {
    const write = this.#writes
      .catch(() => undefined)
      .then(async () => this.#settings.put(this.#key, change(await this.get())));
    this.#writes = write;
    return write;
  }
}

/** What a model download job was created with. */
export function downloadInput(input: { model_id?: unknown; remote_host?: unknown }): {
  modelId: string;
  remoteHost: string | null;
} {
  return {
    modelId: String(input.model_id),
    remoteHost: typeof input.remote_host === 'string' ? input.remote_host : null,
  };
}

/** Where a model's files come from: the defaults, the service's own source, then the host the user chose (null: the default). */
export function modelSource(
  source: Partial<EmbeddingModelSource>,
  remoteHost: string | null,
): EmbeddingModelSource {
  return {
    ...DEFAULT_EMBEDDING_MODEL_SOURCE,
    ...source,
    ...(remoteHost !== null ? { remote_host: remoteHost } : {}),
  };
}

/** The download size shown for a model: its WASM dtype's, else the full-precision one's (MB, approximate). */
export function downloadMb(spec: {
  default_dtype: { wasm: EmbeddingDtype };
  approx_download_mb: Partial<Record<EmbeddingDtype, number>>;
}): number | null {
  return spec.approx_download_mb[spec.default_dtype.wasm] ?? spec.approx_download_mb.fp32 ?? null;
}
