import { releaseProxy } from 'comlink';
import type { MetonaError, MetonaLoadProgress } from '../../ir';
import { userAbortedError } from '../shared/errors';
import type {
  WebLlmChatRequest,
  WebLlmChunk,
  WebLlmEnginePort,
  ModelDownloadProgress,
  WebLlmCachePort,
  WebLlmProgressReport,
  WebLlmRuntime,
} from './engine-port';
import { mapWebLlmError, modelNotDownloadedError, type EnginePhase } from './map-error';
import { WEBLLM_PROVIDER_ID } from '../../models/model-catalog';
import type { ModelSources } from '../../models/model-sources';

/**
 * The object `llm.worker.ts` exposes through Comlink, and the one unit tests
 * call in-thread: the page's proxy is typed from this class
 * (`RemoteObject<WebLlmWorkerHost>`), never by hand.
 *
 * - Every request names its model; after a worker restart or a switch the
 *   host reloads it from the browser cache, and refuses (MODEL_NOT_FOUND) a
 *   model that was never downloaded instead of silently fetching gigabytes.
 * - Failures come back as data (`Outcome`), as `MetonaError` with code and
 *   `retryable`; the page rebuilds `MetonaProviderError`. Comlink has a single
 *   global "throw" handler, which the core worker's boundary already uses for
 *   `AppError`; a second one would fight it.
 * - Generations and deletions run one at a time (one GPU); downloads run
 *   one at a time beside them; `interrupt` and `cancelDownload` act at once.
 */

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: MetonaError };

export interface ChatCall {
  /** The IR request id: `interrupt` names the call it stops. */
  callId: string;
  modelId: string;
  request: WebLlmChatRequest;
}

export interface ChatResult {
  /** Set when this call had to load the model first. */
  loadDurationMs?: number;
}

export interface CachedModel {
  modelId: string;
  sizeBytes?: number;
}

/** Functions that arrive from the page as Comlink proxies; their results may be promises. */
export type ChunkSink = (chunk: WebLlmChunk) => unknown;
export type ProgressSink = (progress: ModelDownloadProgress) => unknown;
export type LoadProgressSink = (progress: MetonaLoadProgress) => unknown;

/** web-llm's init report (`{progress, timeElapsed, text}`) as the IR's load progress, `progress` kept in 0..1. */
export function toLoadProgress(report: WebLlmProgressReport): MetonaLoadProgress {
  const fraction = Number.isFinite(report.progress) ? Math.min(1, Math.max(0, report.progress)) : 0;
  return { phase: 'loading', progress: fraction, text: (report.text ?? '').replace(/\s+/g, ' ').trim() };
}

export interface WebLlmWorkerHostOptions {
  /** Builds the engine on first use (the worker imports web-llm here). */
  load: () => Promise<WebLlmRuntime>;
  /** The model files in the browser cache: listing, deleting and downloading need no engine. */
  cache: WebLlmCachePort;
  /** Milliseconds, for load durations. */
  now?: () => number;
  /** Applies new model sources (mirrors) to the cache and the engine. */
  setSources?: (sources: ModelSources) => void;
}

interface PendingDownload {
  modelId: string;
  controller: AbortController;
  keepPartial: boolean;
}

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const failed = <T>(error: MetonaError): Outcome<T> => ({ ok: false, error });
const aborted = <T>(): Outcome<T> => failed(userAbortedError(WEBLLM_PROVIDER_ID));
const noProgress = () => undefined;

/** A callback that came through Comlink holds a MessagePort until released; a local one has nothing to release. */
function release(callback: unknown): void {
  (callback as { [releaseProxy]?: () => void })[releaseProxy]?.();
}

export class WebLlmWorkerHost {
  readonly #options: WebLlmWorkerHostOptions;
  #runtime: Promise<WebLlmRuntime> | undefined;
  #loadedModelId: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #pendingCalls = new Map<string, { cancelled: boolean }>();
  #activeCall: string | undefined;
  /** The call whose model is loading: a Stop then aborts the load (`unload()`), not a generation. */
  #loadingCall: string | undefined;
  readonly #downloads = new Set<PendingDownload>();
  #downloadQueue: Promise<unknown> = Promise.resolve();

