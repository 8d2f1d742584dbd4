import { describe, expect, it } from 'vitest';
import { AUDIO_ACCEPT, checkAudioFile, firstAudioFile, unsupportedAudioFormat } from './audio-files';

const file = (name: string, type = '', size = 1000) => ({ name, type, size });

describe('checkAudioFile', () => {
  it('accepts every listed format by extension, whatever the case, even without a type', () => {
    for (const name of ['a.wav', 'b.MP3', 'c.m4a', 'd.aac', 'e.ogg', 'f.opus', 'g.webm', 'h.flac', 'i.Oga']) {
      expect(checkAudioFile(file(name))).toBeNull();
    }
  });

  it('accepts by MIME type (parameters ignored) when the name has no extension', () => {
    expect(checkAudioFile(file('recording', 'audio/webm;codecs=opus'))).toBeNull();
    expect(checkAudioFile(file('voice memo', 'audio/x-m4a'))).toBeNull();
    expect(checkAudioFile(file('blob', 'AUDIO/MPEG'))).toBeNull();
  });

  it('refuses files that are neither by name nor by type audio', () => {
    expect(checkAudioFile(file('notes.pdf', 'application/pdf'))).toBe('not_audio');
    expect(checkAudioFile(file('song.aiff', 'audio/aiff'))).toBe('unsupported_format');
    expect(checkAudioFile(file('README'))).toBe('not_audio');
  });

  it('names audio formats to convert first (AMR, WMA…), by extension or type', () => {
    expect(checkAudioFile(file('通话录音.amr', 'audio/amr'))).toBe('unsupported_format');
    expect(unsupportedAudioFormat(file('通话录音.amr'))).toBe('AMR');
    expect(unsupportedAudioFormat(file('lecture.WMA'))).toBe('WMA');
    expect(unsupportedAudioFormat(file('memo', 'audio/amr'))).toBe('AMR');
    expect(unsupportedAudioFormat(file('notes.pdf', 'application/pdf'))).toBeNull();
  });

  it('refuses an empty file', () => {
    expect(checkAudioFile(file('silence.wav', 'audio/wav', 0))).toBe('empty');
  });
});

describe('firstAudioFile', () => {
  it('takes the first of several files and judges it', () => {
    expect(firstAudioFile([file('a.txt', 'text/plain'), file('b.wav')])).toMatchObject({
      file: { name: 'a.txt' },
      rejection: 'not_audio',
    });
    expect(firstAudioFile([file('b.wav')])).toMatchObject({ file: { name: 'b.wav' }, rejection: null });
  });

  it('is null when nothing was dropped', () => {
    expect(firstAudioFile([])).toBeNull();
    expect(firstAudioFile(null)).toBeNull();
  });
});

describe('AUDIO_ACCEPT', () => {
  it('names each listed format for the file picker', () => {
    const accept = AUDIO_ACCEPT.split(',');
    for (const entry of ['.wav', '.mp3', '.m4a', '.aac', '.ogg', '.opus', '.webm', '.flac', 'audio/mpeg']) {
      expect(accept).toContain(entry);
    }
  });
});
