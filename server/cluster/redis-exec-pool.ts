import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { IdeCallbackClient } from '../agent/ide-callback-client';
import { runExecTask } from '../agent/run-exec-task';
import type { ModelRegistry } from '../models/model-registry';
import type { Logger } from '../ops/logger';
import type { AgentMetrics } from '../ops/metrics';
import {
  AgentErrorCode,
  errorText,
  modelNotFound,
  type AgentReply,
  type ExecCommand,
  type IdeCallbackAnswer,
  type IdeCallbackRequest,
  type RequestId,
  requestIdForLog,
} from '../protocol';
import type { ExecPool, PoolStats, TaskOwner } from '../tasks/exec-pool';
import type { CancelReason, TaskOutcome } from '../tasks/task-queue';
import { RedisConnectionSlots } from './connection-slots';

// Several instances, one queue: each backend has a BullMQ queue that every
// instance both feeds (from its own connections) and works on. The instance
// that holds a task's socket is its owner; whichever instance runs the task
// publishes the replies to the owner's channel, and the owner forwards them.
//
// Cancel: the owner answers "cancelled" at once and drops anything later for
// that task, marks it cancelled in Redis (a worker checks before starting)
// and broadcasts it (a worker running it aborts the model call).
// Failures: a worker that dies stops renewing its job's lock; BullMQ's stalled
// check fails the job and the owner answers worker_lost. An owner that loses
// Redis answers its tasks with `unavailable` at once.

export interface RedisExecPoolOptions {
  url: string;
  prefix: string;
  heartbeatMs: number;
  lockMs: number;
  backendConcurrency: Record<string, number>;
  /** Tasks this instance runs at once (per backend). */
  concurrency: number;
  /** Waiting tasks queue-wide before queue_full. */
  maxQueued: number;
  maxConnectionsPerKey: number;
  registry: ModelRegistry;
  metrics: AgentMetrics;
  logger: Logger;
  callbackTimeoutMs: number;
  taskTimeoutMs: number;
  agentVersion: string;
  instanceId: string;
}

interface JobData {
  token: string;
  owner: string;
  connectionId: string;
  ideCallbacks: boolean;
  command: ExecCommand;
  enqueuedAt: number;
}

type OutMessage =
  | { token: string; frame: AgentReply | IdeCallbackRequest }
  | { token: string; started: true }
  | { token: string; done: TaskOutcome | 'skipped' };

interface OwnedTask {
  token: string;
  owner: TaskOwner;
  requestId: RequestId;
  backend: string;
  jobId?: string;
  cancelled: boolean;
  started: boolean;
  enqueuedAt: number;
  settled: Promise<void>;
  settle: () => void;
}

/** Why a worker aborts a task it runs: the owner already answered, or this instance stops. */
type AbortWhy = 'cancelled' | 'shutdown' | 'redis_lost';

const UNAVAILABLE = errorText(
  AgentErrorCode.UNAVAILABLE,
  'the shared task queue (Redis) cannot be reached; try again later',
);
const LOST_REDIS = errorText(
  AgentErrorCode.UNAVAILABLE,
  'lost the connection to the shared task queue (Redis) while the task ran; send it again',
);
const WORKER_LOST = errorText(
  AgentErrorCode.WORKER_LOST,
  'the instance running this task stopped before it finished; send it again',
);

/** How long disconnect() waits for BullMQ to finish closing once every connection is cut. */
const QUEUE_CLOSE_WAIT_MS = 5_000;

export class RedisExecPool implements ExecPool {
  readonly #options: RedisExecPoolOptions;
  /** Commands and publishes; fails fast while Redis is away (no offline queue). */
  readonly #commands: Redis;
  readonly #subscriber: Redis;
  readonly slots: RedisConnectionSlots;
  readonly #queues = new Map<string, Queue<JobData>>();
  readonly #workers: Worker<JobData>[] = [];
  readonly #events: QueueEvents[] = [];
  /** BullMQ does not close connections it was given. */
  readonly #bullClients: Redis[] = [];
  /** The queues' own connections (no offline queue: adds fail fast while Redis is away). */
  readonly #queueClients: Redis[] = [];
  // Owner side.
  readonly #owned = new Map<string, OwnedTask>();
  readonly #byConnection = new Map<string, OwnedTask>();
  readonly #byJob = new Map<string, OwnedTask>();
  #nextToken = 0;
  #accepting = true;
  /** Per connection: the submission in progress, so the next waits for it. */
  readonly #chains = new Map<string, Promise<void>>();
  #queueWide: { waiting: number; active: number } = { waiting: 0, active: 0 };
  // Worker side.
  readonly #running = new Map<string, AbortController>();
  /** Every task this instance's workers are processing, until it settles. */
  readonly #processing = new Set<Promise<unknown>>();
  readonly #ideClients = new Set<IdeCallbackClient>();
  #heartbeat?: ReturnType<typeof setInterval>;
  #stopped = false;

