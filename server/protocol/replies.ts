import type { RequestId } from './request-id';

// Reply shapes of §2.3 and §2.2. A reply carries `msg` or `error`, never both;
// `request_id` is null only when it could not be read from the request.

export interface SuccessReply {
  request_id: RequestId;
  msg: string;
  /** Streaming only: 0, 1, 2… per request, in the order the chunks were sent. */
  stream_seq_id?: number;
  /** Streaming only: true on the last chunk, whose `msg` is empty. */
  stream_finish?: boolean;
}

export interface ModelListReply {
  request_id: RequestId;
  models: string[];
}

/** Always terminal: no more replies follow for that request_id. */
export interface ErrorReply {
  request_id: RequestId | null;
  error: string;
}

export type AgentReply = SuccessReply | ModelListReply | ErrorReply;
