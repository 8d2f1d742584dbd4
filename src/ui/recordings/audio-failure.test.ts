import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import { audioFailureMessage, audioFailureOf, refusedUploadMessages } from './audio-failure';

describe('audioFailureOf', () => {
  it('reads the reason from an AppError, an envelope or a stored job error', () => {
    const damaged = new AppError('UNSUPPORTED_AUDIO_FORMAT', 'cut short', {
      container: 'wav',
      reason: 'damaged',
    });
    expect(audioFailureOf(damaged)).toEqual({ reason: 'damaged' });
    expect(audioFailureOf(damaged.toEnvelope())).toEqual({ reason: 'damaged' });
    expect(
      audioFailureOf({
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        message: 'x',
        details: { reason: 'unsupported_format', format: 'WAV (IMA ADPCM)' },
      }),
    ).toEqual({ reason: 'unsupported_format', format: 'WAV (IMA ADPCM)' });
  });

  it('says nothing for other codes, unknown reasons, or a format it cannot name', () => {
    expect(
      audioFailureOf({ code: 'TRANSCRIPTION_FAILED', message: '', details: { reason: 'damaged' } }),
    ).toBeNull();
    expect(audioFailureOf({ code: 'UNSUPPORTED_AUDIO_FORMAT', message: '', details: {} })).toBeNull();
    expect(
      audioFailureOf({
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        message: '',
        details: { reason: 'no_page_decoder' },
      }),
    ).toBeNull();
    expect(
      audioFailureOf({
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        message: '',
        details: { reason: 'unsupported_format' },
      }),
    ).toBeNull();
    expect(audioFailureOf(undefined)).toBeNull();
  });
});

describe('messages', () => {
  it('asks for a new copy of a damaged file and a conversion of an unsupported one', () => {
    expect(audioFailureMessage({ reason: 'damaged' }).key).toBe('transcription.audio.damaged');
    expect(audioFailureMessage({ reason: 'unsupported_format', format: 'AMR' })).toEqual({
      key: 'transcription.audio.unsupported',
      params: { format: 'AMR' },
    });
    expect(refusedUploadMessages('a.m4a', { reason: 'unsupported_format', format: '3GP (AMR)' })).toEqual([
      { key: 'transcription.unsupportedUpload', params: { name: 'a.m4a', format: '3GP (AMR)' } },
      { key: 'transcription.unsupportedUploadNext' },
    ]);
    expect(refusedUploadMessages('a.mp3', { reason: 'damaged' })[1].key).toBe(
      'transcription.damagedUploadNext',
    );
    expect(refusedUploadMessages('a.mp3', null)[1].key).toBe('transcription.unreadableUploadNext');
  });
});
