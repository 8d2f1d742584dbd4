/**
 * MediaRecorder choices that do not need a browser: which container to ask
 * for, what to call the file, and what a failure to start means to a person.
 */

/** Preferred first: Opus in WebM (Chromium, Firefox), then Ogg, then MP4/AAC (Safari). */
export const RECORDING_MIME_TYPES = [
  'audio/webm;codecs=opus',
  'audio/webm',
  'audio/ogg;codecs=opus',
  'audio/mp4',
] as const;

/** The first type this browser can record; '' lets the browser pick its default. */
export function pickRecordingMimeType(isTypeSupported: (type: string) => boolean): string {
  return RECORDING_MIME_TYPES.find((type) => isTypeSupported(type)) ?? '';
}

const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'video/mp4': 'm4a',
};

/**
 * `Recording 2026-08-31 10-30-00.webm`, from the recorder's actual MIME type and the local start
 * time. `label` is the word in the reader's language ("录音"): the name is the job's and, later,
 * the note's title, so it should not be the one English word on a Chinese page.
 */
export function recordingFileName(mimeType: string, startedAt: Date, label = 'Recording'): string {
  const extension = EXTENSIONS[mimeType.split(';')[0]?.trim().toLowerCase() ?? ''] ?? 'webm';
  const pad = (value: number) => String(value).padStart(2, '0');
  const date = `${startedAt.getFullYear()}-${pad(startedAt.getMonth() + 1)}-${pad(startedAt.getDate())}`;
  const time = `${pad(startedAt.getHours())}-${pad(startedAt.getMinutes())}-${pad(startedAt.getSeconds())}`;
  return `${label.trim() || 'Recording'} ${date} ${time}.${extension}`;
}

export type RecorderFailure =
  'permission_denied' | 'no_microphone' | 'microphone_busy' | 'unsupported' | 'failed';

/** What getUserMedia's or MediaRecorder's error means (DOMException names per the Media Capture spec). */
export function recorderFailure(error: unknown): RecorderFailure {
  const name =
    error instanceof Error || (typeof error === 'object' && error !== null && 'name' in error)
      ? String((error as { name: unknown }).name)
      : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
    case 'PermissionDeniedError':
      return 'permission_denied';
    case 'NotFoundError':
    case 'OverconstrainedError':
    case 'DevicesNotFoundError':
      return 'no_microphone';
    case 'NotReadableError':
    case 'AbortError':
    case 'TrackStartError':
      return 'microphone_busy';
    case 'NotSupportedError':
    case 'TypeError':
      return 'unsupported';
    default:
      return 'failed';
  }
}
