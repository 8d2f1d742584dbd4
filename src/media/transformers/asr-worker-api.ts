import { AppError, isAbortError } from '../../contracts/errors';
import type { AsrEngine, AsrLoadProgress, AsrWindowResult, Diarizer, SpeakerTurn } from '../asr-engine';
import type { AsrProfile } from '../asr-models';
import type { DiarizationModelInfo } from '../diarization-models';
import { TransformersAsrEngine, type TransformersAsrEnvironment } from './transformers-asr-engine';
import { TransformersDiarizer } from './transformers-diarizer';

/**
 * What the ASR worker (src/workers/asr.worker.ts) exposes, as a plain object:
 * the worker hands it to Comlink, unit tests call it in-thread or over a
 * MessageChannel. Every request carries its model (profile + environment), so
 * a worker the browser killed and restarted reloads the model instead of
 * failing, and a request for another model swaps it. Requests carry an id;
 * `cancel(id)` aborts that request's signal inside the worker (AbortSignals do
 * not cross a worker boundary); the request then rejects with
 * TRANSCRIPTION_CANCELLED (the page-side client rejects with its own abort
 * reason at once anyway).
 */

export interface AsrModelSpec {
  profile: AsrProfile;
  /** Where models and runtime files come from (paths, remote host, WASM files). */
  environment?: TransformersAsrEnvironment;
}

/** A diarization model and where its files come from (the same source rules as Whisper's). */
export interface DiarizerSpec {
  model: DiarizationModelInfo;
  environment?: TransformersAsrEnvironment;
}

export interface AsrWindowRequest {
  language: string | null;
  wordTimestamps: boolean;
}

export interface AsrWorkerApiOptions {
  /** Default: a TransformersAsrEngine for the environment. */
  createEngine?: (environment: TransformersAsrEnvironment) => AsrEngine & { dispose?(): Promise<void> };
  /** Default: a TransformersDiarizer for the spec. */
  createDiarizer?: (spec: DiarizerSpec) => Diarizer & { dispose?(): Promise<void> };
}

export function createAsrWorkerApi(options: AsrWorkerApiOptions = {}) {
  const createEngine =
    options.createEngine ??
    ((environment: TransformersAsrEnvironment) => new TransformersAsrEngine({ environment }));
  const createDiarizer =
    options.createDiarizer ??
    ((spec: DiarizerSpec) =>
      new TransformersDiarizer({
        model: spec.model,
        ...(spec.environment ? { environment: spec.environment } : {}),
      }));
  const running = new Map<string, AbortController>();
  let diarizer: { key: string; diarizer: Diarizer & { dispose?(): Promise<void> } } | null = null;
  let current: { key: string; engine: AsrEngine & { dispose?(): Promise<void> } } | null = null;

  /** The engine for the request's environment; a changed environment replaces (and frees) the old one. */
  async function engineFor(spec: AsrModelSpec) {
    const environment = spec.environment ?? {};
    const key = JSON.stringify(environment, Object.keys(environment).sort());
    if (current?.key !== key) {
      await current?.engine.dispose?.().catch(() => undefined);
      current = { key, engine: createEngine(environment) };
    }
    return current.engine;
  }

  /** The diarizer for the spec, kept (with its model) until another model or source is asked for. */
  async function diarizerFor(spec: DiarizerSpec) {
    const environment = spec.environment ?? {};
    const key = `${JSON.stringify(spec.model)}|${JSON.stringify(environment, Object.keys(environment).sort())}`;
    if (diarizer?.key !== key) {
      await diarizer?.diarizer.dispose?.().catch(() => undefined);
      diarizer = { key, diarizer: createDiarizer(spec) };
    }
    return diarizer.diarizer;
  }

  async function withRequest<T>(requestId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (running.has(requestId)) throw new Error(`request ${requestId} is already running`);
    const controller = new AbortController();
    running.set(requestId, controller);
    try {
      return await work(controller.signal);
    } catch (error) {
      // A cancelled request answers with the contract's code (an AppError crosses the worker boundary intact).
      if (controller.signal.aborted && isAbortError(error)) {
        throw new AppError('TRANSCRIPTION_CANCELLED', 'The transcription was cancelled.', {
          request_id: requestId,
        });
      }
      throw error;
    } finally {
      running.delete(requestId);
    }
  }

  return {
    /**
     * Loads (or keeps) the model. Progress callbacks may be remote (a Comlink
     * proxy): each call's completion is awaited before load resolves, so every
     * progress update reaches the page before the load's result does.
     */
    async load(
      spec: AsrModelSpec,
      requestId: string,
      onProgress?: (progress: AsrLoadProgress) => unknown,
    ): Promise<void> {
      await withRequest(requestId, async (signal) => {
        const delivered: Array<Promise<unknown>> = [];
        const report = onProgress
          ? (progress: AsrLoadProgress) => {
              delivered.push(Promise.resolve(onProgress(progress)).catch(() => undefined));
            }
          : undefined;
        const engine = await engineFor(spec);
        await engine.load(spec.profile, { signal, ...(report ? { onProgress: report } : {}) });
        await Promise.all(delivered);
      });
    },

    /** Transcribes one window, loading the spec's model first when it is not the loaded one. */
    async transcribeWindow(
      spec: AsrModelSpec,
      samples: Float32Array,
      request: AsrWindowRequest,
      requestId: string,
    ): Promise<AsrWindowResult> {
      return withRequest(requestId, async (signal) => {
        const engine = await engineFor(spec);
        await engine.load(spec.profile, { signal });
        return engine.transcribeWindow(samples, { ...request, signal });
      });
    },

    /**
     * Speaker turns over a whole recording (16 kHz mono), loading the spec's
     * model on first use; cancellable between the model's windows.
     */
    async diarize(
      spec: DiarizerSpec,
      samples: Float32Array,
      sampleRate: number,
      requestId: string,
    ): Promise<SpeakerTurn[]> {
      return withRequest(requestId, async (signal) =>
        (await diarizerFor(spec)).diarize(samples, { sampleRate, signal }),
      );
    },

    /** Aborts a running request: it rejects with TRANSCRIPTION_CANCELLED within a decoding step. */
    cancel(requestId: string): boolean {
      const controller = running.get(requestId);
      controller?.abort();
      return controller !== undefined;
    },

    /** Frees the models. */
    async dispose(): Promise<void> {
      for (const controller of running.values()) controller.abort();
      const engine = current?.engine;
      const segmentation = diarizer?.diarizer;
      current = null;
      diarizer = null;
      await segmentation?.dispose?.().catch(() => undefined);
      await engine?.dispose?.();
    },
  };
}

export type AsrWorkerApi = ReturnType<typeof createAsrWorkerApi>;
