import { describe, expect, it } from 'vitest';
import {
  TaskQueue,
  type CancelReason,
  type PoolTask,
  type TaskOutcome,
  type TaskQueueEvent,
} from './task-queue';

/** A task that runs until the test releases it, recording what happened to it. */
function controllable(ownerId: string, log: string[], name = ownerId) {
  let release: (outcome: TaskOutcome) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const task: PoolTask = {
    ownerId,
    run: (s) => {
      signal = s;
      log.push(`start ${name}`);
      return new Promise<TaskOutcome>((resolve) => {
        release = resolve;
        s.addEventListener('abort', () => resolve('failed'));
      });
    },
    onCancelled: (reason: CancelReason) => log.push(`cancel ${name} ${reason}`),
  };
  return { task, release: (outcome: TaskOutcome = 'completed') => release(outcome), signal: () => signal };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** One slot: owner a's task running, owner b's queued behind it. */
async function aRunningBQueued() {
  const log: string[] = [];
  const queue = new TaskQueue({ maxQueued: 4, concurrency: 1 });
  const a = controllable('a', log);
  queue.submit(a.task);
  queue.submit(controllable('b', log).task);
  await tick();
  return { log, queue, a };
}

describe('TaskQueue', () => {
  it('runs tasks in FIFO order across owners, at most `concurrency` at once', async () => {
    const log: string[] = [];
    const queue = new TaskQueue({ maxQueued: 10, concurrency: 2 });
    const tasks = ['a', 'b', 'c', 'd'].map((owner) => controllable(owner, log));
    for (const t of tasks) expect(queue.submit(t.task)).toEqual({ accepted: true });
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    expect([queue.running, queue.queued]).toEqual([2, 2]);
    tasks[1]!.release();
    await tick();
    tasks[0]!.release();
    await tick();
    expect(log).toEqual(['start a', 'start b', 'start c', 'start d']);
  });

  it('refuses at once when the queue is full, and keeps the owner’s previous task then', async () => {
    const log: string[] = [];
    const queue = new TaskQueue({ maxQueued: 1, concurrency: 1 });
    const running = controllable('a', log);
    queue.submit(running.task);
    await tick();
    queue.submit(controllable('b', log).task);
    expect(queue.submit(controllable('c', log).task)).toEqual({ accepted: false, reason: 'queue_full' });
    // 'a' is running, not queued: replacing it frees no queue slot, so it is refused and kept.
    expect(queue.submit(controllable('a', log, 'a2').task)).toEqual({
      accepted: false,
      reason: 'queue_full',
    });
    // 'b' is queued: its replacement takes its slot.
    expect(queue.submit(controllable('b', log, 'b2').task)).toEqual({ accepted: true });
    expect(log).toEqual(['start a', 'cancel b replaced']);
  });

  it('a new task from the same owner cancels the running one and aborts its signal', async () => {
    const log: string[] = [];
    const queue = new TaskQueue({ maxQueued: 4, concurrency: 1 });
    const first = controllable('a', log, 'first');
    queue.submit(first.task);
    await tick();
    queue.submit(controllable('a', log, 'second').task);
    expect(first.signal()?.aborted).toBe(true);
    await tick();
    await tick();
    expect(log).toEqual(['start first', 'cancel first replaced', 'start second']);
  });

  it('cancelOwner drops a queued task without running it', async () => {
    const { log, queue, a } = await aRunningBQueued();
    expect(queue.cancelOwner('b', 'disconnected')).toBe(true);
    expect(queue.cancelOwner('b', 'disconnected')).toBe(false);
    a.release();
    await tick();
    await tick();
    expect(log).toEqual(['start a', 'cancel b disconnected']);
    expect(queue.queued + queue.running).toBe(0);
  });

  it('reports waits and outcomes', async () => {
    const events: TaskQueueEvent[] = [];
    let now = 0;
    const queue = new TaskQueue({
      maxQueued: 4,
      concurrency: 1,
      onEvent: (e) => events.push(e),
      now: () => now,
    });
    const log: string[] = [];
    const a = controllable('a', log);
    queue.submit(a.task);
    queue.submit(controllable('b', log).task);
    await tick();
    now = 10;
    a.release('failed');
    await tick();
    await tick();
    expect(events).toEqual([
      { type: 'started', waitMs: 0 },
      { type: 'finished', outcome: 'failed', waitMs: 0, totalMs: 10 },
      { type: 'started', waitMs: 10 },
    ]);
  });

  it('a task that throws counts as failed and frees its slot', async () => {
    const queue = new TaskQueue({ maxQueued: 4, concurrency: 1 });
    const log: string[] = [];
    queue.submit({
      ownerId: 'x',
      run: () => Promise.reject(new Error('boom')),
      onCancelled: () => undefined,
    });
    queue.submit(controllable('y', log).task);
    await tick();
    await tick();
    expect(log).toEqual(['start y']);
  });

  it('shutdown cancels queued tasks, waits for running ones, then refuses new ones', async () => {
    const { log, queue, a } = await aRunningBQueued();
    const stopping = queue.shutdown(1000);
    setTimeout(() => a.release(), 20);
    expect(await stopping).toEqual({ cancelledQueued: 1, abortedRunning: 0 });
    expect(log).toEqual(['start a', 'cancel b shutdown']);
    expect(queue.submit(controllable('c', log).task)).toEqual({ accepted: false, reason: 'shutting_down' });
  });

  it('shutdown aborts running tasks that outlast the grace period', async () => {
    const log: string[] = [];
    const queue = new TaskQueue({ maxQueued: 4, concurrency: 2 });
    queue.submit(controllable('a', log).task);
    await tick();
    expect(await queue.shutdown(30)).toEqual({ cancelledQueued: 0, abortedRunning: 1 });
    expect(log).toEqual(['start a', 'cancel a shutdown']);
    expect(queue.running).toBe(0);
  });
});
