import { AppError } from '../contracts';

/**
 * What a user reads when the site's storage is full. It names what shares the
 * space so the user knows what to free; the UI localizes by code and offers
 * Settings → Storage.
 */
export const STORAGE_QUOTA_MESSAGE =
  'Storage for this site is full. Notes, attachments, note versions, downloaded models and caches ' +
  'share it; free space in Settings → Storage. Your unsaved text is kept and saved once there is room.';

const QUOTA_NAMES = new Set(['QuotaExceededError', 'NS_ERROR_DOM_QUOTA_REACHED']);
/** Deep enough for Dexie's wrappers (AbortError → inner → DOMException); bounded against cycles. */
const MAX_DEPTH = 5;

/**
 * True when a storage failure was caused by the quota, however it arrives:
 * the browser's own QuotaExceededError, Dexie's wrapper of it, or the
 * AbortError of a transaction the quota aborted (Dexie keeps the cause in
 * `inner`; IndexedDB keeps it on the transaction's `error`; a BulkError lists
 * it among its `failures`).
 */
export function isQuotaExceededError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const shape = error as {
    name?: unknown;
    code?: unknown;
    inner?: unknown;
    cause?: unknown;
    failures?: unknown;
    transaction?: { error?: unknown } | null;
    target?: { error?: unknown; transaction?: { error?: unknown } | null } | null;
  };
  if (typeof shape.name === 'string' && QUOTA_NAMES.has(shape.name)) return true;
  // An AppError that already says so (a repository above a repository).
  if (shape.code === 'STORAGE_QUOTA_EXCEEDED') return true;
  const causes: unknown[] = [shape.inner, shape.cause, shape.transaction?.error, shape.target?.error];
  causes.push(shape.target?.transaction?.error);
  if (Array.isArray(shape.failures)) causes.push(...(shape.failures as unknown[]));
  return causes.some((cause) => cause !== error && isQuotaExceededError(cause, depth + 1));
}

/** The contract's STORAGE_QUOTA_EXCEEDED for a quota failure; any other error unchanged. */
export function mapStorageError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  if (!isQuotaExceededError(error)) return error;
  return new AppError('STORAGE_QUOTA_EXCEEDED', STORAGE_QUOTA_MESSAGE, {});
}

/**
 * Runs a write and turns a quota failure into STORAGE_QUOTA_EXCEEDED. Every
 * repository write goes through it, so a full disk is never mistaken for a
 * user's cancel (Dexie reports it as an AbortError). The write is one
 * transaction, which the browser has rolled back: nothing is half-applied.
 */
export async function guardQuota<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw mapStorageError(error);
  }
}
