import {
  AppError,
  canTransition,
  isAbortError,
  isTerminalStatus,
  toErrorEnvelope,
  toIsoUtc,
  type ErrorCode,
  type ErrorEnvelope,
  type JobDto,
  type JobProgress,
  type JobStatus,
  type OffsetPage,
  type SequencePage,
  type EventEnvelope,
} from '../contracts';
import type { EventLog, EventListener, Subscription } from './event-log';
import type { JobListQuery, JobStore } from './job-store';
import { jobLeaseName, unsharedLeases, type JobLease, type JobLeases } from './job-leases';
import { newId, systemClock, type Clock } from './ids';

export interface ProgressUpdate {
  phase: string;
  current: number;
  total?: number | null;
  message?: string | null;
}

export interface JobContext<Input> {
  readonly jobId: string;
  readonly input: Input;
  /** Aborted when the user cancels; pass it to every fetch, worker call and loop. */
  readonly signal: AbortSignal;
  /**
   * Persists the job's progress and publishes a `Progress` event. `eventData`
   * (say, the segments a window just finished) goes into that event only, beside
   * the progress fields, and never into the stored job.
   */
  progress(update: ProgressUpdate, eventData?: Record<string, unknown>): Promise<void>;
  /** Domain events beside the lifecycle ones (e.g. `ModelLoading`). */
  emit(event: string, data: unknown): Promise<void>;
}

export interface JobHandler<Input = Record<string, unknown>, Result = unknown> {
  readonly kind: string;
  /** Jobs of this kind that may run at once; the rest wait in `queued`. */
  readonly concurrency?: number;
  /** When true, a job found `running` at start-up is queued again instead of failed. */
  readonly resumable?: boolean;
  /**
   * The error a cancelled job of this kind reports in its `Cancelled` event
   * (e.g. TRANSCRIPTION_CANCELLED); the job itself stays without an error.
   */
  readonly cancelledError?: { code: ErrorCode; message: string };
  /**
   * Finished jobs of this kind kept (newest first), for kinds that run often
   * in the background: older ones and their events are deleted, in batches of
   * PRUNE_FINISHED_EVERY finished jobs, so at most `keepFinished +
   * PRUNE_FINISHED_EVERY` are stored per runtime. Unset: all are kept.
   */
  readonly keepFinished?: number;
  run(context: JobContext<Input>): Promise<Result>;
}

/**
 * Finished jobs of a `keepFinished` kind between two prunes: pruning after every
 * job would cost two transactions per job (a read of the kind and a delete).
 */
export const PRUNE_FINISHED_EVERY = 20;

interface RunningJob {
  controller: AbortController;
  settled: Promise<void>;
}

export function progressOf(update: ProgressUpdate): JobProgress {
  const total = update.total ?? null;
  const percent =
    total !== null && total > 0 ? Math.min(100, Math.round((update.current / total) * 1000) / 10) : null;
  return { phase: update.phase, current: update.current, total, percent, message: update.message ?? null };
}

/**
 * Jobs (§4.2 and docs/architecture.md): `create` returns at once in `queued`; a
 * per-kind limit decides when a job starts; progress, completion, failure and
 * cancellation are persisted and published as events; illegal moves are 409s.
 */
export class JobRuntime {
  readonly #store: JobStore;
  readonly #events: EventLog;
  readonly #clock: Clock;
  readonly #handlers = new Map<string, JobHandler<never, unknown>>();
  readonly #queues = new Map<string, string[]>();
  readonly #running = new Map<string, RunningJob>();
  readonly #runningByKind = new Map<string, number>();
  /** Writes to one job are serialised so a late progress cannot overwrite a terminal state. */
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Jobs this runtime drives, resolved when each ends (see whenEnded). */
  readonly #endings = new Map<string, { ended: Promise<void>; resolve: () => void }>();
  /** Finished jobs per `keepFinished` kind since its last prune; a kind not here is pruned at its first end. */
  readonly #finishedSincePrune = new Map<string, number>();
  #pruning: Promise<void> = Promise.resolve();
  readonly #leases: JobLeases;
  /** The lease of each job this runtime has queued or runs: other tabs leave those alone. */
  readonly #held = new Map<string, JobLease>();

