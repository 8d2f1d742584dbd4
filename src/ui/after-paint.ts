/** How a callback gets scheduled; the browser's by default, a test's own otherwise. */
export interface PaintScheduler {
  /**
   * Calls `run` once the page's first contentful paint has been presented; returns false
   * where the browser cannot tell (no paint timing), and then never calls it.
   */
  firstPaint(run: () => void): boolean;
  frame(run: () => void): void;
  task(run: () => void, delayMs: number): void;
  /** A task of its own, queued now: unlike a timer's, not slowed down in a hidden tab. */
  next(run: () => void): void;
  idle(run: () => void): void;
}

/**
 * A hidden tab paints nothing: past this delay the work runs anyway rather
 * than wait for the tab to be shown.
 */
export const NO_PAINT_FALLBACK_MS = 1000;

export const browserScheduler: PaintScheduler = {
  firstPaint: (run) => {
    if (
      typeof PerformanceObserver === 'undefined' ||
      !PerformanceObserver.supportedEntryTypes?.includes('paint')
    )
      return false;
    // Buffered: a paint that came before this call is reported too.
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      run();
    });
    observer.observe({ type: 'paint', buffered: true });
    return true;
  },
  frame: (run) => requestAnimationFrame(() => run()),
  task: (run, delayMs) => setTimeout(run, delayMs),
  next: (run) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  },
  // Safari has no requestIdleCallback: a task after the current ones stands in.
  idle: (run) =>
    typeof requestIdleCallback === 'function'
      ? requestIdleCallback(() => run(), { timeout: 2000 })
      : setTimeout(run, 0),
};

/**
 * Runs `run` once, in a task of its own after the first view has been painted
 * (where the browser cannot report that paint: after the next frame). Start-up
 * work that does not draw the first view goes here, so the first paint neither
 * waits for it nor shares the network with what it downloads.
 */
export function afterFirstPaint(run: () => void, scheduler: PaintScheduler = browserScheduler): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  const painted = () => scheduler.task(once, 0);
  if (!scheduler.firstPaint(painted)) scheduler.frame(painted);
  scheduler.task(once, NO_PAINT_FALLBACK_MS);
}

/** Runs `run` when the page is idle (work nobody is waiting for, e.g. installing the service worker). */
export function whenIdle(run: () => void, scheduler: PaintScheduler = browserScheduler): void {
  scheduler.idle(run);
}

/**
 * Runs `steps` in order, each in a task of its own: work that would block the page for
 * one long task blocks it for several short ones, and input (and a paint) can come in
 * between. Returns what stops the steps not yet run.
 */
export function inSteps(
  steps: readonly (() => void)[],
  scheduler: PaintScheduler = browserScheduler,
): () => void {
  let index = 0;
  let stopped = false;
  const step = () => {
    if (stopped) return;
    steps[index]!();
    index += 1;
    if (index < steps.length) scheduler.next(step);
  };
  if (steps.length > 0) scheduler.next(step);
  return () => {
    stopped = true;
  };
}
