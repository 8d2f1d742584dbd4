import { isErrorCode } from '../contracts/error-codes';
import { isAbortError, isErrorEnvelope } from '../contracts/errors';

export interface ErrorInfo {
  code: string;
  message: string;
}

/** Codes that mean "the user stopped it": not an error worth a toast. */
const ABORT_CODES = new Set(['JOB_CANCELLED', 'TRANSCRIPTION_CANCELLED']);

/**
 * The code and message of anything thrown: an `AppError` (or one that lost its
 * class crossing a worker boundary), an error envelope, or anything else as
 * INTERNAL_ERROR without its text (it may hold stacks). Aborts give null.
 */
export function errorInfo(error: unknown): ErrorInfo | null {
  if (isAbortError(error)) return null;
  let info: ErrorInfo = { code: 'INTERNAL_ERROR', message: '' };
  if (isErrorEnvelope(error)) {
    info = { code: error.error.code, message: error.error.message };
  } else if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (isErrorCode(code)) info = { code, message: typeof message === 'string' ? message : '' };
  }
  return ABORT_CODES.has(info.code) ? null : info;
}

export function errorCodeOf(error: unknown): string | null {
  return errorInfo(error)?.code ?? null;
}

/** The text a user sees, or null when the error should stay silent (aborts). */
export function describeError(
  error: unknown,
  localize: (code: string, fallbackMessage: string) => string,
): string | null {
  const info = errorInfo(error);
  return info === null ? null : localize(info.code, info.message);
}

export interface ErrorParts {
  code: string;
  /** In the reader's language, chosen by the code. */
  text: string;
  /** The core's own message when it says more than the text (a URL, a status), else null. */
  detail: string | null;
}

export function errorParts(
  error: unknown,
  localize: (code: string, fallbackMessage: string) => string,
): ErrorParts | null {
  const info = errorInfo(error);
  if (info === null) return null;
  const text = localize(info.code, info.message);
  const detail = info.message.trim();
  return { code: info.code, text, detail: detail !== '' && detail !== text ? detail : null };
}

/**
 * Codes whose core message names the particular thing that went wrong (which file, field,
 * tool or command): a toast shows that after the text chosen by the code, so the reader gets
 * both their language and the specifics.
 */
export const DETAILED_CODES: ReadonlySet<string> = new Set([
  'ATTACHMENT_NOT_FOUND',
  'UNSUPPORTED_AUDIO_FORMAT',
  'TRANSCRIPTION_PROFILE_NOT_FOUND',
  'TRANSCRIPTION_MODEL_UNAVAILABLE',
  'DIARIZATION_MODEL_UNAVAILABLE',
  'TRANSCRIPTION_FAILED',
  'TRANSCRIPT_NOT_READY',
  'AGENT_RUN_NOT_FOUND',
  'TRACE_NOT_AVAILABLE',
  'TRACE_CURSOR_EXPIRED',
  'TRACE_CURSOR_INVALID',
  'PLUGIN_HOST_UNAVAILABLE',
  'PLUGIN_HOST_START_FAILED',
  'PLUGIN_HOST_UNHEALTHY',
  'MCP_INITIALIZE_FAILED',
  'MCP_CAPABILITY_UNSUPPORTED',
  'MCP_TOOL_SCHEMA_INVALID',
  'MCP_TOOL_CALL_FAILED',
  'MCP_TOOL_RESULT_TOO_LARGE',
  'MCP_TRUST_APPROVAL_REQUIRED',
  'PLUGIN_COMMAND_NOT_FOUND',
  'PLUGIN_COMMAND_CONFLICT',
  'PLUGIN_COMMAND_INVALID',
  'PLUGIN_COMMAND_ARGUMENT_INVALID',
  'PLUGIN_COMMAND_CONTEXT_INVALID',
  'PLUGIN_COMMAND_TIMEOUT',
  'PLUGIN_COMMAND_EXECUTION_FAILED',
  'PLUGIN_COMMAND_RESULT_INVALID',
  'PLUGIN_COMMAND_RESULT_TOO_LARGE',
  'PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH',
  'PLUGIN_SETTINGS_SCHEMA_INVALID',
  'PLUGIN_SETTINGS_VERSION_CONFLICT',
  'PLUGIN_SETTINGS_FIELD_INVALID',
  'PLUGIN_SETTINGS_REQUIRED',
  'PLUGIN_SECRET_FIELD_NOT_FOUND',
  'PLUGIN_SECRET_ACCESS_DENIED',
  'PLUGIN_SECRET_REQUIRED',
  'PLUGIN_SECRET_VALUE_INVALID',
  'PLUGIN_SECRET_STORE_ERROR',
  'PLUGIN_STORAGE_ERROR',
  'MODEL_CAPABILITY_MISMATCH',
  'MODEL_CONTEXT_LENGTH_EXCEEDED',
  'BENCHMARK_DATASET_NOT_FOUND',
  'BENCHMARK_DATASET_INVALID',
  'BENCHMARK_CONFIG_INVALID',
  'BENCHMARK_INDEX_INCOMPATIBLE',
  'BENCHMARK_RUN_NOT_FOUND',
  'BENCHMARK_RUN_FAILED',
  'SECRET_NOT_FOUND',
  'SECRET_STORE_ERROR',
  'PLUGIN_NOT_FOUND',
  'PLUGIN_PACKAGE_INVALID',
  'PLUGIN_MANIFEST_INVALID',
  'PLUGIN_ALREADY_INSTALLED',
]);

/** The one line a toast shows: the text by code, and for `DETAILED_CODES` the core's detail. */
export function toastText(parts: ErrorParts): string {
  return parts.detail !== null && DETAILED_CODES.has(parts.code)
    ? `${parts.text} ${parts.detail}`
    : parts.text;
}
