import { httpStatusFor, isErrorCode, type ErrorCode } from './error-codes';

/** Structured, safe-to-show details (§4.5): never stacks, bodies or secrets. */
export type ErrorDetails = Record<string, unknown>;

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details: ErrorDetails };
}

/**
 * The one error class of the project. Services throw it; the worker boundary
 * turns it into the envelope and back, so the UI branches on `code` only.
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = httpStatusFor(code);
    this.details = details;
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }

  static fromEnvelope(envelope: ErrorEnvelope): AppError {
    return new AppError(envelope.error.code, envelope.error.message, envelope.error.details);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function isAbortError(value: unknown): boolean {
  return (
    (typeof DOMException !== 'undefined' && value instanceof DOMException && value.name === 'AbortError') ||
    (value instanceof Error && value.name === 'AbortError')
  );
}

/**
 * Any thrown value to the envelope. Unknown errors become INTERNAL_ERROR with a
 * generic message: their text may hold stacks, paths or provider bodies.
 */
export function toErrorEnvelope(error: unknown, fallbackMessage = 'Something went wrong.'): ErrorEnvelope {
  if (error instanceof AppError) return error.toEnvelope();
  if (isAbortError(error)) {
    return { error: { code: 'JOB_CANCELLED', message: 'The operation was cancelled.', details: {} } };
  }
  if (isErrorEnvelope(error)) return error;
  return { error: { code: 'INTERNAL_ERROR', message: fallbackMessage, details: {} } };
}

export function isErrorEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const inner = (value as { error: unknown }).error;
  return (
    typeof inner === 'object' &&
    inner !== null &&
    isErrorCode((inner as { code?: unknown }).code) &&
    typeof (inner as { message?: unknown }).message === 'string'
  );
}