  constructor(options: RedisExecPoolOptions) {
    this.#options = options;
    const base: RedisOptions = { lazyConnect: true, connectionName: `agent-${options.instanceId}` };
    this.#commands = new Redis(options.url, { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.#subscriber = new Redis(options.url, { ...base, maxRetriesPerRequest: null });
    for (const client of [this.#commands, this.#subscriber]) {
      client.on('error', (error: Error) => options.logger.debug('redis_error', { error: error.message }));
    }
    this.slots = new RedisConnectionSlots(
      this.#commands,
      { prefix: options.prefix, ttlMs: this.#ttlMs },
      options.maxConnectionsPerKey,
    );
  }

  get #ttlMs(): number {
    return this.#options.heartbeatMs * 3;
  }

  #key(...parts: string[]): string {
    return [this.#options.prefix, ...parts].join(':');
  }

  /**
   * The connections a submission needs without waiting: commands, the
   * subscriber and each queue's own (which fails fast while it reconnects, so
   * a task sent before it is back would be refused after all).
   */
  get #fastClients(): Redis[] {
    return [this.#commands, this.#subscriber, ...this.#queueClients];
  }

  get connected(): boolean {
    return this.#fastClients.every((client) => client.status === 'ready');
  }

  /** Resolves once those connections are up (again): for the tests of recovery. */
  async whenConnected(): Promise<void> {
    await Promise.all(
      this.#fastClients.map((client) =>
        client.status === 'ready' ? undefined : new Promise((resolve) => client.once('ready', resolve)),
      ),
    );
  }

