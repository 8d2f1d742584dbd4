import type { IdeServices } from '../agent/ide-callback-client';
import type { AgentReply, ExecCommand, IdeCallbackAnswer, IdeCallbackRequest, RequestId } from '../protocol';
import type { CancelReason } from './task-queue';

// Where exec_* tasks go: the in-process FIFO pool (one instance, as before) or
// the Redis-backed one shared by several instances. Connections see only this.

/** The connection a task belongs to, as the pool sees it. */
export interface TaskOwner {
  readonly id: string;
  readonly keyName: string;
  /** The plugin declared it answers IDE call-backs. */
  readonly ideCallbacks: boolean;
  /** The socket is still open. */
  isOpen(): boolean;
  /** To the plugin; false when the socket is gone. */
  send(frame: AgentReply | IdeCallbackRequest): boolean;
  /** This connection's IDE services for a task run in this process. */
  ide(taskRequestId: RequestId): IdeServices | undefined;
}

export interface PoolStats {
  /** Tasks of this instance's connections waiting to start. */
  queued: number;
  /** Tasks this instance is running. */
  running: number;
}

export interface ExecPool {
  /**
   * Queues the task; a refusal (queue_full, shutting_down, unavailable) is
   * answered to the owner by the pool. The owner's previous task is cancelled.
   */
  submit(owner: TaskOwner, command: ExecCommand): void;
  /**
   * A task frame refused for what it holds (invalid, too large): it still
   * replaces the owner's previous task, which is cancelled (and answered) before
   * `error` is sent, in order with the owner's earlier submissions.
   */
  refuse(owner: TaskOwner, requestId: RequestId | null, error: string): void;
  cancelOwner(ownerId: string, reason: CancelReason): void;
  /** A call-back answer the connection itself did not ask for (another instance may have). */
  routeCallbackAnswer?(answer: IdeCallbackAnswer): void;
  stats(): PoolStats;
  shutdown(graceMs: number): Promise<{ cancelledQueued: number; abortedRunning: number }>;
}
