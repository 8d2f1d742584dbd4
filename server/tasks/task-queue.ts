// The task pool of §1.3: one FIFO queue shared by every connection, a bounded
// number of tasks running at once, and at most one task per connection. Pure
// scheduling: no sockets and no models, so the rules are tested on their own.

export type CancelReason = 'replaced' | 'disconnected' | 'shutdown';
export type TaskOutcome = 'completed' | 'failed';

export interface PoolTask {
  /** The connection the task belongs to: a connection holds one task at most. */
  readonly ownerId: string;
  /**
   * Does the work. Must settle soon after `signal` aborts; replies it would
   * send after that are the caller's to drop (the task was already answered).
   */
  run(signal: AbortSignal): Promise<TaskOutcome>;
  /** Called once, synchronously, when the task is cancelled before it finished. */
  onCancelled(reason: CancelReason): void;
}

export type SubmitResult = { accepted: true } | { accepted: false; reason: 'queue_full' | 'shutting_down' };

export type TaskQueueEvent =
  | { type: 'started'; waitMs: number }
  | { type: 'finished'; outcome: TaskOutcome | 'cancelled'; waitMs: number | undefined; totalMs: number };

export interface TaskQueueOptions {
  /** Tasks waiting to start; running ones do not count. */
  maxQueued: number;
  /** Tasks running at once. */
  concurrency: number;
  onEvent?: (event: TaskQueueEvent) => void;
  now?: () => number;
}

interface Entry {
  task: PoolTask;
  enqueuedAt: number;
  startedAt?: number;
  controller?: AbortController;
  settled?: Promise<void>;
  cancelled: boolean;
}

export class TaskQueue {
  readonly #options: TaskQueueOptions;
  readonly #now: () => number;
  readonly #waiting: Entry[] = [];
  readonly #running = new Set<Entry>();
  readonly #byOwner = new Map<string, Entry>();
  #accepting = true;

  constructor(options: TaskQueueOptions) {
    if (!(options.maxQueued >= 1) || !(options.concurrency >= 1)) {
      throw new RangeError('maxQueued and concurrency must be at least 1');
    }
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /** Tasks holding a running slot, including cancelled ones still winding down. */
  get running(): number {
    return this.#running.size;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  /**
   * Queues a task behind every earlier one. The owner's previous task is
   * cancelled ('replaced') — unless the new one is refused, which leaves it alone.
   */
  submit(task: PoolTask): SubmitResult {
    if (!this.#accepting) return { accepted: false, reason: 'shutting_down' };
    const previous = this.#byOwner.get(task.ownerId);
    const freed = previous && previous.startedAt === undefined ? 1 : 0;
    if (this.#waiting.length - freed >= this.#options.maxQueued)
      return { accepted: false, reason: 'queue_full' };
    if (previous) this.#cancel(previous, 'replaced');
    const entry: Entry = { task, enqueuedAt: this.#now(), cancelled: false };
    this.#waiting.push(entry);
    this.#byOwner.set(task.ownerId, entry);
    this.#pump();
    return { accepted: true };
  }

  /** Cancels the owner's queued or running task, if any. */
  cancelOwner(ownerId: string, reason: CancelReason): boolean {
    const entry = this.#byOwner.get(ownerId);
    if (!entry) return false;
    this.#cancel(entry, reason);
    return true;
  }

  /**
   * Graceful stop: refuse new tasks, cancel the queued ones, give the running
   * ones `graceMs` to finish, then abort them and wait for them to settle.
   */
  async shutdown(graceMs: number): Promise<{ cancelledQueued: number; abortedRunning: number }> {
    this.#accepting = false;
    const queued = [...this.#waiting];
    for (const entry of queued) this.#cancel(entry, 'shutdown');
    const finished = () => Promise.all([...this.#running].map((entry) => entry.settled));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
    );
    const result = await Promise.race([finished().then(() => 'done' as const), graceOver]);
    clearTimeout(timer);
    let abortedRunning = 0;
    if (result === 'timeout') {
      for (const entry of [...this.#running]) {
        if (entry.cancelled) continue;
        this.#cancel(entry, 'shutdown');
        abortedRunning++;
      }
      await finished();
    }
    return { cancelledQueued: queued.length, abortedRunning };
  }

  #cancel(entry: Entry, reason: CancelReason): void {
    if (entry.cancelled) return;
    entry.cancelled = true;
    if (this.#byOwner.get(entry.task.ownerId) === entry) this.#byOwner.delete(entry.task.ownerId);
    const index = this.#waiting.indexOf(entry);
    if (index >= 0) this.#waiting.splice(index, 1);
    // Abort first: anything the task tries to send from now on is dropped, so
    // "cancelled" is its one and last reply.
    entry.controller?.abort(new DOMException(`Task cancelled (${reason})`, 'AbortError'));
    this.#emitFinished(entry, 'cancelled');
    entry.task.onCancelled(reason);
  }

  #pump(): void {
    while (this.#running.size < this.#options.concurrency) {
      const entry = this.#waiting.shift();
      if (!entry) return;
      this.#start(entry);
    }
  }

  #start(entry: Entry): void {
    entry.startedAt = this.#now();
    entry.controller = new AbortController();
    this.#running.add(entry);
    this.#options.onEvent?.({ type: 'started', waitMs: entry.startedAt - entry.enqueuedAt });
    const { signal } = entry.controller;
    entry.settled = Promise.resolve()
      .then(() => entry.task.run(signal))
      .catch((): TaskOutcome => 'failed')
      .then((outcome) => {
        if (!entry.cancelled) this.#emitFinished(entry, outcome);
      })
      .finally(() => {
        // The slot is freed when the work has really stopped, not when it was
        // cancelled: an upstream call that ignores abort cannot multiply.
        this.#running.delete(entry);
        if (this.#byOwner.get(entry.task.ownerId) === entry) this.#byOwner.delete(entry.task.ownerId);
        this.#pump();
      });
  }

  #emitFinished(entry: Entry, outcome: TaskOutcome | 'cancelled'): void {
    const now = this.#now();
    this.#options.onEvent?.({
      type: 'finished',
      outcome,
      waitMs: entry.startedAt === undefined ? undefined : entry.startedAt - entry.enqueuedAt,
      totalMs: now - entry.enqueuedAt,
    });
  }
}
