import { errorInfo } from '../error-message';
import type { RefusedUpload } from './transcription.svelte';

/**
 * An upload refused because its bytes are not audio the app can read: the user's to replace,
 * so it is said beside the picker, naming the file. Anything else (storage full, a crash) is
 * not about the file and goes to the usual error toast: null.
 */
export function uploadRefusal(error: unknown, fileName: string): RefusedUpload | null {
  const info = errorInfo(error);
  return info?.code === 'UNSUPPORTED_AUDIO_FORMAT' ? { name: fileName, detail: info.message.trim() } : null;
}