  async start(): Promise<void> {
    const { logger, instanceId } = this.#options;
    try {
      await Promise.all([this.#commands.connect(), this.#subscriber.connect()]);
    } catch (error) {
      this.#commands.disconnect();
      this.#subscriber.disconnect();
      const where = new URL(this.#options.url);
      throw new Error(`Cannot reach Redis at ${where.host}: ${(error as Error).message}`, { cause: error });
    }
    this.#subscriber.on('message', (channel: string, message: string) => this.#onMessage(channel, message));
    await this.#subscriber.subscribe(this.#key('out', instanceId), this.#key('cancel'), this.#key('cbans'));
    // Anything in flight through a broken connection is lost: say so now
    // rather than leave the plugin waiting.
    this.#subscriber.on('close', () => this.#onRedisLost());
    this.#commands.on('close', () => this.#onRedisLost());
    // Back after Redis lost its data: announce this instance and its limits again.
    this.#commands.on('ready', () => void this.#beat().then(() => this.#applyLimits()));
    await this.#beat();
    const connection = { url: this.#options.url };
    for (const backend of this.#options.registry.backends()) {
      const name = `tasks-${backend}`;
      const queue = new Queue<JobData>(name, {
        connection: this.#bullConnection(connection, false),
        prefix: this.#options.prefix,
      });
      queue.on('error', (error) => logger.debug('queue_error', { backend, error: error.message }));
      this.#queues.set(backend, queue);
      const worker = new Worker<JobData>(name, (job) => this.#track(this.#process(job)), {
        connection: this.#bullConnection(connection, true),
        prefix: this.#options.prefix,
        concurrency: this.#options.concurrency,
        lockDuration: this.#options.lockMs,
        stalledInterval: Math.max(100, Math.floor(this.#options.lockMs / 2)),
        // A task that stalled may have streamed half its answer: running it
        // again would send the plugin a second, different answer.
        maxStalledCount: 0,
        // Seconds a blocked fetch waits; also how long close() may wait for it.
        drainDelay: 1,
        // After Redis comes back, pick up work soon rather than after the default 15 s.
        runRetryDelay: 1000,
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      });
      worker.on('error', (error) => logger.debug('worker_error', { backend, error: error.message }));
      this.#workers.push(worker);
      const events = new QueueEvents(name, {
        connection: this.#bullConnection(connection, true),
        prefix: this.#options.prefix,
        blockingTimeout: 1000,
      });
      events.on('error', (error) => logger.debug('queue_events_error', { backend, error: error.message }));
      events.on('failed', ({ jobId, failedReason }) => this.#onJobFailed(backend, jobId, failedReason));
      this.#events.push(events);
      await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);
    }
    await this.#applyLimits();
    this.#heartbeat = setInterval(() => void this.#beat(), this.#options.heartbeatMs);
    this.#heartbeat.unref();
    logger.info('redis_connected', {
      instance: instanceId,
      backends: this.#options.registry.backends().join(','),
    });
  }

  async #applyLimits(): Promise<void> {
    try {
      for (const [backend, queue] of this.#queues) {
        const limit = this.#options.backendConcurrency[backend];
        if (limit !== undefined) await queue.setGlobalConcurrency(limit);
      }
    } catch (error) {
      this.#options.logger.warn('backend_limits_failed', { error: (error as Error).message });
    }
  }

  #bullConnection(base: { url: string }, blocking: boolean): Redis {
    const client = new Redis(base.url, {
      maxRetriesPerRequest: null,
      enableOfflineQueue: blocking,
      connectionName: `agent-${this.#options.instanceId}`,
    });
    client.on('error', (error: Error) => this.#options.logger.debug('redis_error', { error: error.message }));
    this.#bullClients.push(client);
    if (!blocking) this.#queueClients.push(client);
    return client;
  }

  /** Alive, connection slots, and the queue-wide figures for /metrics. */
  async #beat(): Promise<void> {
    if (this.#stopped || this.#commands.status !== 'ready') return;
    try {
      await this.#commands.set(this.#key('instance', this.#options.instanceId), '1', 'PX', this.#ttlMs);
      await this.slots.refresh();
      const counts = await Promise.all(
        [...this.#queues.values()].map((queue) => queue.getJobCounts('waiting', 'prioritized', 'active')),
      );
      const waiting = counts.reduce((sum, c) => sum + (c.waiting ?? 0) + (c.prioritized ?? 0), 0);
      const active = counts.reduce((sum, c) => sum + (c.active ?? 0), 0);
      this.#queueWide = { waiting, active };
    } catch (error) {
      this.#options.logger.debug('heartbeat_failed', { error: (error as Error).message });
    }
  }

  stats(): PoolStats {
    let queued = 0;
    for (const task of this.#owned.values()) if (!task.started) queued++;
    return { queued, running: this.#running.size };
  }

  /** For /metrics: the whole deployment's queue, as of the last heartbeat. */
  queueWide(): { waiting: number; active: number } {
    return this.#queueWide;
  }

  // ---- owner side ----------------------------------------------------------

  /**
   * Tasks of one connection are taken in order: the queue length is read from
   * Redis before each, and a later frame must not overtake an earlier one.
   */
  submit(owner: TaskOwner, command: ExecCommand): void {
    this.#chain(owner, command.request_id, () => this.#submitNow(owner, command));
  }

  refuse(owner: TaskOwner, requestId: RequestId | null, error: string): void {
    this.#chain(owner, requestId, () => {
      const previous = this.#byConnection.get(owner.id);
      if (previous) this.#cancel(previous, 'replaced');
      owner.send({ request_id: requestId, error });
    });
  }

  #chain(owner: TaskOwner, requestId: RequestId | null, step: () => Promise<void> | void): void {
    const previous = this.#chains.get(owner.id) ?? Promise.resolve();
    const next = previous.then(step).catch((error: unknown) => {
      this.#options.logger.error('task_submit_failed', {
        connection: owner.id,
        error: (error as Error).name,
      });
      owner.send({ request_id: requestId, error: AgentErrorCode.INTERNAL });
    });
    this.#chains.set(owner.id, next);
    void next.finally(() => {
      if (this.#chains.get(owner.id) === next) this.#chains.delete(owner.id);
    });
  }

  async #submitNow(owner: TaskOwner, command: ExecCommand): Promise<void> {
    const { logger, metrics, registry } = this.#options;
    const requestId = command.request_id;
    const fields = {
      connection: owner.id,
      key: owner.keyName,
      request_id: requestIdForLog(requestId),
      cmd: command.cmd,
    };
    const refuse = (reason: string, error: string) => {
      metrics.rejected++;
      logger.warn('task_refused', { ...fields, reason });
      owner.send({ request_id: requestId, error });
    };
    if (!owner.isOpen()) return;
    if (!this.#accepting) return refuse('shutting_down', AgentErrorCode.SHUTTING_DOWN);
    if (!this.connected) return refuse('unavailable', UNAVAILABLE);
    const modelName = command.model ?? (await registry.defaultModel());
    if (!owner.isOpen()) return;
    const resolved = modelName ? registry.resolve(modelName) : undefined;
    const queue = resolved && this.#queues.get(resolved.backend);
    const previous = this.#byConnection.get(owner.id);
    if (!resolved || !queue) {
      if (previous) this.#cancel(previous, 'replaced');
      metrics.failed++;
      owner.send({
        request_id: requestId,
        error: modelNotFound(modelName),
      });
      return;
    }
    // Far from full at the last heartbeat: no need to ask Redis again.
    let waiting = this.#queueWide.waiting;
    if (waiting >= this.#options.maxQueued / 2) {
      try {
        waiting = await queue.getJobCountByTypes('waiting', 'prioritized');
      } catch {
        return refuse('unavailable', UNAVAILABLE);
      }
      if (!owner.isOpen()) return;
    }
    // Nearly exact: tasks other instances add at this very moment are not seen.
    const replaced = previous && !previous.started ? 1 : 0;
    if (waiting - replaced >= this.#options.maxQueued) {
      return refuse(
        'queue_full',
        errorText(AgentErrorCode.QUEUE_FULL, 'too many tasks are waiting, try again later'),
      );
    }
    if (previous) this.#cancel(previous, 'replaced');

    let settle!: () => void;
    const task: OwnedTask = {
      token: `${this.#options.instanceId}/${owner.id}/${++this.#nextToken}`,
      owner,
      requestId,
      backend: resolved.backend,
      cancelled: false,
      started: false,
      enqueuedAt: Date.now(),
      settled: new Promise<void>((resolve) => (settle = resolve)),
      settle: () => settle(),
    };
    this.#owned.set(task.token, task);
    this.#byConnection.set(owner.id, task);
    const data: JobData = {
      token: task.token,
      owner: this.#options.instanceId,
      connectionId: owner.id,
      ideCallbacks: owner.ideCallbacks,
      command,
      enqueuedAt: task.enqueuedAt,
    };
    queue.add('task', data, { removeOnComplete: true, removeOnFail: true }).then(
      (job) => {
        task.jobId = job.id;
        if (job.id) this.#byJob.set(`${task.backend}:${job.id}`, task);
        if (task.cancelled && job.id) void queue.remove(job.id).catch(() => 0);
        logger.debug('task_queued', { ...fields, job: job.id });
      },
      (error: Error) => {
        logger.warn('task_enqueue_failed', { ...fields, error: error.message });
        this.#finish(task, 'failed', UNAVAILABLE);
      },
    );
  }

  cancelOwner(ownerId: string, reason: CancelReason): void {
    const task = this.#byConnection.get(ownerId);
    if (task) this.#cancel(task, reason);
  }

  #cancel(task: OwnedTask, reason: CancelReason): void {
    if (task.cancelled) return;
    task.cancelled = true;
    this.#forget(task);
    this.#options.metrics.cancelled++;
    this.#options.logger.info('task_cancelled', {
      connection: task.owner.id,
      request_id: requestIdForLog(task.requestId),
      reason,
    });
    if (reason !== 'disconnected')
      task.owner.send({ request_id: task.requestId, error: AgentErrorCode.CANCELLED });
    const queue = this.#queues.get(task.backend);
    // Marked first, then broadcast: a worker that checked before the mark
    // registered its abort before checking, so it hears the broadcast.
    void (async () => {
      try {
        await this.#commands.set(
          this.#key('cancelled', task.token),
          '1',
          'PX',
          Math.max(60_000, this.#options.lockMs * 4),
        );
        await this.#commands.publish(this.#key('cancel'), task.token);
        if (task.jobId && queue) await queue.remove(task.jobId);
      } catch {
        // Redis is away: the task's result has nowhere to go anyway.
      }
    })();
  }

