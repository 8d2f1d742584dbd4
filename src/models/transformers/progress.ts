import type * as Transformers from '@huggingface/transformers';

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

/** What every transformers.js model load takes: an abort signal and a progress listener. */
export interface ModelLoadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ModelLoadProgress) => void;
}

/** The `ready` a second caller of an already loading (or loaded) model gets, so its job completes too. */
export const READY_PROGRESS: Readonly<ModelLoadProgress> = Object.freeze({
  phase: 'ready',
  file: null,
  loaded: 0,
  total: null,
  percent: 100,
});

export interface ProgressReporter {
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
