import type { MessageKey, MessageParams } from '../i18n';
import { formatTimestamp } from './transcript-time';

/**
 * What a failed transcription says first: what failed and what to do next, in the page's
 * language, chosen by the contract's error code (§5.5). The core's own English message
 * explains the cause to a developer and stays below, folded away, as the details.
 *
 * Null where the error code's own text already says both (a model that could not be
 * loaded points at Settings; unreadable audio is explained by its reason; storage that is
 * full), for codes this build does not know, and for a cancellation, which is no failure.
 */
export function transcriptionFailureMessage(error: {
  code: string;
  at?: number;
}): { key: MessageKey; params?: MessageParams } | null {
  switch (error.code) {
    case 'UNSUPPORTED_AUDIO_FORMAT':
    case 'TRANSCRIPTION_MODEL_UNAVAILABLE':
    case 'DIARIZATION_MODEL_UNAVAILABLE':
    case 'TRANSCRIPTION_CANCELLED':
    case 'JOB_CANCELLED':
      return null;
    case 'TRANSCRIPTION_FAILED':
      // Recognition broke on one window: saying where lets the user check that part of the audio.
      return error.at === undefined
        ? { key: 'transcriptionFailure.failed' }
        : { key: 'transcriptionFailure.failedAt', params: { time: formatTimestamp(error.at) } };
    case 'ATTACHMENT_NOT_FOUND':
      return { key: 'transcriptionFailure.audioGone' };
    case 'TRANSCRIPTION_PROFILE_NOT_FOUND':
      return { key: 'transcriptionFailure.profileGone' };
    case 'JOB_FAILED':
    case 'JOB_INTERRUPTED':
    case 'INTERNAL_ERROR':
      // No cause the user can act on beyond trying again.
      return { key: 'transcriptionFailure.interrupted' };
    default:
      // A code with its own words (storage full, say): those say more than "stopped".
      return null;
  }
}
