export type ToastKind = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  run: () => void;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  action: ToastAction | null;
  /** The contract's error code behind an error toast (rendered as `data-code`), else null. */
  code: string | null;
}

export interface ShowToastOptions {
  kind?: ToastKind;
  action?: ToastAction;
  /** The contract's error code, for a toast that reports one. */
  code?: string;
  /** 0 keeps the toast until dismissed. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT: Record<ToastKind, number> = { info: 4000, success: 4000, error: 8000 };
const MAX_TOASTS = 5;

/** Transient notifications. Showing a message that is already on screen restarts its timer instead. */
export class ToastState {
  #items = $state.raw<Toast[]>([]);
  #nextId = 1;
  // Bookkeeping only, never rendered: a plain Map on purpose.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #timers = new Map<number, ReturnType<typeof setTimeout>>();

  get items(): readonly Toast[] {
    return this.#items;
  }

  show(message: string, options: ShowToastOptions = {}): number {
    const kind = options.kind ?? 'info';
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT[kind];
    const duplicate = this.#items.find((toast) => toast.message === message && toast.kind === kind);
    const id = duplicate?.id ?? this.#nextId++;
    if (!duplicate) {
      const toast: Toast = { id, kind, message, action: options.action ?? null, code: options.code ?? null };
      const kept = this.#items.slice(-(MAX_TOASTS - 1));
      for (const dropped of this.#items.slice(0, this.#items.length - kept.length))
        this.#clearTimer(dropped.id);
      this.#items = [...kept, toast];
    }
    this.#clearTimer(id);
    if (timeout > 0)
      this.#timers.set(
        id,
        setTimeout(() => this.dismiss(id), timeout),
      );
    return id;
  }

  dismiss(id: number): void {
    this.#clearTimer(id);
    this.#items = this.#items.filter((toast) => toast.id !== id);
  }

  reset(): void {
    for (const id of this.#timers.keys()) this.#clearTimer(id);
    this.#items = [];
    this.#nextId = 1;
  }

  #clearTimer(id: number): void {
    const timer = this.#timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.#timers.delete(id);
  }
}

export const toasts = new ToastState();
