import { WebSocket, type RawData } from 'ws';
import { IdeCallbackClient } from '../agent/ide-callback-client';
import { runExecTask } from '../agent/run-exec-task';
import type { AgentServerConfig } from '../config';
import type { ModelRegistry } from '../models/model-registry';
import type { Logger } from '../ops/logger';
import type { AgentMetrics } from '../ops/metrics';
import {
  AgentErrorCode,
  errorText,
  parseFrame,
  salvageRequestId,
  type AgentReply,
  type ExecCommand,
  type IdeCallbackRequest,
  type RequestId,
} from '../protocol';
import type { TaskQueue } from '../tasks/task-queue';

// One plugin connection: frames in, replies and IDE call-backs out. Every
// frame gets handled here without throwing, whatever it contains.

export interface ConnectionDependencies {
  queue: TaskQueue;
  registry: ModelRegistry;
  metrics: AgentMetrics;
  logger: Logger;
  config: Pick<AgentServerConfig, 'maxFrameBytes' | 'callbackTimeoutMs' | 'taskTimeoutMs'>;
  agentVersion: string;
}

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function frameBytes(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((sum, part) => sum + part.length, 0);
  return data.byteLength;
}

export class AgentConnection {
  readonly #socket: WebSocket;
  readonly #deps: ConnectionDependencies;
  readonly #ide: IdeCallbackClient;
  readonly #log: { connection: string; key: string };

  constructor(
    readonly id: string,
    readonly keyName: string,
    socket: WebSocket,
    deps: ConnectionDependencies,
  ) {
    this.#socket = socket;
    this.#deps = deps;
    this.#log = { connection: id, key: keyName };
    this.#ide = new IdeCallbackClient({
      send: (frame: IdeCallbackRequest) => this.#send(frame),
      timeoutMs: deps.config.callbackTimeoutMs,
      idPrefix: `cb-${id}`,
    });
  }

  #send(frame: AgentReply | IdeCallbackRequest): boolean {
    if (this.#socket.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }

  #refuse(requestId: RequestId | null, error: string): void {
    this.#deps.logger.debug('frame_refused', {
      ...this.#log,
      request_id: requestId,
      error: error.split(':')[0],
    });
    this.#send({ request_id: requestId, error });
  }

  /** Binary frames are read as UTF-8 text too: some clients send JSON that way. */
  handleMessage(data: RawData): void {
    try {
      const bytes = frameBytes(data);
      const text = frameText(data);
      if (bytes > this.#deps.config.maxFrameBytes) {
        const detail = `${bytes} bytes, the limit is ${this.#deps.config.maxFrameBytes}`;
        return this.#refuse(salvageRequestId(text), errorText(AgentErrorCode.FRAME_TOO_LARGE, detail));
      }
      const parsed = parseFrame(text);
      switch (parsed.kind) {
        case 'invalid':
          return this.#refuse(parsed.requestId, parsed.error);
        case 'callback_answer':
          if (!this.#ide.answer(parsed.answer)) {
            this.#deps.logger.debug('callback_answer_unmatched', { ...this.#log });
          }
          return;
        case 'command':
          if (parsed.command.cmd === 'list_model') return void this.#listModels(parsed.command.request_id);
          return this.#submit(parsed.command);
        default: {
          const unhandled: never = parsed;
          throw new Error(`Unhandled frame ${JSON.stringify(unhandled)}`);
        }
      }
    } catch (error) {
      // Last line of defence: a bug here must cost one reply, not the process.
      this.#deps.logger.error('frame_handler_failed', { ...this.#log, error: (error as Error).name });
      this.#send({ request_id: null, error: AgentErrorCode.INTERNAL });
    }
  }

  async #listModels(requestId: RequestId): Promise<void> {
    try {
      this.#send({ request_id: requestId, models: await this.#deps.registry.list() });
    } catch {
      this.#send({ request_id: requestId, error: AgentErrorCode.INTERNAL });
    }
  }

  #submit(command: ExecCommand): void {
    const { queue, logger, metrics, config } = this.#deps;
    const requestId = command.request_id;
    const fields = { ...this.#log, request_id: requestId, cmd: command.cmd };
    const result = queue.submit({
      ownerId: this.id,
      run: async (signal) => {
        const started = performance.now();
        const outcome = await runExecTask(
          command,
          {
            registry: this.#deps.registry,
            ide: this.#ide.forTask(requestId),
            // After a cancel the task's one reply was "cancelled"; nothing else may follow.
            reply: (reply) => void (signal.aborted || this.#send(reply)),
            sessionId: this.id,
            taskTimeoutMs: config.taskTimeoutMs,
            agentVersion: this.#deps.agentVersion,
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
        if (reason !== 'disconnected') this.#send({ request_id: requestId, error: AgentErrorCode.CANCELLED });
      },
    });
    if (!result.accepted) {
      metrics.rejected++;
      logger.warn('task_refused', { ...fields, reason: result.reason });
      const error =
        result.reason === 'queue_full'
          ? errorText(AgentErrorCode.QUEUE_FULL, 'too many tasks are waiting, try again later')
          : AgentErrorCode.SHUTTING_DOWN;
      this.#send({ request_id: requestId, error });
      return;
    }
    logger.debug('task_queued', { ...fields, stream: command.stream, queue_length: queue.queued });
  }

  /** The plugin is gone: its task and any upstream model call stop now. */
  handleClose(): void {
    this.#deps.queue.cancelOwner(this.id, 'disconnected');
    this.#ide.close();
  }
}