  /**
   * `leases` tell this runtime's jobs from those of other live tabs sharing the
   * store (see job-leases.ts); without them every unfinished job found at start-up counts as abandoned.
   */
  constructor(
    store: JobStore,
    events: EventLog,
    clock: Clock = systemClock,
    leases: JobLeases = unsharedLeases,
  ) {
    this.#store = store;
    this.#events = events;
    this.#clock = clock;
    this.#leases = leases;
  }

  register<Input, Result>(handler: JobHandler<Input, Result>): void {
    if (this.#handlers.has(handler.kind)) throw new Error(`job kind ${handler.kind} registered twice`);
    this.#handlers.set(handler.kind, handler as unknown as JobHandler<never, unknown>);
  }

  async create(kind: string, input: Record<string, unknown> = {}): Promise<JobDto> {
    if (!this.#handlers.has(kind)) {
      throw new AppError('INVALID_REQUEST', `Unknown job kind "${kind}".`, { kind });
    }
    const now = toIsoUtc(this.#clock());
    const job: JobDto = {
      job_id: newId('job'),
      kind,
      status: 'queued',
      progress: null,
      input,
      result: null,
      error: null,
      created_at: now,
      started_at: null,
      updated_at: now,
      completed_at: null,
    };
    this.#events.markNew(job.job_id);
    // Held before the row exists, so no other tab's recovery ever sees this job unclaimed.
    await this.#hold(job.job_id);
    try {
      await this.#commit(
        job.job_id,
        () => job,
        'Queued',
        () => ({ status: 'queued' }),
      );
    } catch (error) {
      this.#release(job.job_id);
      throw error;
    }
    this.#enqueue(job);
    return job;
  }

  /**
   * Deletes finished jobs of `kind` (and their events) except the newest
   * `keep`: for kinds that run often in the background, like `index.update`.
   * Queued and running jobs are never touched. Returns how many were deleted.
   */
  async prune(kind: string, keep: number): Promise<number> {
    const { items } = await this.#store.list({ kind, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
    const stale = items
      .filter((job) => isTerminalStatus(job.status) && !this.#running.has(job.job_id))
      .slice(Math.max(0, keep))
      .map((job) => job.job_id);
    await this.#store.delete(stale);
    return stale.length;
  }

  async get(jobId: string): Promise<JobDto> {
    const job = await this.#store.get(jobId);
    if (!job) throw new AppError('JOB_NOT_FOUND', 'This job does not exist.', { job_id: jobId });
    return job;
  }

  async list(query: JobListQuery): Promise<OffsetPage<JobDto>> {
    const { items, total } = await this.#store.list(query);
    return { items, page: { total, limit: query.limit, offset: query.offset } };
  }

  /**
   * A queued job ends `cancelled` at once. A running one has its signal aborted
   * and ends `cancelled` when its work stops; the returned job may still be
   * `running` — the terminal event is the answer (§5.3).
   */
  async cancel(jobId: string): Promise<JobDto> {
    return this.#withLock(jobId, async () => {
      const job = await this.get(jobId);
      if (isTerminalStatus(job.status)) {
        throw new AppError(
          'STATE_CONFLICT',
          `This job has already ${job.status === 'completed' ? 'completed' : 'ended'}.`,
          {
            job_id: jobId,
            status: job.status,
          },
        );
      }
      const running = this.#running.get(jobId);
      if (running) {
        running.controller.abort(new DOMException('Cancelled by the user.', 'AbortError'));
        return job;
      }
      // Another live tab runs it: only that tab can stop its work, and a row
      // marked cancelled here would not stop it.
      if (job.status === 'running' && !this.#held.has(jobId)) {
        const lease = await this.#leases.tryHold(jobLeaseName(jobId));
        if (!lease) {
          throw new AppError('STATE_CONFLICT', 'This job runs in another tab; cancel it there.', {
            job_id: jobId,
            status: job.status,
          });
        }
        lease.release();
      }
      this.#removeFromQueue(job);
      return (await this.#finish(jobId, 'cancelled', {})) ?? (await this.get(jobId));
    });
  }

  /**
   * Removes one finished job and its events. A queued or running job is refused
   * (STATE_CONFLICT): it must end first, so nothing is deleted under a running task.
   */
  async delete(jobId: string): Promise<void> {
    await this.#withLock(jobId, async () => {
      const job = await this.get(jobId);
      if (!isTerminalStatus(job.status) || this.#running.has(jobId)) {
        throw new AppError('STATE_CONFLICT', 'This job has not ended yet; cancel it first.', {
          job_id: jobId,
          status: job.status,
        });
      }
      await this.#store.delete([jobId]);
    });
  }

  /**
   * One page of a job's stored events (§4.3 cursor). A resumable kind reads what its run
   * before the reload published (say, the transcript segments already done) to go on from there.
   */
  events(jobId: string, afterSequence = 0, limit = 500): Promise<SequencePage<EventEnvelope>> {
    return this.#events.list(jobId, afterSequence, limit);
  }

  subscribe(jobId: string, afterSequence: number, onEvent: EventListener): Subscription {
    return this.#events.subscribe(jobId, afterSequence, onEvent);
  }

  /**
   * Resolves once the job has ended (its terminal row and event stored). A
   * job this runtime queued or runs is awaited in memory; any other (another
   * tab's) through its events, which costs a replay read.
   */
  whenEnded(jobId: string): Promise<void> {
    const ending = this.#endings.get(jobId);
    if (ending) return ending.ended;
    return this.#events.subscribe(jobId, 0, () => undefined).closed;
  }

  /**
   * Start-up recovery of jobs whose tab is gone (their lease is free): one left
   * `running` is failed with JOB_INTERRUPTED, or queued again when its kind can
   * resume; a queued one is scheduled again, here. Jobs another live tab holds
   * are left to it. A job taken over is held first, then read again, so two
   * tabs starting at once never both take it.
   */
  async recover(): Promise<{ failed: number; requeued: number }> {
    let failed = 0;
    let requeued = 0;
    const stale = await this.#store.listByStatus(['running', 'queued']);
    stale.sort((a, b) => a.created_at.localeCompare(b.created_at));
    for (const listed of stale) {
      if (this.#running.has(listed.job_id) || this.#isQueued(listed) || this.#held.has(listed.job_id))
        continue;
      if (!(await this.#hold(listed.job_id))) continue;
      const job = await this.#store.get(listed.job_id);
      if (!job || isTerminalStatus(job.status)) {
        this.#release(listed.job_id);
        continue;
      }
      const handler = this.#handlers.get(job.kind);
      if (job.status === 'queued' && handler) {
        this.#enqueue(job);
        requeued++;
      } else if (job.status === 'running' && handler?.resumable) {
        const queued = { ...job, status: 'queued' as const, updated_at: toIsoUtc(this.#clock()) };
        try {
          await this.#commit(
            job.job_id,
            () => queued,
            'Queued',
            () => ({ status: 'queued', resumed: true }),
          );
        } catch (error) {
          // Not taken over after all: the next start (here or in another tab) tries again.
          this.#release(job.job_id);
          throw error;
        }
        this.#enqueue(queued);
        requeued++;
      } else {
        const error = handler
          ? new AppError('JOB_INTERRUPTED', 'The app was closed while this job was running. Start it again.')
          : new AppError('JOB_INTERRUPTED', `Jobs of kind "${job.kind}" are not available in this version.`);
        try {
          await this.#finish(job.job_id, 'failed', { error: error.toEnvelope().error });
        } finally {
          this.#release(job.job_id);
        }
        failed++;
      }
    }
    return { failed, requeued };
  }

  /** Resolves when no job is running or queued; used by tests and shutdown. */
  async idle(): Promise<void> {
    while (this.#running.size > 0 || [...this.#queues.values()].some((queue) => queue.length > 0)) {
      await Promise.all([...this.#running.values()].map((running) => running.settled));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await this.#pruning;
  }

  #isQueued(job: JobDto): boolean {
    return this.#queues.get(job.kind)?.includes(job.job_id) ?? false;
  }

  #enqueue(job: JobDto): void {
    if (!this.#endings.has(job.job_id)) {
      let resolve!: () => void;
      const ended = new Promise<void>((done) => (resolve = done));
      this.#endings.set(job.job_id, { ended, resolve });
    }
    const queue = this.#queues.get(job.kind) ?? [];
    queue.push(job.job_id);
    this.#queues.set(job.kind, queue);
    queueMicrotask(() => this.#pump(job.kind));
  }

  #removeFromQueue(job: JobDto): void {
    const queue = this.#queues.get(job.kind);
    if (queue)
      this.#queues.set(
        job.kind,
        queue.filter((id) => id !== job.job_id),
      );
  }

  #pump(kind: string): void {
    const handler = this.#handlers.get(kind);
    const queue = this.#queues.get(kind);
    if (!handler || !queue) return;
    const limit = Math.max(1, handler.concurrency ?? 1);
    while ((this.#runningByKind.get(kind) ?? 0) < limit && queue.length > 0) {
      const jobId = queue.shift()!;
      this.#runningByKind.set(kind, (this.#runningByKind.get(kind) ?? 0) + 1);
      const controller = new AbortController();
      const settled = this.#execute(handler, jobId, controller)
        .then(
          (ran) => {
            this.#handOver(jobId);
            return ran;
          },
          (error: unknown) => {
            // Not even its failure could be stored (storage full to the last byte, the database
            // gone): nothing more will come, and nobody awaits this promise to hear it, so say
            // it here, and end the job for those watching it (unstored): a view showed it
            // running for good. The stored row stays running until the next start's recover().
            this.#ended(jobId);
            console.warn(`jobs: ${jobId} could not be ended`, error);
            void this.#events
              .deliverUnstored(jobId, 'Failed', { error: failureOf(error) })
              .catch(() => undefined);
            return false;
          },
        )
        .then((ran) => {
          this.#running.delete(jobId);
          this.#runningByKind.set(kind, (this.#runningByKind.get(kind) ?? 1) - 1);
          // Counted once the job has left #running, which pruning never touches.
          if (ran) this.#countFinished(handler);
          this.#pump(kind);
        });
      this.#running.set(jobId, { controller, settled });
    }
  }

  async #execute(
    handler: JobHandler<never, unknown>,
    jobId: string,
    controller: AbortController,
  ): Promise<boolean> {
    const started = await this.#withLock(jobId, async () => {
      if (controller.signal.aborted) {
        await this.#finish(jobId, 'cancelled', {}, (job) => job.status === 'queued');
        return undefined;
      }
      return this.#commit(
        jobId,
        (job) => {
          if (!job || job.status !== 'queued') return undefined;
          const now = toIsoUtc(this.#clock());
          return { ...job, status: 'running', started_at: job.started_at ?? now, updated_at: now };
        },
        'Started',
        () => ({ status: 'running' }),
      );
    });
    if (!started) return false;

    const context: JobContext<never> = {
      jobId,
      input: started.input as never,
      signal: controller.signal,
      progress: (update, eventData) => this.#progress(jobId, update, eventData),
      emit: async (event, data) => {
        await this.#events.publish(jobId, event, data);
      },
    };

    let outcome: { status: JobStatus; result?: unknown; error?: ErrorEnvelope['error'] };
    try {
      const result = await handler.run(context);
      controller.signal.throwIfAborted();
      outcome = { status: 'completed', result: result ?? null };
    } catch (error) {
      outcome =
        controller.signal.aborted || isAbortError(error)
          ? { status: 'cancelled' }
          : { status: 'failed', error: failureOf(error) };
    }
    const unfinished = (job: JobDto) => !isTerminalStatus(job.status);
    await this.#withLock(jobId, async () => {
      try {
        await this.#finish(jobId, outcome.status, outcome, unfinished);
      } catch (error) {
        // Writing the end failed (a full storage refuses the finished row with
        // its result): end it as failed with that error, a smaller write, so
        // the job never stays "running" with nobody left to finish it. At the
        // quota's edge even the failed row and its event together may not fit:
        // then the row goes first on its own, and the event after it.
        const failure = { error: failureOf(error) };
        if (outcome.status !== 'failed' || outcome.error?.code !== failure.error.code) {
          try {
            await this.#finish(jobId, 'failed', failure, unfinished);
            return;
          } catch {
            // Fall through to the separate writes.
          }
        }
        await this.#finish(jobId, 'failed', failure, unfinished, { separately: true });
      }
    });
    return true;
  }

  async #progress(jobId: string, update: ProgressUpdate, eventData?: Record<string, unknown>): Promise<void> {
    const progress = progressOf(update);
    await this.#withLock(jobId, () =>
      this.#commit(
        jobId,
        (job) =>
          job?.status === 'running' ? { ...job, progress, updated_at: toIsoUtc(this.#clock()) } : undefined,
        'Progress',
        () => (eventData ? { ...eventData, ...progress } : progress),
      ),
    );
  }

  /**
   * Ends the job as `status`: its finished row and terminal event in one
   * commit. `when` (checked against the stored row) skips a job that has
   * already moved on; an illegal move is a STATE_CONFLICT.
   */
  async #finish(
    jobId: string,
    status: JobStatus,
    outcome: { result?: unknown; error?: ErrorEnvelope['error'] },
    when: (job: JobDto) => boolean = () => true,
    options: { separately?: boolean } = {},
  ): Promise<JobDto | undefined> {
    const event = status === 'completed' ? 'Completed' : status === 'failed' ? 'Failed' : 'Cancelled';
    const finished = await this.#commit(
      jobId,
      (job) => {
        if (!job || !when(job)) return undefined;
        if (!canTransition(job.status, status)) {
          throw new AppError('STATE_CONFLICT', `A ${job.status} job cannot become ${status}.`, {
            job_id: job.job_id,
            from: job.status,
            to: status,
          });
        }
        const now = toIsoUtc(this.#clock());
        return {
          ...job,
          status,
          result: status === 'completed' ? (outcome.result ?? null) : null,
          error: status === 'failed' ? (outcome.error ?? failureOf(undefined)) : null,
          updated_at: now,
          completed_at: now,
        };
      },
      event,
      (job) => {
        const kindError = this.#handlers.get(job.kind)?.cancelledError;
        return status === 'completed'
          ? { result: job.result }
          : status === 'failed'
            ? { error: job.error }
            : kindError
              ? { error: { ...kindError, details: {} } }
              : {};
      },
      options.separately,
    );
    if (finished) this.#ended(jobId);
    return finished;
  }

  /**
   * Writes the job's new row (`change` of the stored one; undefined writes
   * nothing) and publishes `event` for it: one transaction where the store
   * can (JobStore.commit) unless `separately`, else a read, a put and an
   * append, in that order.
   */
  async #commit(
    jobId: string,
    change: (current: JobDto | undefined) => JobDto | undefined,
    event: string,
    data: (job: JobDto) => unknown,
    separately = false,
  ): Promise<JobDto | undefined> {
    const commit = this.#store.commit;
    if (commit && !separately) {
      let written: JobDto | undefined;
      await this.#events.publishWith(jobId, event, async (timestamp) => {
        const done = await commit(jobId, change, { event, data, timestamp });
        written = done?.job;
        return done?.envelope;
      });
      return written;
    }
    const next = change(await this.#store.get(jobId));
    if (next === undefined) return undefined;
    await this.#store.put(next);
    await this.#events.publish(jobId, event, data(next));
    return next;
  }

  #ended(jobId: string): void {
    this.#release(jobId);
    this.#endings.get(jobId)?.resolve();
    this.#endings.delete(jobId);
  }

  /** Takes the job's lease for this runtime; false when another live tab holds it. */
  async #hold(jobId: string): Promise<boolean> {
    if (this.#held.has(jobId)) return true;
    const lease = await this.#leases.tryHold(jobLeaseName(jobId));
    if (!lease) return false;
    this.#held.set(jobId, lease);
    return true;
  }

  #release(jobId: string): void {
    this.#held.get(jobId)?.release();
    this.#held.delete(jobId);
  }

  /** A job this runtime stops driving without ending it (another tab moved it on): its events tell the end. */
  #handOver(jobId: string): void {
    this.#release(jobId);
    const ending = this.#endings.get(jobId);
    if (!ending) return;
    this.#endings.delete(jobId);
    void this.#events.subscribe(jobId, 0, () => undefined).closed.then(ending.resolve);
  }

  #countFinished(handler: JobHandler<never, unknown>): void {
    const keep = handler.keepFinished;
    if (keep === undefined) return;
    const count = (this.#finishedSincePrune.get(handler.kind) ?? PRUNE_FINISHED_EVERY - 1) + 1;
    if (count < PRUNE_FINISHED_EVERY) {
      this.#finishedSincePrune.set(handler.kind, count);
      return;
    }
    this.#finishedSincePrune.set(handler.kind, 0);
    this.#pruning = this.#pruning.then(() =>
      this.prune(handler.kind, keep).then(
        () => undefined,
        (error: unknown) => console.warn(`jobs: could not prune finished ${handler.kind} jobs`, error),
      ),
    );
  }

  async #withLock<T>(jobId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(jobId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.#locks.set(jobId, next);
    try {
      return await next;
    } finally {
      if (this.#locks.get(jobId) === next) this.#locks.delete(jobId);
    }
  }
}

function failureOf(error: unknown): ErrorEnvelope['error'] {
  const envelope = toErrorEnvelope(error, 'The job failed.');
  return envelope.error.code === 'INTERNAL_ERROR'
    ? { ...envelope.error, code: 'JOB_FAILED' }
    : envelope.error;
}
