import { describe, expect, it } from 'vitest';
import { HEADERS } from './__fixtures__/audio-headers';
import { encodeWav, sine } from './__fixtures__/synthetic-audio';
import { codecContentType, foreignAudioFormat, whyUndecodable, whyUnrecognised } from './audio-failure';

const ascii = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function box(type: string, body: Uint8Array = new Uint8Array()): Uint8Array {
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(ascii(type), 4);
  out.set(body, 8);
  return out;
}

describe('whyUnrecognised', () => {
  it('calls bytes that match no audio format not audio', () => {
    expect(whyUnrecognised(HEADERS.text)).toEqual({ reason: 'not_audio' });
    expect(whyUnrecognised(HEADERS.png)).toEqual({ reason: 'not_audio' });
    expect(whyUnrecognised(ascii('RIFF\x10\0\0\0WEBPVP8 '))).toEqual({ reason: 'not_audio' });
    expect(whyUnrecognised(concat(ascii('\0\0\0\x14ftypheic'), new Uint8Array(8)))).toEqual({
      reason: 'not_audio',
    });
  });

  it('calls a supported container cut short or broken damaged', () => {
    expect(whyUnrecognised(new Uint8Array())).toEqual({ reason: 'damaged' });
    expect(whyUnrecognised(HEADERS.truncatedId3)).toEqual({ reason: 'damaged' });
    expect(whyUnrecognised(ascii('RIFF\x24\0'))).toEqual({ reason: 'damaged' });
    expect(whyUnrecognised(ascii('OggS\0\x02'))).toEqual({ reason: 'damaged' });
    // An MPEG layer III sync word with an impossible bitrate.
    expect(whyUnrecognised(Uint8Array.from([0xff, 0xfb, 0xf0, 0x00, 1, 2, 3]))).toEqual({
      reason: 'damaged',
    });
  });

  it('names audio formats the browser cannot decode as unsupported', () => {
    expect(whyUnrecognised(ascii('#!AMR\n<\x91\x17\x16'))).toEqual({
      reason: 'unsupported_format',
      format: 'AMR',
    });
    expect(whyUnrecognised(ascii('#!AMR-WB\n\x04'))).toEqual({
      reason: 'unsupported_format',
      format: 'AMR-WB',
    });
    expect(whyUnrecognised(HEADERS.aiff)).toEqual({ reason: 'unsupported_format', format: 'AIFF' });
    expect(whyUnrecognised(HEADERS.threeGpp)).toEqual({ reason: 'unsupported_format', format: '3GP (AMR)' });
    expect(whyUnrecognised(HEADERS.oggSpeex)).toEqual({ reason: 'unsupported_format', format: 'Ogg Speex' });
    expect(whyUnrecognised(HEADERS.matroskaVideo)).toEqual({
      reason: 'unsupported_format',
      format: 'Matroska (MKA/MKV)',
    });
    const wma = Uint8Array.from([0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9, 0, 0xaa]);
    expect(whyUnrecognised(wma)).toEqual({ reason: 'unsupported_format', format: 'WMA/ASF' });
    // MPEG-1 layer II (MP2) frame header.
    expect(whyUnrecognised(Uint8Array.from([0xff, 0xfd, 0x90, 0x64, 0, 0]))).toEqual({
      reason: 'unsupported_format',
      format: 'MPEG layer II (MP2)',
    });
  });

  it('knows a foreign format only by its own magic', () => {
    expect(foreignAudioFormat(ascii('caff\0\x01'))).toBe('CAF');
    expect(foreignAudioFormat(ascii('#!AM'))).toBeUndefined();
    expect(foreignAudioFormat(HEADERS.mp3)).toBeUndefined();
  });
});

