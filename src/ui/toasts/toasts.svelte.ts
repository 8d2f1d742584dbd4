export type ToastKind = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  run: () => void;
  /** An undo: Ctrl/⌘+Z outside a text field runs it too, while the toast offers it. */
  undo?: boolean;
}

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  action: ToastAction | null;
  /** The contract's error code behind an error toast (rendered as `data-code`), else null. */
  code: string | null;
  /** What it is the current word on (ShowToastOptions.key), else null. */
  key: string | null;
}

export interface ShowToastOptions {
  kind?: ToastKind;
  action?: ToastAction;
  /** The contract's error code, for a toast that reports one. */
  code?: string;
  /** 0 keeps the toast until dismissed. */
  timeoutMs?: number;
  /**
   * Toasts that say the current state of one thing (the latest export): a toast shown with the
   * key of one on screen takes its place, so a run of them leaves one toast, not a pile.
   */
  key?: string;
}

const DEFAULT_TIMEOUT: Record<ToastKind, number> = { info: 4000, success: 4000, error: 8000 };
/**
 * A toast with a button stays at least this long (WCAG 2.2.1): a keyboard or screen-reader user
 * needs time to hear it and reach its button; the pointer or the focus on the toasts holds it longer.
 */
export const MIN_ACTION_TIMEOUT_MS = 10_000;
const MAX_TOASTS = 5;
/**
 * A toast let go with less than this left stays this long: someone who moved the pointer away
 * in its last second still sees it go rather than vanish under the pointer.
 */
export const MIN_TIME_AFTER_HOLD_MS = 2000;

/** Why a toast is held open: the pointer is over it, or the keyboard focus is in it. */
export type ToastHold = 'pointer' | 'focus';

interface Countdown {
  /** Time left when the toast was held; the full timeout before it ever runs. */
  remaining: number;
  /** When the running timer fires (Date.now()); null while held. */
  deadline: number | null;
  timer: ReturnType<typeof setTimeout> | null;
  holds: Set<ToastHold>;
}

/**
 * Transient notifications. Showing a message that is already on screen restarts its timer instead;
 * showing one with the key of a toast on screen replaces that toast.
 * A toast does not close while the pointer is over it or the focus is in it (WCAG 2.2.2): its
 * time stops, and goes on from where it stopped once both have left.
 */
export class ToastState {
  #items = $state.raw<Toast[]>([]);
  #nextId = 1;
  // Bookkeeping only, never rendered: a plain Map on purpose.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #countdowns = new Map<number, Countdown>();
  /** Holds on the whole region: reading one toast keeps the others beside it too. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #regionHolds = new Set<ToastHold>();

  get items(): readonly Toast[] {
    return this.#items;
  }

  show(message: string, options: ShowToastOptions = {}): number {
    const kind = options.kind ?? 'info';
    const asked = options.timeoutMs ?? DEFAULT_TIMEOUT[kind];
    const timeout = options.action && asked > 0 ? Math.max(asked, MIN_ACTION_TIMEOUT_MS) : asked;
    const key = options.key ?? null;
    const replaced = key === null ? undefined : this.#items.find((toast) => toast.key === key);
    if (replaced && (replaced.message !== message || replaced.kind !== kind)) this.dismiss(replaced.id);
    const duplicate = this.#items.find((toast) => toast.message === message && toast.kind === kind);
    const id = duplicate?.id ?? this.#nextId++;
    if (!duplicate) {
      const toast: Toast = {
        id,
        kind,
        message,
        action: options.action ?? null,
        code: options.code ?? null,
        key,
      };
      const kept = this.#items.slice(-(MAX_TOASTS - 1));
      for (const dropped of this.#items.slice(0, this.#items.length - kept.length))
        this.#clearTimer(dropped.id);
      this.#items = [...kept, toast];
    }
    // Bookkeeping only, never rendered.
    // eslint-disable-next-line svelte/prefer-svelte-reactivity
    const holds = this.#countdowns.get(id)?.holds ?? new Set<ToastHold>(this.#regionHolds);
    this.#clearTimer(id);
    if (timeout > 0) {
      const countdown: Countdown = { remaining: timeout, deadline: null, timer: null, holds };
      this.#countdowns.set(id, countdown);
      if (holds.size === 0) this.#start(id, countdown, timeout);
    }
    return id;
  }

  /** Stops the toast's time while `reason` lasts; a toast that stays until dismissed is unaffected. */
  hold(id: number, reason: ToastHold): void {
    const countdown = this.#countdowns.get(id);
    if (!countdown) return;
    countdown.holds.add(reason);
    if (countdown.timer === null || countdown.deadline === null) return;
    clearTimeout(countdown.timer);
    countdown.remaining = Math.max(0, countdown.deadline - Date.now());
    countdown.timer = null;
    countdown.deadline = null;
  }

  /** Ends one reason for holding; the time goes on once no reason is left. */
  release(id: number, reason: ToastHold): void {
    const countdown = this.#countdowns.get(id);
    if (!countdown || !countdown.holds.delete(reason) || countdown.holds.size > 0) return;
    this.#start(id, countdown, Math.max(countdown.remaining, MIN_TIME_AFTER_HOLD_MS));
  }

  /** Holds every toast, and those shown while it lasts, as `hold` does one. */
  holdAll(reason: ToastHold): void {
    this.#regionHolds.add(reason);
    for (const id of this.#countdowns.keys()) this.hold(id, reason);
  }

  /** Ends a hold on the whole region; each toast goes on unless something else holds it. */
  releaseAll(reason: ToastHold): void {
    if (!this.#regionHolds.delete(reason)) return;
    for (const id of [...this.#countdowns.keys()]) this.release(id, reason);
  }

  /** Whether `holdAll(reason)` is in force. */
  heldAll(reason: ToastHold): boolean {
    return this.#regionHolds.has(reason);
  }

  /** The toast's action, as its button runs it: the toast goes with it. False when it has none. */
  runAction(id: number): boolean {
    const action = this.#items.find((toast) => toast.id === id)?.action;
    if (!action) return false;
    action.run();
    this.dismiss(id);
    return true;
  }

  /** Ctrl/⌘+Z: the newest toast offering an undo runs it. False when none offers one. */
  undoLatest(): boolean {
    const toast = this.#items.findLast((item) => item.action?.undo === true);
    return toast ? this.runAction(toast.id) : false;
  }

  dismiss(id: number): void {
    this.#clearTimer(id);
    this.#items = this.#items.filter((toast) => toast.id !== id);
  }

  reset(): void {
    for (const id of [...this.#countdowns.keys()]) this.#clearTimer(id);
    this.#regionHolds.clear();
    this.#items = [];
    this.#nextId = 1;
  }

  #start(id: number, countdown: Countdown, ms: number): void {
    countdown.remaining = ms;
    countdown.deadline = Date.now() + ms;
    countdown.timer = setTimeout(() => this.dismiss(id), ms);
  }

  #clearTimer(id: number): void {
    const timer = this.#countdowns.get(id)?.timer;
    if (timer !== undefined && timer !== null) clearTimeout(timer);
    this.#countdowns.delete(id);
  }
}

export const toasts = new ToastState();
