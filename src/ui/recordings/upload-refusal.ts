import { errorInfo } from '../error-message';
import { audioFailureOf } from './audio-failure';
import type { RefusedUpload } from './transcription.svelte';

/**
 * An upload refused because its bytes are not audio the app can read: the user's to replace,
 * so it is said beside the picker, naming the file. Anything else (storage full, a crash) is
 * not about the file and goes to the usual error toast: null.
 */
export function uploadRefusal(error: unknown, fileName: string): RefusedUpload | null {
  const info = errorInfo(error);
  if (info?.code !== 'UNSUPPORTED_AUDIO_FORMAT') return null;
  const audio = audioFailureOf(error);
  return { name: fileName, detail: info.message.trim(), ...(audio && { audio }) };
}
