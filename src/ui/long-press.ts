import type { Attachment } from 'svelte/attachments';

/**
 * A finger held on a row opens its context menu, as a right-click does. iOS Safari fires no
 * `contextmenu` on a long press, so the press is timed from pointer events; Android Chrome
 * fires one as well, and whichever comes first opens the menu, once.
 */

/** How long a finger rests before the press counts as long: the platforms' own long press. */
export const LONG_PRESS_MS = 500;
/** How far a finger may drift and still be holding: past this it is scrolling or dragging. */
export const LONG_PRESS_SLOP_PX = 10;

export interface PressPoint {
  x: number;
  y: number;
}

/** Timers the gesture waits with: the page's, or a test's that fire only when told. */
export interface PressTimers {
  set(run: () => void, delayMs: number): number;
  clear(handle: number): void;
}

const windowTimers: PressTimers = {
  set: (run, delayMs) => window.setTimeout(run, delayMs),
  clear: (handle) => window.clearTimeout(handle),
};

/** The pointer that pressed; a mouse has a right button, so only touch and pen are timed. */
export type PressKind = 'touch' | 'pen' | 'mouse' | string;

/**
 * One row's press, fed the pointer's events. Idle, then held (the timer runs), then long
 * (the menu opened). The click a long press ends with, and the `contextmenu` Android adds,
 * belong to the menu: `click()` and `contextMenu()` say when to swallow them.
 */
export class LongPressGesture {
  #timer: number | null = null;
  #start: PressPoint | null = null;
  /** This press opened the menu: its click and any `contextmenu` after are spent. */
  #opened = false;

  constructor(
    private readonly onLongPress: (at: PressPoint) => void,
    private readonly timers: PressTimers = windowTimers,
    private readonly holdMs = LONG_PRESS_MS,
    private readonly slopPx = LONG_PRESS_SLOP_PX,
  ) {}

  /** The timer runs: a press that may still become long. */
  get holding(): boolean {
    return this.#timer !== null;
  }

  down(at: PressPoint, kind: PressKind, button: number, primary = true): void {
    this.#stop();
    this.#opened = false;
    if (kind === 'mouse' || button !== 0 || !primary) return;
    this.#start = at;
    this.#timer = this.timers.set(() => this.#fire(), this.holdMs);
  }

  move(at: PressPoint): void {
    if (this.#start === null || this.#timer === null) return;
    if (Math.hypot(at.x - this.#start.x, at.y - this.#start.y) > this.slopPx) this.#stop();
  }

  /** The finger lifted, the browser took the touch (pointercancel), or the page scrolled. */
  end(): void {
    this.#stop();
  }

  /** True when a `contextmenu` must be swallowed: this press opened the menu already. */
  contextMenu(): boolean {
    if (this.#opened) return true;
    // The browser's long press came first (Android): its menu is the one; the timer stands down.
    if (this.#timer !== null) {
      this.#stop();
      this.#opened = true;
      return false;
    }
    return false;
  }

  /**
   * True when a click must be swallowed: it ends the press that opened the menu. Only a
   * pointer's click can: Android sends none after its long press, nor does a finger that slid
   * off (pointercancel), so the spent click may never come, and a keyboard's click (Enter on
   * the row the menu's Escape focused) is the user's own.
   */
  click(byPointer = true): boolean {
    if (!this.#opened) return false;
    this.#opened = false;
    return byPointer;
  }

  /** A key pressed on the row: the press is over, so its spent click or menu is forgotten. */
  key(): void {
    this.#opened = false;
  }

  #fire(): void {
    const at = this.#start;
    this.#timer = null;
    this.#start = null;
    if (at === null) return;
    this.#opened = true;
    this.onLongPress(at);
  }

  #stop(): void {
    if (this.#timer !== null) this.timers.clear(this.#timer);
    this.#timer = null;
    this.#start = null;
  }
}

/**
 * Opens an element's context menu on a long press with a finger or pen, at the point pressed.
 * The click that ends it does not reach the element's own click handler (no navigation after
 * the menu), nor does Android's `contextmenu` for the same press (no second menu).
 */
export function longPress(
  onLongPress: (at: PressPoint, element: HTMLElement) => void,
  timers?: PressTimers,
): Attachment<HTMLElement> {
  return (element) => {
    const gesture = new LongPressGesture((at) => onLongPress(at, element), timers);
    const onScroll = () => gesture.end();
    const watchScroll = (on: boolean) => {
      if (on) window.addEventListener('scroll', onScroll, { capture: true, passive: true });
      else window.removeEventListener('scroll', onScroll, { capture: true });
    };
    const point = (event: PointerEvent): PressPoint => ({ x: event.clientX, y: event.clientY });
    const onDown = (event: PointerEvent) => {
      gesture.down(point(event), event.pointerType, event.button, event.isPrimary);
      watchScroll(gesture.holding);
    };
    const onMove = (event: PointerEvent) => {
      gesture.move(point(event));
      if (!gesture.holding) watchScroll(false);
    };
    const onEnd = () => {
      gesture.end();
      watchScroll(false);
    };
    const onContextMenu = (event: MouseEvent) => {
      if (!gesture.contextMenu()) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const onClick = (event: MouseEvent) => {
      // A click made with keys (Enter, Space) or by assistive tech has no pointer press: detail 0.
      if (!gesture.click(event.detail > 0)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
    };
    const onKey = () => gesture.key();
    element.addEventListener('pointerdown', onDown);
    element.addEventListener('pointermove', onMove);
    element.addEventListener('pointerup', onEnd);
    element.addEventListener('pointercancel', onEnd);
    element.addEventListener('contextmenu', onContextMenu);
    element.addEventListener('keydown', onKey);
    // Capture: ahead of the element's own click handler (Svelte's run from the root, later still).
    element.addEventListener('click', onClick, { capture: true });
    return () => {
      gesture.end();
      watchScroll(false);
      element.removeEventListener('pointerdown', onDown);
      element.removeEventListener('pointermove', onMove);
      element.removeEventListener('pointerup', onEnd);
      element.removeEventListener('pointercancel', onEnd);
      element.removeEventListener('contextmenu', onContextMenu);
      element.removeEventListener('keydown', onKey);
      element.removeEventListener('click', onClick, { capture: true });
    };
  };
}