  #forget(task: OwnedTask): void {
    this.#owned.delete(task.token);
    if (this.#byConnection.get(task.owner.id) === task) this.#byConnection.delete(task.owner.id);
    if (task.jobId) this.#byJob.delete(`${task.backend}:${task.jobId}`);
    task.settle();
  }

  /** Ends a task this instance owns with a last reply of its own. */
  #finish(task: OwnedTask, outcome: TaskOutcome, error?: string): void {
    if (task.cancelled || !this.#owned.has(task.token)) return;
    this.#forget(task);
    const { metrics } = this.#options;
    if (outcome === 'completed') {
      metrics.served++;
      metrics.latency.add(Date.now() - task.enqueuedAt);
    } else metrics.failed++;
    if (error) task.owner.send({ request_id: task.requestId, error });
  }

  #onMessage(channel: string, message: string): void {
    try {
      if (channel === this.#key('cancel')) {
        this.#running.get(message)?.abort('cancelled' satisfies AbortWhy);
        return;
      }
      if (channel === this.#key('cbans')) {
        const answer = JSON.parse(message) as IdeCallbackAnswer;
        for (const client of this.#ideClients) if (client.answer(answer)) return;
        return;
      }
      const out = JSON.parse(message) as OutMessage;
      const task = this.#owned.get(out.token);
      if (!task || task.cancelled) return;
      if ('frame' in out) {
        task.started = true;
        task.owner.send(out.frame);
      } else if ('started' in out) task.started = true;
      else if (out.done === 'skipped') this.#finish(task, 'failed', UNAVAILABLE);
      else this.#finish(task, out.done);
    } catch (error) {
      this.#options.logger.error('redis_message_failed', { channel, error: (error as Error).name });
    }
  }

