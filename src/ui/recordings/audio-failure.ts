import type { MessageKey, MessageParams } from '../i18n';

/**
 * Why the core could not read an audio file: `details.reason` of UNSUPPORTED_AUDIO_FORMAT
 * (src/media/audio-failure.ts decides it; the page may not import it). Each asks for a
 * different next step: a damaged file is exported or recorded again, a format the browser
 * lacks is converted, and bytes that are no known audio may be either.
 */
export type AudioFailureReason = 'damaged' | 'unsupported_format' | 'not_audio';

export type AudioFailure =
  | { reason: 'damaged' | 'not_audio' }
  /** `format`: as a person knows it ("AMR", "WAV (IMA ADPCM)"). */
  | { reason: 'unsupported_format'; format: string };

const REASONS: ReadonlySet<string> = new Set<AudioFailureReason>([
  'damaged',
  'unsupported_format',
  'not_audio',
]);

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/**
 * The reason of an UNSUPPORTED_AUDIO_FORMAT failure, from an AppError, an error envelope
 * or a job's stored error (`{ code, message, details }`); null for any other error, or
 * one from a core that does not say.
 */
export function audioFailureOf(error: unknown): AudioFailure | null {
  const outer = record(error);
  const body = typeof outer.code === 'string' ? outer : record(outer.error);
  if (body.code !== 'UNSUPPORTED_AUDIO_FORMAT') return null;
  const details = record(body.details);
  const reason = details.reason;
  if (typeof reason !== 'string' || !REASONS.has(reason)) return null;
  if (reason !== 'unsupported_format') return { reason: reason as 'damaged' | 'not_audio' };
  // Without the format's name there is nothing precise to say: the code's own text is shown.
  const format = details.format;
  return typeof format === 'string' && format.trim() !== '' ? { reason, format } : null;
}

/** The sentence for a transcription that failed on its audio. */
export function audioFailureMessage(failure: AudioFailure): { key: MessageKey; params?: MessageParams } {
  switch (failure.reason) {
    case 'damaged':
      return { key: 'transcription.audio.damaged' };
    case 'unsupported_format':
      return { key: 'transcription.audio.unsupported', params: { format: failure.format } };
    case 'not_audio':
      return { key: 'transcription.audio.notAudio' };
  }
}

/** What a refused upload says: what is wrong with the file, then what to do about it. */
export function refusedUploadMessages(
  name: string,
  failure: AudioFailure | null,
): [{ key: MessageKey; params: MessageParams }, { key: MessageKey }] {
  if (failure?.reason === 'unsupported_format') {
    return [
      { key: 'transcription.unsupportedUpload', params: { name, format: failure.format } },
      { key: 'transcription.unsupportedUploadNext' },
    ];
  }
  return [
    { key: 'transcription.unreadableUpload', params: { name } },
    {
      key:
        failure?.reason === 'damaged'
          ? 'transcription.damagedUploadNext'
          : 'transcription.unreadableUploadNext',
    },
  ];
}
