import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorCodeEntry } from '../contracts/error-codes';
import { AppError } from '../contracts/errors';
import {
  coreDetail,
  describeError,
  errorCodeOf,
  errorParts,
  isOfflineFailure,
  OFFLINE_FAILURE_PREFIX,
  toastText,
} from './error-message';

const localize = (code: string, message: string) => `${code}:${message}`;

describe('describeError', () => {
  it('uses the code and message of an AppError', () => {
    expect(describeError(new AppError('NOTE_NOT_FOUND', 'gone'), localize)).toBe('NOTE_NOT_FOUND:gone');
  });

  it('accepts envelopes and errors that lost their class', () => {
    expect(describeError({ error: { code: 'STORAGE_ERROR', message: 'm', details: {} } }, localize)).toBe(
      'STORAGE_ERROR:m',
    );
    expect(describeError({ name: 'AppError', code: 'PAYLOAD_TOO_LARGE', message: 'big' }, localize)).toBe(
      'PAYLOAD_TOO_LARGE:big',
    );
  });

  it('hides the text of unknown errors', () => {
    expect(describeError(new Error('stack /home/x'), localize)).toBe('INTERNAL_ERROR:');
    expect(describeError({ code: 'NOT_A_CODE', message: 'x' }, localize)).toBe('INTERNAL_ERROR:');
  });

  it('stays silent for aborts', () => {
    expect(describeError(new DOMException('stop', 'AbortError'), localize)).toBeNull();
    expect(describeError(new AppError('JOB_CANCELLED', 'cancelled'), localize)).toBeNull();
    expect(errorCodeOf(new AppError('NOTE_VERSION_CONFLICT', 'x'))).toBe('NOTE_VERSION_CONFLICT');
  });
});

describe('errorParts', () => {
  const friendly = (code: string, message: string) => (code === 'MODEL_NOT_FOUND' ? 'Not found.' : message);

  it("gives the text by code and keeps the core's wording as a detail", () => {
    expect(errorParts(new AppError('MODEL_NOT_FOUND', 'HTTP 404 at https://hub/x'), friendly)).toEqual({
      code: 'MODEL_NOT_FOUND',
      text: 'Not found.',
      detail: 'HTTP 404 at https://hub/x',
    });
  });

  it('has no detail when the text already is the message, or the message is empty', () => {
    expect(errorParts(new AppError('STORAGE_ERROR', 'disk'), friendly)?.detail).toBeNull();
    expect(errorParts(new AppError('MODEL_NOT_FOUND', ' '), friendly)?.detail).toBeNull();
  });

  it('stays silent for aborts', () => {
    expect(errorParts(new AppError('TRANSCRIPTION_CANCELLED', 'x'), friendly)).toBeNull();
  });
});

describe('toastText', () => {
  it('adds the specifics to the text of a code whose message names them', () => {
    expect(
      toastText({
        code: 'UNSUPPORTED_AUDIO_FORMAT',
        text: '无法读取此音频格式。',
        detail: 'x.mp3 is not MP3.',
      }),
    ).toBe('无法读取此音频格式。 x.mp3 is not MP3.');
  });

  it('shows only the text for other codes, or without a detail', () => {
    expect(toastText({ code: 'NOTE_NOT_FOUND', text: 'Gone.', detail: 'No note n1.' })).toBe('Gone.');
    expect(toastText({ code: 'UNSUPPORTED_AUDIO_FORMAT', text: 'Unreadable.', detail: null })).toBe(
      'Unreadable.',
    );
  });

  it("follows each code's catalog entry, and nothing else decides", () => {
    for (const code of ERROR_CODES) {
      const line = toastText({ code, text: 'Text.', detail: 'Which one.' });
      expect(line).toBe(errorCodeEntry(code).detailed ? 'Text. Which one.' : 'Text.');
    }
    expect(toastText({ code: 'NOT_A_CODE', text: 'Text.', detail: 'Which one.' })).toBe('Text.');
  });
});

describe('coreDetail', () => {
  it('shows an English reader the core message whenever it says more', () => {
    expect(coreDetail('PROVIDER_UNAVAILABLE', 'Could not reach the provider.', 'Unavailable.', 'en')).toBe(
      'Could not reach the provider.',
    );
    expect(coreDetail('PROVIDER_UNAVAILABLE', ' Unavailable. ', 'Unavailable.', 'en')).toBeNull();
    expect(coreDetail('PROVIDER_UNAVAILABLE', '', 'Unavailable.', 'en')).toBeNull();
  });

  it('shows another reader the English only where it names the particular thing', () => {
    expect(
      coreDetail('PROVIDER_UNAVAILABLE', 'Could not reach the provider.', 'AI 服务暂不可用。', 'zh-CN'),
    ).toBeNull();
    expect(coreDetail('UNSUPPORTED_AUDIO_FORMAT', 'x.mp3 is not MP3.', '无法读取此音频。', 'zh-CN')).toBe(
      'x.mp3 is not MP3.',
    );
    expect(coreDetail('NOT_A_CODE', 'Detail.', '文本。', 'zh-CN')).toBeNull();
  });
});

describe('isOfflineFailure', () => {
  const unreachable = {
    code: 'PROVIDER_UNAVAILABLE',
    message: 'Could not reach the provider: Failed to fetch.',
  };
  const seenOffline = {
    ...unreachable,
    message: `${OFFLINE_FAILURE_PREFIX}: the provider could not be reached.`,
  };

  it('keeps an online network failure as it was: server, CORS or URL', () => {
    expect(isOfflineFailure(unreachable)).toBe(false);
  });

  it('calls a failure offline when the core saw the device offline as it failed', () => {
    expect(isOfflineFailure(seenOffline)).toBe(true);
  });

  it('never calls a cancel or a server that answered offline', () => {
    expect(isOfflineFailure({ code: 'JOB_CANCELLED', message: 'The request was cancelled.' })).toBe(false);
    expect(isOfflineFailure({ code: 'PROVIDER_AUTH_FAILED', message: seenOffline.message })).toBe(false);
  });
});
