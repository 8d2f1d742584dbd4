/**
 * Push-to-pull: the worker pushes chunks through a callback, the stream
 * conversion pulls them with `for await`. Unbounded, which is fine at token
 * rates; after the consumer stops (`return()`), pushes are dropped.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  readonly #items: T[] = [];
  readonly #waiting: Array<{
    resolve: (result: IteratorResult<T>) => void;
    reject: (error: unknown) => void;
  }> = [];
  #ended = false;
  #error: { value: unknown } | undefined;
  readonly #started: Promise<void>;
  #start!: { resolve: () => void; reject: (error: unknown) => void };

  constructor() {
    this.#started = new Promise<void>((resolve, reject) => {
      this.#start = { resolve, reject };
    });
    this.#started.catch(() => undefined); // observed by whoever awaits ready()
  }

  /** Resolves at the first item or a normal end; rejects when the queue fails before any item. */
  ready(): Promise<void> {
    return this.#started;
  }

  push(item: T): void {
    if (this.#ended) return;
    this.#start.resolve();
    const waiter = this.#waiting.shift();
    if (waiter) waiter.resolve({ value: item, done: false });
    else this.#items.push(item);
  }

  /** No more items: the consumer finishes what is queued, then ends. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#start.resolve();
    for (const waiter of this.#waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  }

  /** Ends with an error, thrown to the consumer once the queued items are read. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = { value: error };
    this.#start.reject(error);
    for (const waiter of this.#waiting.splice(0)) waiter.reject(error);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#items.length > 0) return Promise.resolve({ value: this.#items.shift()!, done: false });
        if (this.#error) return Promise.reject(this.#error.value);
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.#waiting.push({ resolve, reject }));
      },
      return: () => {
        this.#items.length = 0;
        this.#error = undefined;
        this.close();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
