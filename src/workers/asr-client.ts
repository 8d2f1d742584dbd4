import * as Comlink from 'comlink';
import './transfer-handlers';
import { AppError } from '../contracts/errors';
import type {
  AsrEngine,
  AsrLoadOptions,
  AsrTranscribeOptions,
  AsrWindowResult,
  Diarizer,
} from '../media/asr-engine';
import type { AsrProfile } from '../media/asr-models';
import type { DiarizationModelInfo } from '../media/diarization-models';
import type { TransformersAsrEnvironment } from '../media/transformers/transformers-asr-engine';
import type { AsrWorkerRemoteApi } from './asr.worker';

/**
 * The page side of the ASR worker: an `AsrEngine`, so the transcription job
 * runs the same against the in-thread engine (tests) and the worker (app).
 *
 * - Every request carries the model (profile + environment): a worker that was
 *   killed comes back and reloads instead of failing.
 * - Progress callbacks cross as Comlink proxies; window samples are copied and
 *   their copy transferred (a window is a view into the whole recording, whose
 *   buffer must stay with the page).
 * - Abort: the request rejects at once and the worker is told to cancel; it
 *   stops within a decoding step. A worker still busy `cancelGraceMs` later
 *   (stuck in one long ONNX call) is terminated, and the next request starts a
 *   fresh one, so cancelling always frees the worker.
 */

export interface AsrWorkerConnection {
  remote: Comlink.Remote<AsrWorkerRemoteApi>;
  terminate(): void;
}

export interface AsrWorkerClientOptions {
  environment?: TransformersAsrEnvironment;
  /** Default: a module worker running ./asr.worker.ts. Tests link one over a MessageChannel. */
  connect?: () => AsrWorkerConnection;
  /** Default 3000 ms. */
  cancelGraceMs?: number;
}

export function connectAsrWorker(): AsrWorkerConnection {
  const worker = new Worker(new URL('./asr.worker.ts', import.meta.url), { type: 'module', name: 'asr' });
  const remote = Comlink.wrap<AsrWorkerRemoteApi>(worker);
  return {
    remote,
    terminate() {
      remote[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

export class AsrWorkerClient implements AsrEngine {
  readonly #options: AsrWorkerClientOptions;
  #connection: AsrWorkerConnection | null = null;
  #profile: AsrProfile | null = null;
  #sequence = 0;
  /** Workers replaced after a cancel they did not honour in time (diagnostics, tests). */
  restarts = 0;

  constructor(options: AsrWorkerClientOptions = {}) {
    this.#options = options;
  }

  async load(profile: AsrProfile, { signal, onProgress }: AsrLoadOptions): Promise<void> {
    signal.throwIfAborted();
    this.#profile = profile;
    const spec = this.#spec(profile);
    const callback = onProgress ? Comlink.proxy(onProgress) : undefined;
    await this.#request(signal, (remote, id) => remote.load(spec, id, callback));
  }

  async transcribeWindow(samples: Float32Array, options: AsrTranscribeOptions): Promise<AsrWindowResult> {
    const { signal, language, wordTimestamps } = options;
    signal.throwIfAborted();
    const profile = this.#profile;
    if (!profile) {
      throw new AppError(
        'TRANSCRIPTION_MODEL_UNAVAILABLE',
        'The speech recognition model is not loaded yet.',
      );
    }
    const spec = this.#spec(profile);
    return this.#request(signal, (remote, id) => {
      const copy = samples.slice();
      return remote.transcribeWindow(
        spec,
        Comlink.transfer(copy, [copy.buffer]),
        { language, wordTimestamps },
        id,
      );
    });
  }

  /**
   * A diarizer that runs `model` in the same worker (one worker, one queue:
   * speakers are labelled before the transcription starts), with the same
   * model source and the same cancellation as the windows.
   */
  diarizer(model: DiarizationModelInfo): Diarizer {
    const spec = this.#options.environment ? { model, environment: this.#options.environment } : { model };
    return {
      profileId: model.model_id,
      diarize: (samples, { sampleRate, signal }) => {
        signal.throwIfAborted();
        return this.#request(signal, (remote, id) => {
          const copy = samples.slice();
          return remote.diarize(spec, Comlink.transfer(copy, [copy.buffer]), sampleRate, id);
        });
      },
    };
  }

  /** Frees the model and ends the worker. */
  async dispose(): Promise<void> {
    const connection = this.#connection;
    this.#connection = null;
    if (!connection) return;
    await connection.remote.dispose().catch(() => undefined);
    connection.terminate();
  }

  #spec(profile: AsrProfile) {
    return this.#options.environment ? { profile, environment: this.#options.environment } : { profile };
  }

  #connect(): AsrWorkerConnection {
    this.#connection ??= (this.#options.connect ?? connectAsrWorker)();
    return this.#connection;
  }

  #request<T>(
    signal: AbortSignal,
    invoke: (remote: Comlink.Remote<AsrWorkerRemoteApi>, requestId: string) => Promise<T>,
  ): Promise<T> {
    const connection = this.#connect();
    const requestId = `asr-${++this.#sequence}`;
    const work = invoke(connection.remote, requestId);
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
        void connection.remote.cancel(requestId).catch(() => undefined);
        const timer = setTimeout(() => {
          if (this.#connection !== connection) return;
          this.#connection = null;
          this.restarts++;
          connection.terminate();
        }, this.#options.cancelGraceMs ?? 3000);
        void work.then(
          () => clearTimeout(timer),
          () => clearTimeout(timer),
        );
      };
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          // After an abort the worker answers JOB_CANCELLED; the caller gets its own abort reason.
          reject(signal.aborted ? (signal.reason as unknown) : error);
        },
      );
    });
  }
}
