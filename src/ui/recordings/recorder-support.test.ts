import { describe, expect, it } from 'vitest';
import { pickRecordingMimeType, recorderFailure, recordingFileName } from './recorder-support';

describe('pickRecordingMimeType', () => {
  it('prefers Opus in WebM, then falls back in order', () => {
    expect(pickRecordingMimeType(() => true)).toBe('audio/webm;codecs=opus');
    expect(pickRecordingMimeType((type) => type.startsWith('audio/ogg'))).toBe('audio/ogg;codecs=opus');
    expect(pickRecordingMimeType((type) => type === 'audio/mp4')).toBe('audio/mp4');
  });

  it('leaves the choice to the browser when it supports none of them', () => {
    expect(pickRecordingMimeType(() => false)).toBe('');
  });
});

describe('recordingFileName', () => {
  const startedAt = new Date(2026, 7, 31, 9, 5, 7);

  it('names the file after the local start time with the container’s extension', () => {
    expect(recordingFileName('audio/webm;codecs=opus', startedAt)).toBe('Recording 2026-08-31 09-05-07.webm');
    expect(recordingFileName('audio/ogg; codecs=opus', startedAt)).toBe('Recording 2026-08-31 09-05-07.ogg');
    expect(recordingFileName('audio/mp4', startedAt)).toBe('Recording 2026-08-31 09-05-07.m4a');
  });

  it('falls back to .webm for a type it does not know', () => {
    expect(recordingFileName('', startedAt)).toBe('Recording 2026-08-31 09-05-07.webm');
  });

  it('starts with the word in the reader’s language, and never with nothing', () => {
    expect(recordingFileName('audio/webm', startedAt, '录音')).toBe('录音 2026-08-31 09-05-07.webm');
    expect(recordingFileName('audio/mp4', startedAt, '  ')).toBe('Recording 2026-08-31 09-05-07.m4a');
  });
});

describe('recorderFailure', () => {
  const domError = (name: string) => Object.assign(new Error(name), { name });

  it('tells a refused permission from a missing or busy microphone', () => {
    expect(recorderFailure(domError('NotAllowedError'))).toBe('permission_denied');
    expect(recorderFailure(domError('SecurityError'))).toBe('permission_denied');
    expect(recorderFailure(domError('NotFoundError'))).toBe('no_microphone');
    expect(recorderFailure(domError('NotReadableError'))).toBe('microphone_busy');
    expect(recorderFailure(domError('NotSupportedError'))).toBe('unsupported');
  });

  it('reads plain objects with a name (what Comlink or old browsers hand over)', () => {
    expect(recorderFailure({ name: 'NotAllowedError' })).toBe('permission_denied');
  });

  it('calls anything else a failure', () => {
    expect(recorderFailure(new Error('boom'))).toBe('failed');
    expect(recorderFailure('nope')).toBe('failed');
    expect(recorderFailure(null)).toBe('failed');
  });
});
