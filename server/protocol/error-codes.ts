/**
 * The `error` strings of failure replies. The protocol names only "cancelled";
 * the rest follow the same shape (`code` or `code: detail`) so a plugin can
 * switch on the part before the colon and show the rest to the user.
 */
export const AgentErrorCode = {
  CANCELLED: 'cancelled',
  INVALID_JSON: 'invalid_json',
  INVALID_REQUEST: 'invalid_request',
  UNKNOWN_CMD: 'unknown_cmd',
  FRAME_TOO_LARGE: 'frame_too_large',
  BINARY_FRAME: 'binary_frame',
  QUEUE_FULL: 'queue_full',
  SHUTTING_DOWN: 'shutting_down',
  MODEL_NOT_FOUND: 'model_not_found',
  /** The shared queue (Redis) cannot be reached; the task was not run, or its result was lost. */
  UNAVAILABLE: 'unavailable',
  /** The instance running the task stopped before it finished. */
  WORKER_LOST: 'worker_lost',
  INTERNAL: 'internal_error',
} as const;
export type AgentErrorCode = (typeof AgentErrorCode)[keyof typeof AgentErrorCode];

const MAX_DETAIL_LENGTH = 300;

/** `code` or `code: detail`, one line and bounded, so a reply never echoes a whole frame back. */
export function errorText(code: string, detail?: string): string {
  if (!detail) return code;
  const oneLine = detail.replace(/\s+/g, ' ').trim();
  const short = oneLine.length > MAX_DETAIL_LENGTH ? `${oneLine.slice(0, MAX_DETAIL_LENGTH)}…` : oneLine;
  return `${code}: ${short}`;
}

/** Detail for a command that names no model when list_model is empty and no default is configured. */
export const NO_DEFAULT_MODEL =
  'no model given and no default model: list_model is empty; set "defaultModel" in the config file ' +
  '(AGENT_SERVER_CONFIG), configure a remote provider, or pull a model into the local Ollama';

/** `model_not_found: <name>`, or how to get a default when the command named none. */
export function modelNotFound(model: string | undefined): string {
  return errorText(AgentErrorCode.MODEL_NOT_FOUND, model ?? NO_DEFAULT_MODEL);
}
