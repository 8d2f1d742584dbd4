/**
 * A component whose code is kept out of the shell and fetched the first time it is
 * needed: when the user opens what it shows, or once the page is idle. `current` is null
 * until the code has arrived, and reactive, so `{#if panel.current}` shows it then; an
 * interaction that asked for it before that is kept by the caller (a request in state)
 * and served once it is mounted.
 */
export class LazyComponent<C> {
  #current = $state.raw<C | null>(null);
  #loading: Promise<C> | null = null;
  readonly #load: () => Promise<{ default: C }>;

  constructor(load: () => Promise<{ default: C }>) {
    this.#load = load;
  }

  /** The component once loaded; null before. */
  get current(): C | null {
    return this.#current;
  }

  /** Starts the download once (a later call shares it); a failed one is tried again on the next call. */
  load(): Promise<C> {
    this.#loading ??= this.#load().then(
      (module) => (this.#current = module.default),
      (error: unknown) => {
        this.#loading = null;
        throw error;
      },
    );
    return this.#loading;
  }

  /** `load` for a panel nobody is waiting on: a failure is logged and the panel stays away. */
  preload(): void {
    this.load().catch((error: unknown) => {
      console.error('NotesAgent: a panel failed to load', error);
    });
  }
}
