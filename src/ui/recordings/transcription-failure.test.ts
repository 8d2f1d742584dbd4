import { describe, expect, it } from 'vitest';
import { transcriptionFailureMessage } from './transcription-failure';

describe('transcriptionFailureMessage', () => {
  it('says where recognition failed when the core named the window', () => {
    expect(transcriptionFailureMessage({ code: 'TRANSCRIPTION_FAILED', at: 125 })).toEqual({
      key: 'transcriptionFailure.failedAt',
      params: { time: '2:05' },
    });
    expect(transcriptionFailureMessage({ code: 'TRANSCRIPTION_FAILED' })).toEqual({
      key: 'transcriptionFailure.failed',
    });
  });

  it('has a next step for a missing recording, a missing model profile and a job that just stopped', () => {
    expect(transcriptionFailureMessage({ code: 'ATTACHMENT_NOT_FOUND' })?.key).toBe(
      'transcriptionFailure.audioGone',
    );
    expect(transcriptionFailureMessage({ code: 'TRANSCRIPTION_PROFILE_NOT_FOUND' })?.key).toBe(
      'transcriptionFailure.profileGone',
    );
    for (const code of ['JOB_FAILED', 'JOB_INTERRUPTED', 'INTERNAL_ERROR']) {
      expect(transcriptionFailureMessage({ code })?.key).toBe('transcriptionFailure.interrupted');
    }
  });

  it('leaves codes whose own text says what to do, and cancellations, to that text', () => {
    for (const code of [
      'UNSUPPORTED_AUDIO_FORMAT',
      'TRANSCRIPTION_MODEL_UNAVAILABLE',
      'DIARIZATION_MODEL_UNAVAILABLE',
      'TRANSCRIPTION_CANCELLED',
      'JOB_CANCELLED',
      'STORAGE_QUOTA_EXCEEDED',
      'SOMETHING_NEW',
    ]) {
      expect(transcriptionFailureMessage({ code })).toBeNull();
    }
  });
});
