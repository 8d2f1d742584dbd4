export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';

export interface AutosaverOptions<T> {
  /** Read on every change, so a settings update takes effect at once. */
  delayMs: () => number;
  /** Persists one snapshot; saves never overlap. */
  save: (content: T) => Promise<void>;
  onStateChange?: (state: SaveState) => void;
  onError?: (error: unknown) => void;
}

/**
 * Debounced, serialised saving of the latest snapshot.
 *
 * - `change()` records the newest content and (re)starts the pause timer;
 * - `flush()` saves now; while a save is in flight the newest content waits and
 *   is saved right after it (only the latest snapshot, never an older one);
 * - a failed save keeps its content pending (unless newer content arrived), so
 *   nothing typed is dropped; the next change or flush retries;
 * - `pause()` stops automatic saving (a version conflict the user must resolve).
 */
export class Autosaver<T> {
  readonly #options: AutosaverOptions<T>;
  #pending: T | null = null;
  #running: Promise<void> | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #paused = false;
  #disposed = false;
  #state: SaveState = 'saved';

  constructor(options: AutosaverOptions<T>) {
    this.#options = options;
  }

  get state(): SaveState {
    return this.#state;
  }

  /** True while content waits to be saved or a save is in flight. */
  get busy(): boolean {
    return this.#pending !== null || this.#running !== null;
  }

  get saving(): boolean {
    return this.#running !== null;
  }

  get paused(): boolean {
    return this.#paused;
  }

  change(content: T): void {
    if (this.#disposed) return;
    this.#pending = content;
    if (this.#paused) return;
    this.#setState('unsaved');
    this.#clearTimer();
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, this.#options.delayMs());
  }

  /** The content went back to what is stored: nothing to save unless a save is running. */
  markClean(): void {
    if (this.#disposed || this.#running) return;
    this.#clearTimer();
    this.#pending = null;
    if (!this.#paused) this.#setState('saved');
  }

  /** Saves pending content now. Never rejects: failures go to `onError`. */
  flush(): Promise<void> {
    this.#clearTimer();
    if (this.#running) return this.#running;
    if (this.#pending === null || this.#paused || this.#disposed) return Promise.resolve();
    const running = this.#drain().finally(() => {
      if (this.#running === running) this.#running = null;
    });
    this.#running = running;
    return running;
  }

  pause(): void {
    this.#paused = true;
    this.#clearTimer();
  }

  resume(): void {
    this.#paused = false;
  }

  /** Drops pending content (it stays in the local draft) and stops the timer. */
  dispose(): void {
    this.#disposed = true;
    this.#clearTimer();
    this.#pending = null;
  }

  async #drain(): Promise<void> {
    while (this.#pending !== null && !this.#paused && !this.#disposed) {
      const content = this.#pending;
      this.#pending = null;
      this.#setState('saving');
      try {
        await this.#options.save(content);
      } catch (error) {
        if (!this.#disposed) this.#pending ??= content;
        this.#setState('error');
        this.#options.onError?.(error);
        return;
      }
    }
    if (this.#pending === null) this.#setState('saved');
    else if (!this.#paused) this.#setState('unsaved');
  }

  #clearTimer(): void {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
  }

  #setState(state: SaveState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#options.onStateChange?.(state);
  }
}
