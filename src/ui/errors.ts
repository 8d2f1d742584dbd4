import { describeError, errorInfo, errorParts, toastText, type ErrorParts } from './error-message';
import { errorText } from './i18n';
import { toasts } from './toasts/toasts.svelte';

/**
 * The one error funnel: any failed `core.*` call (or other workflow step) ends
 * here as a localized toast. Aborts and user cancellations stay silent.
 */
export function reportError(error: unknown): void {
  const parts = errorParts(error, errorText);
  if (parts === null) return;
  const message = toastText(parts);
  if (errorInfo(error)?.code === 'INTERNAL_ERROR') console.error(error);
  toasts.show(message, { kind: 'error', code: parts.code });
}

/** Localized text for an error without showing it (e.g. inside another message). */
export function errorMessage(error: unknown): string | null {
  return describeError(error, errorText);
}

/**
 * The localized text by code and the core's own wording as a detail (it may name a URL or an
 * HTTP status the code cannot), for places that show an error inline. Null for aborts.
 */
export function errorDetails(error: unknown): ErrorParts | null {
  return errorParts(error, errorText);
}

/**
 * Promises nobody awaited still reach the funnel. Only project errors are
 * shown; anything else (a library's internal failure) is logged, not toasted.
 */
export function installGlobalErrorHandlers(target: Window = window): () => void {
  const onRejection = (event: PromiseRejectionEvent) => {
    const info = errorInfo(event.reason);
    if (info === null) {
      event.preventDefault();
      return;
    }
    if (info.code !== 'INTERNAL_ERROR') {
      event.preventDefault();
      reportError(event.reason);
    }
  };
  target.addEventListener('unhandledrejection', onRejection);
  return () => target.removeEventListener('unhandledrejection', onRejection);
}