  constructor(options: WebLlmWorkerHostOptions) {
    this.#options = options;
  }

  /**
   * Streams one completion into `onChunk`; resolves when the engine's stream
   * has ended. When the model must be loaded first, web-llm's init reports go
   * to `onLoadProgress` before any chunk.
   */
  async chat(
    call: ChatCall,
    onChunk: ChunkSink,
    onLoadProgress?: LoadProgressSink,
  ): Promise<Outcome<ChatResult>> {
    const state = { cancelled: false };
    this.#pendingCalls.set(call.callId, state);
    try {
      return await this.#exclusive(() => this.#chat(call, onChunk, state, onLoadProgress));
    } finally {
      this.#pendingCalls.delete(call.callId);
      release(onChunk);
      if (onLoadProgress) release(onLoadProgress);
    }
  }

  /**
   * Stops that call: a skip when it waits; while its model loads, web-llm's
   * `unload()`, which aborts the load (the user stopped a 10–60 s wait, and
   * the GPU and the queue are freed); `interruptGenerate()` when it generates.
   */
  async interrupt(callId: string): Promise<void> {
    const state = this.#pendingCalls.get(callId);
    if (!state) return;
    state.cancelled = true;
    if (this.#activeCall !== callId || !this.#runtime) return;
    const { engine } = await this.#runtime;
    if (this.#loadingCall === callId) await engine.unload();
    else engine.interruptGenerate();
  }

  /**
   * Downloads a model's files into web-llm's browser cache with byte progress.
   * No GPU is needed: the model is loaded on its first chat. Downloads queue
   * behind each other, not behind chats.
   */
  async download(modelId: string, onProgress: ProgressSink): Promise<Outcome<{ bytes: number }>> {
    const download: PendingDownload = { modelId, controller: new AbortController(), keepPartial: false };
    this.#downloads.add(download);
    try {
      const run = this.#downloadQueue.then(() => this.#download(download, onProgress));
      this.#downloadQueue = run.catch(() => undefined);
      return await run;
    } finally {
      this.#downloads.delete(download);
      release(onProgress);
    }
  }

  /**
   * Aborts the model's download (its pending fetch stops at once). Files
   * already saved are then deleted, unless `keepPartial`: cached files are
   * skipped, so keeping them makes the next download resume.
   */
  async cancelDownload(modelId: string, options: { keepPartial?: boolean } = {}): Promise<void> {
    for (const download of this.#downloads) {
      if (download.modelId !== modelId) continue;
      download.keepPartial = options.keepPartial ?? false;
      download.controller.abort(new DOMException('The download was cancelled.', 'AbortError'));
    }
  }

  async listCached(modelIds: string[]): Promise<Outcome<CachedModel[]>> {
    try {
      const cache = this.#options.cache;
      const found: CachedModel[] = [];
      for (const modelId of modelIds) {
        if (!(await cache.has(modelId))) continue;
        const sizeBytes = await cache.sizeBytes(modelId);
        found.push({ modelId, ...(sizeBytes !== undefined && { sizeBytes }) });
      }
      return ok(found);
    } catch (error) {
      return failed(mapWebLlmError(error, { phase: 'cache' }));
    }
  }

  async deleteCached(modelId: string): Promise<Outcome<void>> {
    return this.#exclusive(async () => {
      try {
        if (this.#loadedModelId === modelId && this.#runtime) {
          this.#loadedModelId = undefined;
          await (await this.#runtime).engine.unload();
        }
        await this.#options.cache.delete(modelId);
        return ok(undefined);
      } catch (error) {
        return failed(mapWebLlmError(error, { modelId, phase: 'cache' }));
      }
    });
  }

  /** Where models are downloaded from from now on; cached models stay where they were fetched from. */
  async setSources(sources: ModelSources): Promise<void> {
    this.#options.setSources?.(sources);
  }

  async loadedModel(): Promise<string | null> {
    return this.#loadedModelId ?? null;
  }

  /** Frees the GPU (the tab goes to the background, the user switches to a remote provider). */
  async unload(): Promise<void> {
    await this.#exclusive(async () => {
      if (!this.#runtime) return;
      this.#loadedModelId = undefined;
      await (await this.#runtime).engine.unload();
    });
  }

  async #chat(
    call: ChatCall,
    onChunk: ChunkSink,
    state: { cancelled: boolean },
    onLoadProgress: LoadProgressSink | undefined,
  ): Promise<Outcome<ChatResult>> {
    if (state.cancelled) return aborted();
    this.#activeCall = call.callId;
    let phase: EnginePhase = 'load';
    try {
      const report = (progress: MetonaLoadProgress) => {
        // A page that went away must not fail the load.
        if (onLoadProgress) void Promise.resolve(onLoadProgress(progress)).catch(noProgress);
      };
      const mustLoad = this.#loadedModelId !== call.modelId;
      if (mustLoad) {
        if (!(await this.#options.cache.has(call.modelId)))
          return failed(modelNotDownloadedError(call.modelId));
        // At once: importing web-llm and compiling the model library come before its first report.
        report({ phase: 'loading', progress: 0, text: 'Starting to load the model' });
      }
      const { engine } = await this.#runtimeOnce();
      if (state.cancelled) return aborted(); // stopped while the library was imported
      let loadDurationMs: number | undefined;
      if (mustLoad) {
        const started = this.#now();
        engine.setInitProgressCallback((webllmReport) => report(toLoadProgress(webllmReport)));
        this.#loadingCall = call.callId;
        try {
          await this.#reload(engine, call.modelId);
        } finally {
          this.#loadingCall = undefined;
          engine.setInitProgressCallback(noProgress);
        }
        loadDurationMs = this.#now() - started;
        if (state.cancelled) return aborted();
      }
      phase = 'generate';
      const stream = await engine.chat.completions.create({
        ...call.request,
        model: call.modelId,
        stream: true,
      });
      let sinkBroken = false;
      for await (const chunk of stream) {
        if (sinkBroken) continue; // drain: web-llm releases its lock at the end of the stream
        try {
          await onChunk(chunk);
        } catch {
          // The page is gone (tab closed, proxy released): stop spending the GPU on it.
          sinkBroken = true;
          engine.interruptGenerate();
        }
      }
      if (sinkBroken || state.cancelled) return aborted();
      return ok(loadDurationMs === undefined ? {} : { loadDurationMs });
    } catch (error) {
      if (state.cancelled && phase === 'load') {
        this.#loadedModelId = undefined;
        return aborted(); // the load was aborted by the Stop, not broken
      }
      const mapped = mapWebLlmError(error, { modelId: call.modelId, phase });
      if (phase === 'load' || mapped.providerCode === 'device_lost') this.#loadedModelId = undefined;
      return failed(mapped);
    } finally {
      this.#activeCall = undefined;
    }
  }

  async #download(download: PendingDownload, onProgress: ProgressSink): Promise<Outcome<{ bytes: number }>> {
    const { modelId, controller } = download;
    if (controller.signal.aborted) return aborted();
    const cache = this.#options.cache;
    try {
      const result = await cache.download(modelId, {
        signal: controller.signal,
        onProgress: (progress) => void Promise.resolve(onProgress(progress)).catch(() => undefined),
      });
      // Finished before the cancel could stop it: the files are complete, so keep them.
      if (controller.signal.aborted) return aborted();
      return ok(result);
    } catch (error) {
      if (!controller.signal.aborted) {
        // A failed download leaves nothing half-written behind.
        await cache.delete(modelId).catch(() => undefined);
        return failed(mapWebLlmError(error, { modelId, phase: 'load' }));
      }
      if (!download.keepPartial) await cache.delete(modelId).catch(() => undefined);
      return aborted();
    }
  }

  async #reload(engine: WebLlmEnginePort, modelId: string): Promise<void> {
    this.#loadedModelId = undefined;
    await engine.reload(modelId);
    this.#loadedModelId = modelId;
  }

  #runtimeOnce(): Promise<WebLlmRuntime> {
    this.#runtime ??= this.#options.load().catch((error: unknown) => {
      this.#runtime = undefined; // a failed import (offline first use) is retried next time
      throw error;
    });
    return this.#runtime;
  }

  #exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #now(): number {
    return this.#options.now?.() ?? performance.now();
  }
}
