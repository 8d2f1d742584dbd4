import { errorCodeEntry, isErrorCode } from '../contracts/error-codes';
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
 * The one line a toast shows: the text by code, and the core's detail after it
 * where the code's catalog entry says its message names the particular thing.
 */
export function toastText(parts: ErrorParts): string {
  return parts.detail !== null && isErrorCode(parts.code) && errorCodeEntry(parts.code).detailed
    ? `${parts.text} ${parts.detail}`
    : parts.text;
}

/**
 * The core's own message to show under the localized text, or null. The core writes English:
 * an English reader gets it whenever it says more; any other reader only where the code's
 * catalog entry says the message names the particular thing (a file, a model), not a cause
 * the localized text already gives.
 */
export function coreDetail(code: string, coreMessage: string, shown: string, locale: string): string | null {
  const detail = coreMessage.trim();
  if (detail === '' || detail === shown) return null;
  if (locale === 'en') return detail;
  return isErrorCode(code) && errorCodeEntry(code).detailed ? detail : null;
}

/**
 * The start of the core's message for a provider call that failed while the device was
 * offline (src/providers/shared/errors.ts `DEVICE_OFFLINE_MESSAGE`; the UI may not import it).
 */
export const OFFLINE_FAILURE_PREFIX = 'The device is offline';

export interface ProviderFailure {
  code: string;
  /** The core's message. */
  message: string;
}

/**
 * A provider call that failed because the device is offline, as the core saw it when the call
 * failed (its message says so; never for a cancel, a server that answered, or one on this
 * machine). Not the page's state now: an old failure is not relabelled by going offline later.
 * Such a failure is not the server's, CORS's or the URL's fault, and its user should not be
 * sent to Settings to "fix" them.
 */
export function isOfflineFailure(failure: ProviderFailure): boolean {
  return failure.code === 'PROVIDER_UNAVAILABLE' && failure.message.startsWith(OFFLINE_FAILURE_PREFIX);
}
