import { WebSocket, type RawData } from 'ws';
import { IdeCallbackClient } from '../agent/ide-callback-client';
import type { AgentServerConfig } from '../config';
import type { ModelRegistry } from '../models/model-registry';
import type { Logger } from '../ops/logger';
import {
  AgentErrorCode,
  encodeFrame,
  errorText,
  frameEnvelope,
  isCommandName,
  parseFrame,
  requestIdForLog,
  type AgentReply,
  type ExecCommand,
  type IdeCallbackRequest,
  type RequestId,
} from '../protocol';
import type { ExecPool, TaskOwner } from '../tasks/exec-pool';

// One plugin connection: frames in, replies and IDE call-backs out. Every
// frame gets handled here without throwing, whatever it contains.

export interface ConnectionDependencies {
  pool: ExecPool;
  registry: ModelRegistry;
  logger: Logger;
  config: Pick<AgentServerConfig, 'maxFrameBytes' | 'callbackTimeoutMs'>;
  /** The plugin declared that it answers IDE call-backs (see wantsIdeCallbacks). */
  ideCallbacks: boolean;
}

/** An error, or a reply that is not a streamed chunk with more to come, ends its request. */
function isLastReplyTo(frame: AgentReply | IdeCallbackRequest, requestId: RequestId): boolean {
  if (!('request_id' in frame) || frame.request_id !== requestId) return false;
  return 'error' in frame || !('stream_finish' in frame) || frame.stream_finish !== false;
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
  readonly #owner: TaskOwner;
  /** The request_id of this connection's task until its last reply is sent. */
  #openTask: RequestId | null = null;

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
    const ide = this.#ide;
    this.#owner = {
      id,
      keyName,
      ideCallbacks: deps.ideCallbacks,
      isOpen: () => this.#socket.readyState === WebSocket.OPEN,
      send: (frame) => {
        if (this.#openTask !== null && isLastReplyTo(frame, this.#openTask)) this.#openTask = null;
        return this.#send(frame);
      },
      ide: (taskRequestId) => ide.forTask(taskRequestId),
    };
  }

  #send(frame: AgentReply | IdeCallbackRequest): boolean {
    if (this.#socket.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(encodeFrame(frame));
    return true;
  }

  /**
   * A frame that names an exec_* cmd is a new task even when it is refused for
   * what it holds (§1.3 "同时提交两个task, 前一个会被取消"): the plugin has moved
   * on, so its previous task is cancelled, and answered, first.
   */
  #refuse(requestId: RequestId | null, error: string, cmd?: string): void {
    this.#deps.logger.debug('frame_refused', {
      ...this.#log,
      request_id: requestIdForLog(requestId),
      cmd: cmd && isCommandName(cmd) ? cmd : undefined,
      error: error.split(':')[0],
    });
    if (cmd !== 'list_model' && cmd !== undefined && isCommandName(cmd)) {
      return this.#deps.pool.refuse(this.#owner, requestId, error);
    }
    // The protocol's error reply carries the request's id (§2 "同request（必填）"), also when a
    // client reuses the id of its task still running for a frame that is no task (an unknown cmd
    // such as "cancel"): that frame stops nothing (the protocol has no cancel; a new task or
    // closing the socket stops one), and the task's own answer still follows.
    this.#send({ request_id: requestId, error });
  }

  /** Binary frames are read as UTF-8 text too: some clients send JSON that way. */
  handleMessage(data: RawData): void {
    try {
      // Size first: an oversized frame is never parsed, only scanned (linear,
      // at most HARD_FRAME_LIMIT_FACTOR × the limit) for its request_id and cmd,
      // which sorted-key encoders put after the big fields.
      const bytes = frameBytes(data);
      if (bytes > this.#deps.config.maxFrameBytes) {
        const detail = `${bytes} bytes, the limit is ${this.#deps.config.maxFrameBytes}`;
        const envelope = frameEnvelope(frameText(data));
        return this.#refuse(
          envelope.requestId,
          errorText(AgentErrorCode.FRAME_TOO_LARGE, detail),
          envelope.cmd,
        );
      }
      const parsed = parseFrame(frameText(data));
      switch (parsed.kind) {
        case 'invalid':
          return this.#refuse(parsed.requestId, parsed.error, parsed.cmd);
        case 'callback_answer':
          if (this.#ide.answer(parsed.answer)) return;
          // With several instances the task asking may run on another one.
          if (this.#deps.pool.routeCallbackAnswer) return this.#deps.pool.routeCallbackAnswer(parsed.answer);
          this.#deps.logger.debug('callback_answer_unmatched', { ...this.#log });
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
    this.#openTask = command.request_id;
    this.#deps.pool.submit(this.#owner, command);
  }

  /** The plugin is gone: its task and any upstream model call stop now. */
  handleClose(): void {
    this.#deps.pool.cancelOwner(this.id, 'disconnected');
    this.#ide.close();
  }
}
