import { abortReason, raceAbort } from '../../core/abort';
import { READY_PROGRESS, type ModelLoadProgress } from './progress';

export interface DisposableModel {
  dispose(): Promise<void>;
}

/** transformers.js keeps its settings in one global `env`: loads in one thread take turns. */
let loadQueue: Promise<unknown> = Promise.resolve();
export function serialiseLoad<T>(task: () => Promise<T>): Promise<T> {
  const run = loadQueue.then(task, task);
  loadQueue = run.catch(() => undefined);
  return run;
}

/**
 * A load the caller may abort: the abort answers at once, and a model that
 * still arrives afterwards is disposed (transformers.js cannot cancel a
 * download; it runs to its end in the background and is then dropped).
 */
export function abandonOnAbort<M extends DisposableModel>(
  loading: Promise<M>,
  signal: AbortSignal | undefined,
): Promise<M> {
  if (!signal) return loading;
  loading.then(
    (model) => {
      if (signal.aborted) void model.dispose();
    },
    () => undefined,
  );
  return raceAbort(loading, signal);
}

/** A model load that waits its turn (`serialiseLoad`) and that the caller may abort (`abandonOnAbort`). */
export function loadInTurn<M extends DisposableModel>(
  signal: AbortSignal | undefined,
  task: () => Promise<M>,
): Promise<M> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return abandonOnAbort(serialiseLoad(task), signal);
}

interface Hosted<M> {
  key: string;
  ready: Promise<M>;
  /** Work on this model runs in order; disposal waits for it. */
  tail: Promise<unknown>;
}

/**
 * Keeps one loaded model and reloads when a request names another: what a
 * model worker hosts. Each request carries the whole config, so a worker the
 * browser killed and restarted picks up where it was. A failed load is
 * forgotten, so the next request tries again.
 */
export class ModelSlot<Config, M extends DisposableModel> {
  #current: Hosted<M> | undefined;
  readonly #load: (config: Config, onProgress?: (progress: ModelLoadProgress) => void) => Promise<M>;
  readonly #key: (config: Config) => string;

  constructor(
    load: (config: Config, onProgress?: (progress: ModelLoadProgress) => void) => Promise<M>,
    key: (config: Config) => string,
  ) {
    this.#load = load;
    this.#key = key;
  }

  /** The model for `config`, loading it (and retiring the previous one) when it is not the current one. */
  ready(config: Config, onProgress?: (progress: ModelLoadProgress) => void): Promise<M> {
    return this.#use(config, onProgress).ready;
  }

  /** Runs `work` on the model for `config`, after the work already queued on it. */
  run<T>(config: Config, work: (model: M) => Promise<T>): Promise<T> {
    const hosted = this.#use(config);
    const run = hosted.tail.then(async () => work(await hosted.ready));
    hosted.tail = run.catch(() => undefined);
    return run;
  }

  async unload(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    if (current) await retire(current);
  }

  #use(config: Config, onProgress?: (progress: ModelLoadProgress) => void): Hosted<M> {
    const key = this.#key(config);
    const current = this.#current;
    if (current?.key === key) {
      if (onProgress) {
        // Already loading or loaded: report the end, so a second caller's job completes too.
        void current.ready.then(
          () => onProgress({ ...READY_PROGRESS }),
          () => undefined,
        );
      }
      return current;
    }
    const ready = this.#load(config, onProgress);
    const hosted: Hosted<M> = { key, ready, tail: ready.catch(() => undefined) };
    this.#current = hosted;
    ready.catch(() => {
      if (this.#current === hosted) this.#current = undefined;
    });
    if (current) void retire(current);
    return hosted;
  }
}

async function retire<M extends DisposableModel>(hosted: Hosted<M>): Promise<void> {
  await hosted.tail;
  const model = await hosted.ready.catch(() => undefined);
  await model?.dispose();
}
