import { runExecTask } from '../agent/run-exec-task';
import type { ModelRegistry } from '../models/model-registry';
import type { Logger } from '../ops/logger';
import type { AgentMetrics } from '../ops/metrics';
import { AgentErrorCode, errorText, requestIdForLog, type ExecCommand, type RequestId } from '../protocol';
import type { ExecPool, PoolStats, TaskOwner } from './exec-pool';
import { TaskQueue, type CancelReason } from './task-queue';

// One process: the FIFO TaskQueue runs every task here, with the connection's
// own IDE call-back client.

export interface LocalExecPoolOptions {
  registry: ModelRegistry;
  metrics: AgentMetrics;
  logger: Logger;
  maxQueued: number;
  concurrency: number;
  taskTimeoutMs: number;
  agentVersion: string;
}

export class LocalExecPool implements ExecPool {
  readonly #queue: TaskQueue;
  readonly #options: LocalExecPoolOptions;

  constructor(options: LocalExecPoolOptions) {
    this.#options = options;
    const { metrics } = options;
    this.#queue = new TaskQueue({
      maxQueued: options.maxQueued,
      concurrency: options.concurrency,
      onEvent: (event) => {
        if (event.type === 'started') return metrics.queueWait.add(event.waitMs);
        if (event.outcome === 'completed') {
          metrics.served++;
          metrics.latency.add(event.totalMs);
        } else if (event.outcome === 'failed') metrics.failed++;
        else metrics.cancelled++;
      },
    });
  }

  stats(): PoolStats {
    return { queued: this.#queue.queued, running: this.#queue.running };
  }

  submit(owner: TaskOwner, command: ExecCommand): void {
    const { logger, metrics, registry } = this.#options;
    const requestId = command.request_id;
    const fields = {
      connection: owner.id,
      key: owner.keyName,
      request_id: requestIdForLog(requestId),
      cmd: command.cmd,
    };
    const result = this.#queue.submit({
      ownerId: owner.id,
      run: async (signal) => {
        const started = performance.now();
        const outcome = await runExecTask(
          command,
          {
            registry,
            // A plugin that never declared call-backs would only make the task wait out the time-out.
            ide: owner.ideCallbacks ? owner.ide(requestId) : undefined,
            // After a cancel the task's one reply was "cancelled"; nothing else may follow.
            reply: (reply) => void (signal.aborted || owner.send(reply)),
            sessionId: owner.id,
            taskTimeoutMs: this.#options.taskTimeoutMs,
            agentVersion: this.#options.agentVersion,
            onIdeContext: (answered, failed) =>
              logger.debug('ide_context', {
                ...fields,
                callbacks_answered: answered,
                callbacks_failed: failed,
              }),
          },
          signal,
        );
        if (!signal.aborted) {
          logger.info('task_finished', { ...fields, outcome, ms: Math.round(performance.now() - started) });
        }
        return outcome;
      },
      onCancelled: (reason) => {
        logger.info('task_cancelled', { ...fields, reason });
        if (reason !== 'disconnected') owner.send({ request_id: requestId, error: AgentErrorCode.CANCELLED });
      },
    });
    if (!result.accepted) {
      metrics.rejected++;
      logger.warn('task_refused', { ...fields, reason: result.reason });
      const error =
        result.reason === 'queue_full'
          ? errorText(AgentErrorCode.QUEUE_FULL, 'too many tasks are waiting, try again later')
          : AgentErrorCode.SHUTTING_DOWN;
      owner.send({ request_id: requestId, error });
      return;
    }
    logger.debug('task_queued', { ...fields, stream: command.stream, queue_length: this.#queue.queued });
  }

  refuse(owner: TaskOwner, requestId: RequestId | null, error: string): void {
    this.#queue.cancelOwner(owner.id, 'replaced');
    owner.send({ request_id: requestId, error });
  }

  cancelOwner(ownerId: string, reason: CancelReason): void {
    this.#queue.cancelOwner(ownerId, reason);
  }

  shutdown(graceMs: number) {
    return this.#queue.shutdown(graceMs);
  }
}
