import { describe, expect, it } from 'vitest';
import { afterFirstPaint, inSteps, NO_PAINT_FALLBACK_MS, type PaintScheduler } from './after-paint';

/** A scheduler whose paints, frames and tasks happen only when the test says so. */
function manualScheduler(reportsPaint: boolean) {
  const paints: (() => void)[] = [];
  const frames: (() => void)[] = [];
  const tasks: { run: () => void; delayMs: number }[] = [];
  const scheduler: PaintScheduler = {
    firstPaint: (run) => {
      if (reportsPaint) paints.push(run);
      return reportsPaint;
    },
    frame: (run) => frames.push(run),
    task: (run, delayMs) => tasks.push({ run, delayMs }),
    next: (run) => tasks.push({ run, delayMs: 0 }),
    idle: (run) => tasks.push({ run, delayMs: 0 }),
  };
  const runAll = (queue: (() => void)[]) => queue.splice(0).forEach((run) => run());
  const runTasks = (delayMs: number) => {
    for (const task of tasks.filter((queued) => queued.delayMs === delayMs)) task.run();
  };
  return { scheduler, paints, frames, runAll, runTasks };
}

describe('afterFirstPaint', () => {
  it('waits for the first paint, then runs in a task of its own', () => {
    const { scheduler, paints, frames, runAll, runTasks } = manualScheduler(true);
    const calls: string[] = [];
    afterFirstPaint(() => calls.push('started'), scheduler);
    runAll(frames);
    runTasks(0);
    expect(calls).toEqual([]);

    runAll(paints);
    expect(calls).toEqual([]);
    runTasks(0);
    expect(calls).toEqual(['started']);
  });

  it('without paint timing, runs in a task after the next frame', () => {
    const { scheduler, frames, runAll, runTasks } = manualScheduler(false);
    let calls = 0;
    afterFirstPaint(() => (calls += 1), scheduler);
    runTasks(0);
    expect(calls).toBe(0);
    runAll(frames);
    runTasks(0);
    expect(calls).toBe(1);
  });

  it('runs once even when both the paint and the fallback come', () => {
    const { scheduler, paints, runAll, runTasks } = manualScheduler(true);
    let calls = 0;
    afterFirstPaint(() => (calls += 1), scheduler);
    runAll(paints);
    runTasks(0);
    runTasks(NO_PAINT_FALLBACK_MS);
    expect(calls).toBe(1);
  });

  it('still runs in a hidden tab, where nothing is painted', () => {
    const { scheduler, runTasks } = manualScheduler(true);
    let calls = 0;
    afterFirstPaint(() => (calls += 1), scheduler);
    runTasks(NO_PAINT_FALLBACK_MS);
    expect(calls).toBe(1);
  });
});

describe('inSteps', () => {
  /** Each `next` task waits in `queue` until the test runs it. */
  function nextQueue() {
    const queue: (() => void)[] = [];
    const scheduler: PaintScheduler = {
      firstPaint: () => false,
      frame: () => {},
      task: () => {},
      next: (run) => queue.push(run),
      idle: () => {},
    };
    const runOne = () => queue.shift()!();
    return { scheduler, queue, runOne };
  }

  it('runs the steps in order, one per task, none on the call itself', () => {
    const { scheduler, queue, runOne } = nextQueue();
    const calls: number[] = [];
    inSteps([() => calls.push(1), () => calls.push(2), () => calls.push(3)], scheduler);
    expect(calls).toEqual([]);
    expect(queue).toHaveLength(1);
    runOne();
    expect(calls).toEqual([1]);
    // The next step is queued only once this one is done: each has a task of its own.
    expect(queue).toHaveLength(1);
    runOne();
    runOne();
    expect(calls).toEqual([1, 2, 3]);
    expect(queue).toHaveLength(0);
  });

  it('runs none of the steps left once stopped (the app unmounted meanwhile)', () => {
    const { scheduler, runOne } = nextQueue();
    const calls: number[] = [];
    const stop = inSteps([() => calls.push(1), () => calls.push(2)], scheduler);
    runOne();
    stop();
    runOne();
    expect(calls).toEqual([1]);
  });

  it('queues nothing for no steps', () => {
    const { scheduler, queue } = nextQueue();
    inSteps([], scheduler);
    expect(queue).toHaveLength(0);
  });
});
