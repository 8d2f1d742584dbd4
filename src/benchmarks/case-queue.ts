import pLimit from 'p-limit';

export interface OrderedQueueOptions<T, R> {
  /** Items run at most this many at a time (at least 1). */
  concurrency: number;
  /** Cancels the whole queue: nothing more starts, and running items see their own signal abort. */
  signal: AbortSignal;
  /**
   * Runs one item. Its signal aborts when the queue is cancelled or another
   * item failed, so a long item can stop early.
   */
  run: (item: T, index: number, signal: AbortSignal) => Promise<R>;
  /**
   * Receives each result in item order, one call at a time, as soon as every
   * earlier item has its result; results that finished after a gap (a
   * cancelled or failed item before them) come last, still in item order.
   */
  onResult: (result: R, index: number) => Promise<void>;
}

/**
 * Runs items with bounded concurrency while the caller sees results in item
 * order (a report must not depend on which case happened to finish first).
 * The first failure stops the rest, like a cancel; a cancel wins over a
 * failure it caused. Resolves with every result, in item order.
 */
export async function runInOrder<T, R>(
  items: readonly T[],
  options: OrderedQueueOptions<T, R>,
): Promise<R[]> {
  options.signal.throwIfAborted();
  const limit = pLimit({ concurrency: Math.max(1, Math.floor(options.concurrency)), rejectOnClear: true });
  const controller = new AbortController();
  const stop = (reason: unknown): void => {
    if (!controller.signal.aborted) controller.abort(reason);
    limit.clearQueue();
  };
  const onCancel = (): void => stop(options.signal.reason);
  options.signal.addEventListener('abort', onCancel, { once: true });

  const results = new Map<number, R>();
  let delivered = 0;
  let failure: { error: unknown } | undefined;
  let deliveryFailed = false;
  // One delivery at a time, in order: each finished item extends the chain.
  let delivering: Promise<void> = Promise.resolve();
  const deliverReady = (): Promise<void> => {
    delivering = delivering.then(async () => {
      try {
        while (results.has(delivered)) {
          await options.onResult(results.get(delivered)!, delivered);
          delivered += 1;
        }
      } catch (error) {
        deliveryFailed = true;
        throw error;
      }
    });
    return delivering;
  };

  const tasks = items.map((item, index) =>
    limit(async () => {
      controller.signal.throwIfAborted();
      try {
        results.set(index, await options.run(item, index, controller.signal));
        await deliverReady();
      } catch (error) {
        // Stopped inside the slot, so no queued item starts in the slot this one frees.
        if (failure === undefined && !controller.signal.aborted) failure = { error };
        stop(error);
      }
    }).catch(() => undefined),
  );
  try {
    await Promise.all(tasks);
    if (!deliveryFailed) {
      // The finished items behind a gap, so a stopped run still reports them.
      for (const index of [...results.keys()].sort((a, b) => a - b)) {
        if (index > delivered) await options.onResult(results.get(index)!, index);
      }
    }
  } finally {
    options.signal.removeEventListener('abort', onCancel);
  }
  options.signal.throwIfAborted();
  if (failure !== undefined) throw failure.error;
  return items.map((_, index) => results.get(index)!);
}
