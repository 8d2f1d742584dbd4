import { describe, expect, it } from 'vitest';
import { runInOrder } from './case-queue';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/**
 * Items the test finishes by hand: `started` records what began (and when a
 * start is awaited, `nextStart` resolves), `finish(i)` settles item i.
 */
function manualItems(count: number) {
  const gates = Array.from({ length: count }, () => deferred<string>());
  const started: number[] = [];
  const signals: AbortSignal[] = [];
  let active = 0;
  let peak = 0;
  let waiting: Deferred<void> | undefined;
  return {
    items: Array.from({ length: count }, (_, index) => index),
    started,
    signals,
    peak: () => peak,
    run: async (item: number, _index: number, signal: AbortSignal): Promise<string> => {
      started.push(item);
      signals[item] = signal;
      active += 1;
      peak = Math.max(peak, active);
      waiting?.resolve();
      try {
        return await Promise.race([
          gates[item]!.promise,
          new Promise<never>((_, reject) =>
            signal.addEventListener('abort', () => reject(new DOMException('stopped', 'AbortError')), {
              once: true,
            }),
          ),
        ]);
      } finally {
        active -= 1;
      }
    },
    /** Resolves once `count` items have started. */
    async startedCount(wanted: number): Promise<void> {
      while (started.length < wanted) {
        waiting = deferred<void>();
        await waiting.promise;
      }
    },
    finish: (item: number) => gates[item]!.resolve(`r${item}`),
    fail: (item: number, error: unknown) => gates[item]!.reject(error),
  };
}

describe('runInOrder', () => {
  it('runs at most `concurrency` items at once and delivers results in item order', async () => {
    const work = manualItems(5);
    const delivered: Array<[string, number]> = [];
    const done = runInOrder(work.items, {
      concurrency: 2,
      signal: new AbortController().signal,
      run: work.run,
      onResult: async (result, index) => {
        delivered.push([result, index]);
      },
    });
    await work.startedCount(2);
    expect(work.started).toEqual([0, 1]);
    // The second finishes first: its result waits for the first's.
    work.finish(1);
    await work.startedCount(3);
    expect(delivered).toEqual([]);
    work.finish(0);
    await work.startedCount(4);
    work.finish(3);
    work.finish(2);
    await work.startedCount(5);
    work.finish(4);
    expect(await done).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
    expect(delivered).toEqual([
      ['r0', 0],
      ['r1', 1],
      ['r2', 2],
      ['r3', 3],
      ['r4', 4],
    ]);
    expect(work.peak()).toBe(2);
  });

  it('with concurrency 1 runs one item after the other', async () => {
    const order: string[] = [];
    const results = await runInOrder(['a', 'b', 'c'], {
      concurrency: 1,
      signal: new AbortController().signal,
      run: async (item) => {
        order.push(`start ${item}`);
        await Promise.resolve();
        order.push(`end ${item}`);
        return item.toUpperCase();
      },
      onResult: async (result) => {
        order.push(`result ${result}`);
      },
    });
    expect(results).toEqual(['A', 'B', 'C']);
    expect(order).toEqual([
      'start a',
      'end a',
      'result A',
      'start b',
      'end b',
      'result B',
      'start c',
      'end c',
      'result C',
    ]);
  });

  it('cancel aborts the running items, starts no queued one, and still delivers what finished', async () => {
    const work = manualItems(5);
    const cancel = new AbortController();
    const delivered: number[] = [];
    const done = runInOrder(work.items, {
      concurrency: 3,
      signal: cancel.signal,
      run: work.run,
      onResult: async (_result, index) => {
        delivered.push(index);
      },
    });
    await work.startedCount(3);
    // Item 1 finished but waits behind item 0 when the cancel comes.
    work.finish(1);
    await Promise.resolve();
    cancel.abort(new DOMException('cancelled', 'AbortError'));
    await expect(done).rejects.toMatchObject({ name: 'AbortError', message: 'cancelled' });
    expect(work.started).toEqual([0, 1, 2]);
    expect(work.signals.every((signal) => signal.aborted)).toBe(true);
    expect(delivered).toEqual([1]);
  });

  it('answers at once for a signal that is already aborted', async () => {
    const cancel = new AbortController();
    cancel.abort(new DOMException('cancelled', 'AbortError'));
    let ran = false;
    await expect(
      runInOrder([1], {
        concurrency: 2,
        signal: cancel.signal,
        run: async () => {
          ran = true;
          return 1;
        },
        onResult: async () => undefined,
      }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(ran).toBe(false);
  });

  it('a failing item stops the others and its error is the answer', async () => {
    const work = manualItems(4);
    const delivered: number[] = [];
    const done = runInOrder(work.items, {
      concurrency: 2,
      signal: new AbortController().signal,
      run: work.run,
      onResult: async (_result, index) => {
        delivered.push(index);
      },
    });
    await work.startedCount(2);
    work.finish(0);
    await work.startedCount(3);
    work.fail(1, new Error('adapter exploded'));
    await expect(done).rejects.toThrow('adapter exploded');
    // Item 2 was running and was told to stop; item 3 never started.
    expect(work.started).toEqual([0, 1, 2]);
    expect(work.signals[2]!.aborted).toBe(true);
    expect(delivered).toEqual([0]);
  });

  it('a failing delivery stops the queue with that error', async () => {
    await expect(
      runInOrder([0, 1, 2], {
        concurrency: 2,
        signal: new AbortController().signal,
        run: async (item) => item,
        onResult: async (_result, index) => {
          if (index === 1) throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
  });
});
