import type { IndexStatusDto } from '../../contracts/search';
import { toastText } from '../error-message';
import { errorDetails } from '../errors';

/**
 * The index's last failure in the reader's language, chosen by its code, with
 * the core's own words after it only where the code's message names the
 * particular thing; null when nothing failed. A status from before codes were
 * sent shows its message as it is.
 */
export function indexErrorText(status: Pick<IndexStatusDto, 'error_code' | 'error_message'>): string | null {
  const message = status.error_message;
  if (message === null || message === '') return null;
  if (!status.error_code) return message;
  const parts = errorDetails({ code: status.error_code, message });
  return parts === null ? null : toastText(parts);
}