describe('whyUndecodable', () => {
  it('calls a file whose codec the sniffer named damaged when it does not decode', () => {
    expect(whyUndecodable(HEADERS.mp3, { container: 'mp3', codec: 'mp3' })).toEqual({ reason: 'damaged' });
    expect(whyUndecodable(HEADERS.m4a, { container: 'mp4', codec: 'aac' })).toEqual({ reason: 'damaged' });
  });

  it('calls a named codec the browser says it lacks unsupported, naming it', () => {
    expect(whyUndecodable(HEADERS.m4a, { container: 'mp4', codec: 'aac' }, false)).toEqual({
      reason: 'unsupported_format',
      format: 'M4A (AAC)',
    });
    expect(whyUndecodable(HEADERS.m4a, { container: 'mp4', codec: 'aac' }, true)).toEqual({
      reason: 'damaged',
    });
  });

  it('asks about the codec in the container it came in', () => {
    expect(codecContentType({ container: 'mp4', codec: 'aac' })).toBe('audio/mp4; codecs="mp4a.40.2"');
    expect(codecContentType({ container: 'webm', codec: 'opus' })).toBe('audio/webm; codecs="opus"');
    expect(codecContentType({ container: 'mp3', codec: 'mp3' })).toBe('audio/mpeg');
    expect(codecContentType({ container: 'mp4', codec: 'unknown' })).toBeUndefined();
  });

  it('tells a WAV in another encoding from one whose header was cut off', () => {
    const wav = encodeWav({ sampleRate: 8_000, channels: [sine(440, 0.01, 8_000)], encoding: 'pcm16' });
    const adpcm = wav.slice();
    new DataView(adpcm.buffer).setUint16(20, 0x11, true);
    expect(whyUndecodable(adpcm, { container: 'wav', codec: 'unknown' })).toEqual({
      reason: 'unsupported_format',
      format: 'WAV (IMA ADPCM)',
    });
    expect(whyUndecodable(wav.subarray(0, 14), { container: 'wav', codec: 'unknown' })).toEqual({
      reason: 'damaged',
    });
  });

  it('calls an M4A without its index (cut short) damaged, and one with an unknown sample entry unsupported', () => {
    const ftyp = box('ftyp', ascii('M4A \0\0\0\0M4A isom'));
    const mdat = box('mdat', new Uint8Array(64));
    expect(whyUndecodable(concat(ftyp, mdat), { container: 'mp4', codec: 'unknown' })).toEqual({
      reason: 'damaged',
    });
    // The mdat says 72 bytes, but the download stopped after 40.
    expect(
      whyUndecodable(concat(ftyp, mdat).subarray(0, ftyp.length + 40), {
        container: 'mp4',
        codec: 'unknown',
      }),
    ).toEqual({ reason: 'damaged' });
    const alac = concat(ftyp, mdat, box('moov', box('trak', box('alac', new Uint8Array(28)))));
    expect(whyUndecodable(alac, { container: 'mp4', codec: 'unknown' })).toEqual({
      reason: 'unsupported_format',
      format: 'M4A/MP4 (ALAC)',
    });
    // AAC whose index comes after a large mdat: named there, so a failure is damage.
    const late = concat(ftyp, mdat, box('moov', box('mp4a', new Uint8Array(28))));
    expect(whyUndecodable(late, { container: 'mp4', codec: 'unknown' })).toEqual({ reason: 'damaged' });
  });

  it('names a WebM audio codec other than Opus or Vorbis, and calls one without tracks damaged', () => {
    const header = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84]);
    const aac = concat(
      header,
      ascii('webm'),
      new Uint8Array(24),
      Uint8Array.from([0x86, 0x85]),
      ascii('A_AAC'),
    );
    expect(whyUndecodable(aac, { container: 'webm', codec: 'unknown' })).toEqual({
      reason: 'unsupported_format',
      format: 'WebM (A_AAC)',
    });
    const cut = concat(header, ascii('webm'), new Uint8Array(24));
    expect(whyUndecodable(cut, { container: 'webm', codec: 'unknown' })).toEqual({ reason: 'damaged' });
  });
});
