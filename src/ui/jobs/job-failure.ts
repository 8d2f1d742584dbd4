/**
 * What a failed job other than an import (a model download, say) shows: first the wording its
 * error code has in the page's language, then the core's own message, which is English and
 * names the model and the cause, as the details. A code with no wording of its own shows the
 * core's message alone; so does one whose wording is that message.
 */
export function jobFailureText(
  error: { code: string; message: string },
  errorText: (code: string, fallbackMessage: string) => string,
): { text: string; detail: string | null } {
  const text = errorText(error.code, error.message);
  const message = error.message.trim();
  return { text, detail: message !== '' && message !== text.trim() ? message : null };
}
