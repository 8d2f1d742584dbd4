import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { claimedContainer, sniffAudioFormat, type AudioHints } from './audio-formats';
import { HEADERS } from './__fixtures__/audio-headers';
import { encodeWav, sine } from './__fixtures__/synthetic-audio';

function refusal(bytes: Uint8Array, hints?: AudioHints): AppError {
  try {
    sniffAudioFormat(bytes, hints);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected UNSUPPORTED_AUDIO_FORMAT');
}

describe('sniffAudioFormat', () => {
  const wav16 = encodeWav({ sampleRate: 16_000, channels: [sine(440, 0.01, 16_000)], encoding: 'pcm16' });
  const wavFloat = encodeWav({
    sampleRate: 16_000,
    channels: [sine(440, 0.01, 16_000)],
    encoding: 'float32',
    extensible: true,
  });

  it.each([
    ['wav pcm', wav16, 'wav', 'pcm', 'audio/wav'],
    ['wav float (extensible)', wavFloat, 'wav', 'float', 'audio/wav'],
    ['mp3', HEADERS.mp3, 'mp3', 'mp3', 'audio/mpeg'],
    ['mp3 behind ID3', HEADERS.mp3WithId3, 'mp3', 'mp3', 'audio/mpeg'],
    ['aac (ADTS)', HEADERS.aacAdts, 'aac', 'aac', 'audio/aac'],
    ['m4a', HEADERS.m4a, 'mp4', 'aac', 'audio/mp4'],
    ['ogg opus', HEADERS.oggOpus, 'ogg', 'opus', 'audio/ogg'],
    ['ogg vorbis', HEADERS.oggVorbis, 'ogg', 'vorbis', 'audio/ogg'],
    ['webm opus', HEADERS.webmOpus, 'webm', 'opus', 'audio/webm'],
    ['flac', HEADERS.flac, 'flac', 'flac', 'audio/flac'],
  ] as const)('detects %s from its bytes', (_label, bytes, container, codec, mime) => {
    expect(sniffAudioFormat(bytes)).toEqual({ container, codec, mime_type: mime });
  });

  it('trusts the bytes over a wrong name or MIME type', () => {
    expect(sniffAudioFormat(HEADERS.flac, { name: 'talk.wav', mime_type: 'audio/wav' }).container).toBe(
      'flac',
    );
  });

  it('finds an MP3 after leading junk only when the file says it is MP3', () => {
    expect(sniffAudioFormat(HEADERS.mp3AfterJunk, { name: 'Talk.MP3' }).container).toBe('mp3');
    expect(sniffAudioFormat(HEADERS.mp3AfterJunk, { mime_type: 'audio/mpeg' }).container).toBe('mp3');
    expect(refusal(HEADERS.mp3AfterJunk).code).toBe('UNSUPPORTED_AUDIO_FORMAT');
  });

  it.each([
    ['PNG', HEADERS.png, 'not_audio'],
    ['a truncated ID3 tag', HEADERS.truncatedId3, 'damaged'],
    ['text', HEADERS.text, 'not_audio'],
    ['three bytes', new Uint8Array([0xff, 0xfb, 0x90]), 'damaged'],
  ])('refuses %s with UNSUPPORTED_AUDIO_FORMAT and says why', (_label, bytes, reason) => {
    const error = refusal(bytes);
    expect(error.code).toBe('UNSUPPORTED_AUDIO_FORMAT');
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/not audio in a supported format \(WAV, MP3/);
    expect(error.details.reason).toBe(reason);
  });

  it.each([
    ['AIFF', HEADERS.aiff, 'AIFF'],
    ['Ogg Speex', HEADERS.oggSpeex, 'Ogg Speex'],
    ['Matroska video', HEADERS.matroskaVideo, 'Matroska (MKA/MKV)'],
    ['3GPP', HEADERS.threeGpp, '3GP (AMR)'],
  ])('refuses %s as a format this browser cannot decode, naming it', (_label, bytes, format) => {
    const error = refusal(bytes);
    expect(error.code).toBe('UNSUPPORTED_AUDIO_FORMAT');
    expect(error.details).toMatchObject({ reason: 'unsupported_format', format });
    expect(error.message).toBe(
      `This file is ${format} audio, which cannot be decoded here. Convert it to MP3, WAV or M4A.`,
    );
  });

  it('says what the file claimed to be when its content does not match', () => {
    const error = refusal(HEADERS.text, { name: 'lecture.m4a', mime_type: 'audio/x-m4a; codecs=mp4a.40.2' });
    expect(error.message).toContain('marked as M4A');
    expect(error.details).toEqual({
      mime_type: 'audio/x-m4a; codecs=mp4a.40.2',
      name: 'lecture.m4a',
      reason: 'not_audio',
    });
    expect(refusal(new Uint8Array(0)).message).toBe('The audio file is empty.');
    expect(refusal(new Uint8Array(0)).details.reason).toBe('damaged');
  });

  it('reads claims from MIME types (with parameters) and extensions', () => {
    expect(claimedContainer({ mime_type: 'audio/webm;codecs=opus' })).toBe('webm');
    expect(claimedContainer({ name: 'a.b.OPUS' })).toBe('ogg');
    expect(claimedContainer({ mime_type: 'application/octet-stream', name: 'x.flac' })).toBe('flac');
    expect(claimedContainer({ name: 'notes.txt' })).toBeUndefined();
  });
});
