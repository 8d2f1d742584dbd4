import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/errors';
import { uploadRefusal } from './upload-refusal';

describe('uploadRefusal', () => {
  it('names the file and keeps the core’s explanation for audio it cannot read', () => {
    const error = new AppError(
      'UNSUPPORTED_AUDIO_FORMAT',
      'This file is marked as MP3, but its content is not MP3 audio. ',
    );
    expect(uploadRefusal(error, '第三讲.mp3')).toEqual({
      name: '第三讲.mp3',
      detail: 'This file is marked as MP3, but its content is not MP3 audio.',
    });
  });

  it('reads the code from an error envelope that crossed the worker boundary', () => {
    const envelope = { error: { code: 'UNSUPPORTED_AUDIO_FORMAT', message: 'The audio file is empty.' } };
    expect(uploadRefusal(envelope, 'a.wav')).toEqual({ name: 'a.wav', detail: 'The audio file is empty.' });
  });

  it('keeps why the core could not read it, and the format to convert from', () => {
    const amr = new AppError('UNSUPPORTED_AUDIO_FORMAT', 'This file is AMR audio…', {
      reason: 'unsupported_format',
      format: 'AMR',
    });
    expect(uploadRefusal(amr, 'memo.m4a')?.audio).toEqual({ reason: 'unsupported_format', format: 'AMR' });
    const envelope = {
      error: {
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        message: 'The audio file is empty.',
        details: { reason: 'damaged' },
      },
    };
    expect(uploadRefusal(envelope, 'a.wav')?.audio).toEqual({ reason: 'damaged' });
  });

  it('leaves every other failure to the error toast', () => {
    expect(uploadRefusal(new AppError('STORAGE_QUOTA_EXCEEDED', 'full'), 'a.wav')).toBeNull();
    expect(uploadRefusal(new Error('boom'), 'a.wav')).toBeNull();
    expect(uploadRefusal(undefined, 'a.wav')).toBeNull();
  });
});
