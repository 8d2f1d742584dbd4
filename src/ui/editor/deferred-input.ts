export interface DeferredInputOptions {
  /** Hands the editor's text over; reads the whole text, which is why it waits. */
  commit: () => void;
  /** Runs `run` once typing has paused; returns what cancels it. */
  schedule: (run: () => void) => () => void;
}

/**
 * Typing in a large note marks the text changed and hands it over once typing
 * pauses, not on every key: reading megabytes per keystroke is what made such
 * notes freeze. `flush` hands it over at once (a save, a switch, a blur).
 */
export class DeferredInput {
  readonly #options: DeferredInputOptions;
  #dirty = false;
  #cancel: (() => void) | null = null;

  constructor(options: DeferredInputOptions) {
    this.#options = options;
  }

  /** Text typed and not handed over yet. */
  get dirty(): boolean {
    return this.#dirty;
  }

  changed(): void {
    this.#dirty = true;
    this.#cancel?.();
    this.#cancel = this.#options.schedule(() => {
      this.#cancel = null;
      this.flush();
    });
  }

  flush(): void {
    this.#cancel?.();
    this.#cancel = null;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#options.commit();
  }

  /** The text was replaced from outside: what was typed before is not handed over. */
  discard(): void {
    this.#cancel?.();
    this.#cancel = null;
    this.#dirty = false;
  }
}

/** A pause in typing: `quietMs` without a key, then an idle moment (at most `idleTimeoutMs` later). */
export function afterPause(quietMs: number, idleTimeoutMs: number): DeferredInputOptions['schedule'] {
  return (run) => {
    let idle: number | null = null;
    const timer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function')
        idle = requestIdleCallback(run, { timeout: idleTimeoutMs });
      else run();
    }, quietMs);
    return () => {
      clearTimeout(timer);
      if (idle !== null) cancelIdleCallback(idle);
    };
  };
}