  #onJobFailed(backend: string, jobId: string, reason: string): void {
    const task = this.#byJob.get(`${backend}:${jobId}`);
    if (!task) return;
    this.#options.logger.warn('task_worker_lost', {
      connection: task.owner.id,
      request_id: requestIdForLog(task.requestId),
      reason,
    });
    this.#finish(task, 'failed', WORKER_LOST);
  }

  #onRedisLost(): void {
    if (this.#stopped) return;
    for (const controller of this.#running.values()) controller.abort('redis_lost' satisfies AbortWhy);
    const lost = [...this.#owned.values()];
    if (lost.length > 0) this.#options.logger.warn('redis_lost', { tasks: lost.length });
    for (const task of lost) this.#finish(task, 'failed', LOST_REDIS);
  }

  routeCallbackAnswer(answer: IdeCallbackAnswer): void {
    this.#commands.publish(this.#key('cbans'), JSON.stringify(answer)).catch(() => undefined);
  }

  // ---- worker side ---------------------------------------------------------

  async #process(job: Job<JobData>): Promise<TaskOutcome | 'skipped'> {
    const { token, owner, command } = job.data;
    const { logger, metrics, registry, instanceId } = this.#options;
    const controller = new AbortController();
    this.#running.set(token, controller);
    const channel = this.#key('out', owner);
    const publish = (message: OutMessage) =>
      this.#commands.publish(channel, JSON.stringify(message)).then(
        () => undefined,
        () => undefined,
      );
    let ide: IdeCallbackClient | undefined;
    try {
      const [cancelled, ownerAlive] = await this.#commands.mget(
        this.#key('cancelled', token),
        this.#key('instance', owner),
      );
      if (cancelled || controller.signal.aborted) return 'skipped';
      if (!ownerAlive) {
        // Its plugin is gone with it; should the owner be alive after all, it hears why.
        await publish({ token, done: 'skipped' });
        return 'skipped';
      }
      metrics.queueWait.add(Math.max(0, Date.now() - job.data.enqueuedAt));
      logger.debug('task_started', {
        job: job.id,
        request_id: requestIdForLog(command.request_id),
        instance: instanceId,
      });
      void publish({ token, started: true });
      if (job.data.ideCallbacks) {
        ide = new IdeCallbackClient({
          send: (frame) => (void publish({ token, frame }), true),
          timeoutMs: this.#options.callbackTimeoutMs,
          idPrefix: `cb-${instanceId}-${job.id}`,
        });
        this.#ideClients.add(ide);
      }
      const started = performance.now();
      const outcome = await runExecTask(
        command,
        {
          registry,
          ide: ide?.forTask(command.request_id),
          reply: (frame) => void (controller.signal.aborted || publish({ token, frame })),
          sessionId: job.data.connectionId,
          taskTimeoutMs: this.#options.taskTimeoutMs,
          agentVersion: this.#options.agentVersion,
        },
        controller.signal,
      );
      const why = controller.signal.reason as AbortWhy | undefined;
      if (!controller.signal.aborted) {
        await publish({ token, done: outcome });
        logger.info('task_finished', {
          job: job.id,
          request_id: requestIdForLog(command.request_id),
          outcome,
          ms: Math.round(performance.now() - started),
        });
      } else if (why === 'shutdown') {
        // The owner is another instance still serving its plugin: it must hear the end.
        await publish({ token, frame: { request_id: command.request_id, error: AgentErrorCode.CANCELLED } });
        await publish({ token, done: 'failed' });
      }
      return outcome;
    } finally {
      this.#running.delete(token);
      if (ide) {
        ide.close();
        this.#ideClients.delete(ide);
      }
    }
  }

  // ---- lifecycle -----------------------------------------------------------

  /**
   * Refuse new tasks; this instance's tasks that have not started are
   * cancelled, started ones get `graceMs`; tasks this instance runs for
   * others finish or are aborted with a last "cancelled".
   */
  async shutdown(graceMs: number): Promise<{ cancelledQueued: number; abortedRunning: number }> {
    this.#accepting = false;
    const queued = [...this.#owned.values()].filter((task) => !task.started);
    for (const task of queued) this.#cancel(task, 'shutdown');
    // Stop fetching, but do not wait for the workers to close: a blocking read on a
    // connection that lived through a Redis restart may never return (disconnect()
    // cuts those connections). What must finish is the tasks, and those are tracked here.
    for (const worker of this.#workers) void worker.close().catch(() => undefined);
    const owned = () => Promise.all([...this.#owned.values()].map((task) => task.settled));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceOver = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), graceMs)),
    );
    const result = await Promise.race([
      Promise.all([owned(), this.#processed()]).then(() => 'done' as const),
      graceOver,
    ]);
    clearTimeout(timer);
    let abortedRunning = 0;
    if (result === 'timeout') {
      for (const task of [...this.#owned.values()]) {
        this.#cancel(task, 'shutdown');
        abortedRunning++;
      }
      for (const controller of this.#running.values()) controller.abort('shutdown' satisfies AbortWhy);
      await this.#processed();
    }
    return { cancelledQueued: queued.length, abortedRunning };
  }

  #track<T>(task: Promise<T>): Promise<T> {
    this.#processing.add(task);
    const forget = () => this.#processing.delete(task);
    task.then(forget, forget);
    return task;
  }

  /** Resolves once no task is being processed here (tasks fetched meanwhile included). */
  async #processed(): Promise<void> {
    while (this.#processing.size > 0) await Promise.allSettled([...this.#processing]);
  }

  /** After shutdown and after the sockets closed (their slots are given back through this connection). */
  async disconnect(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    await this.#commands.del(this.#key('instance', this.#options.instanceId)).catch(() => 0);
    // No task runs here any more (shutdown drained them), so BullMQ's connections can go
    // first: a blocking read on a connection that lived through a Redis restart may never
    // return, and closing the worker or the events reader would wait for it for ever.
    for (const client of this.#bullClients) client.disconnect();
    // BullMQ duplicates a given connection for its blocking reads; those it owns, so cut them too.
    for (const owner of [...this.#workers, ...this.#events]) void owner.disconnect().catch(() => undefined);
    const closed = Promise.all([
      ...this.#events.map((events) => events.close().catch(() => undefined)),
      ...[...this.#queues.values()].map((queue) => queue.close().catch(() => undefined)),
      ...this.#workers.map((worker) => worker.close(true).catch(() => undefined)),
    ]).then(() => 'closed' as const);
    // A close that still waits on a dead read must not keep the process from stopping:
    // every connection is cut already, so nothing is lost by moving on.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bounded = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), QUEUE_CLOSE_WAIT_MS);
    });
    if ((await Promise.race([closed, bounded])) === 'timeout') {
      this.#options.logger.warn('queue_close_timed_out', { wait_ms: QUEUE_CLOSE_WAIT_MS });
    }
    clearTimeout(timer);
    this.#subscriber.disconnect();
    await this.#commands.quit().catch(() => this.#commands.disconnect());
  }

  /**
   * Stops as a crash would (for tests of what the other instances do): no
   * lock released, no slot given back, nobody told.
   */
  async crash(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#heartbeat);
    this.#subscriber.disconnect();
    this.#commands.disconnect();
    // Cut first, so nothing this instance still runs can complete its job or renew its lock.
    for (const client of this.#bullClients) client.disconnect();
    for (const controller of this.#running.values()) controller.abort('shutdown' satisfies AbortWhy);
    await Promise.all([
      ...this.#workers.map((worker) => worker.close(true).catch(() => undefined)),
      ...this.#events.map((events) => events.close().catch(() => undefined)),
      ...[...this.#queues.values()].map((queue) => queue.close().catch(() => undefined)),
    ]);
  }
}
