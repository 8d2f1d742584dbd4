import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import {
  AudioDecoderChain,
  decodeAudio,
  decodeWav,
  durationOf,
  WavDecoder,
  WebAudioDecoder,
  type AudioBufferLike,
} from './audio-decoders';
import { sniffAudioFormat } from './audio-formats';
import { HEADERS } from './__fixtures__/audio-headers';
import { encodeWav, sine, type WavEncoding } from './__fixtures__/synthetic-audio';

async function expectUnsupported(
  promise: Promise<unknown> | (() => unknown),
  message?: RegExp,
  reason?: 'damaged' | 'unsupported_format' | 'not_audio',
) {
  const run = typeof promise === 'function' ? Promise.resolve().then(promise) : promise;
  await expect(run).rejects.toSatisfy(
    (error) =>
      error instanceof AppError &&
      error.code === 'UNSUPPORTED_AUDIO_FORMAT' &&
      (message === undefined || message.test(error.message)) &&
      (reason === undefined || error.details.reason === reason),
  );
}

/**
 * Largest error per encoding: half a quantisation step from the writer's
 * rounding plus up to one step from scaling (written with 2^(n-1) - 1, read with
 * 2^(n-1), the Web Audio convention).
 */
const TOLERANCE: Record<WavEncoding, number> = {
  pcm8: 1.5 / 128,
  pcm16: 1.5 / 32768,
  pcm24: 1.5 / 8388608,
  pcm32: 1e-7,
  float32: 1e-7,
  float64: 1e-12,
};

describe('decodeWav', () => {
  const left = sine(440, 0.05, 8_000, 0.8);
  const right = sine(660, 0.05, 8_000, -0.6);

  it.each(Object.keys(TOLERANCE) as WavEncoding[])('decodes %s, mono and stereo', (encoding) => {
    for (const channels of [[left], [left, right]]) {
      const audio = decodeWav(encodeWav({ sampleRate: 8_000, channels, encoding }));
      expect(audio.sampleRate).toBe(8_000);
      expect(audio.channels).toHaveLength(channels.length);
      audio.channels.forEach((decoded, index) => {
        const original = channels[index]!;
        expect(decoded.length).toBe(original.length);
        let worst = 0;
        original.forEach(
          (value, sample) => (worst = Math.max(worst, Math.abs((decoded[sample] ?? 0) - value))),
        );
        expect(worst).toBeLessThanOrEqual(TOLERANCE[encoding]);
      });
    }
  });

  it('keeps the sign of negative 24-bit and 8-bit samples', () => {
    const channel = Float32Array.from([-1, -0.5, 0, 0.5, 1]);
    for (const encoding of ['pcm24', 'pcm8'] as const) {
      const [decoded] = decodeWav(encodeWav({ sampleRate: 8_000, channels: [channel], encoding })).channels;
      expect([...decoded!].map((value) => Math.round(value * 10) / 10)).toEqual([-1, -0.5, 0, 0.5, 1]);
    }
  });

  it('reads extensible headers, skips unknown chunks and accepts streaming placeholder sizes', () => {
    const list = {
      id: 'LIST',
      bytes: Uint8Array.from('INFOISFT\u0003\u0000\u0000\u0000ab\u0000', (c) => c.charCodeAt(0)),
    };
    for (const placeholderSizes of [undefined, 0, 0xffffffff] as const) {
      const bytes = encodeWav({
        sampleRate: 44_100,
        channels: [left, right],
        encoding: 'pcm24',
        extensible: true,
        extraChunk: list,
        placeholderSizes,
      });
      const audio = decodeWav(bytes);
      expect(audio.channels[1]!.length).toBe(right.length);
      expect(durationOf(audio)).toBeCloseTo(right.length / 44_100, 9);
    }
  });

  it('refuses truncated and damaged files with UNSUPPORTED_AUDIO_FORMAT', async () => {
    const good = encodeWav({ sampleRate: 8_000, channels: [left], encoding: 'pcm16' });
    await expectUnsupported(() => decodeWav(good.subarray(0, good.length - 100)), /incomplete/, 'damaged');
    await expectUnsupported(
      () => decodeWav(good.subarray(0, 30)),
      /damaged header|no format header/,
      'damaged',
    );
    await expectUnsupported(() => decodeWav(good.subarray(0, 12)), /no format header/, 'damaged');
    const badAlign = good.slice();
    new DataView(badAlign.buffer).setUint16(32, 3, true);
    await expectUnsupported(() => decodeWav(badAlign), /block size/, 'damaged');
    const adpcm = good.slice();
    new DataView(adpcm.buffer).setUint16(20, 2, true);
    await expectUnsupported(() => decodeWav(adpcm), /compressed codec/, 'unsupported_format');
    const twelveBit = good.slice();
    new DataView(twelveBit.buffer).setUint16(34, 12, true);
    await expectUnsupported(() => decodeWav(twelveBit), /12-bit/, 'unsupported_format');
    const noRate = good.slice();
    new DataView(noRate.buffer).setUint32(24, 0, true);
    await expectUnsupported(() => decodeWav(noRate), /sample rate/, 'damaged');
    await expectUnsupported(() => decodeWav(HEADERS.flac), /not a WAV/, 'damaged');
  });

  it('decodes a WAV that is a view into a larger buffer', () => {
    const wav = encodeWav({ sampleRate: 8_000, channels: [left], encoding: 'pcm16' });
    const padded = new Uint8Array(wav.length + 7);
    padded.set(wav, 3);
    expect(decodeWav(padded.subarray(3, 3 + wav.length)).channels[0]!.length).toBe(left.length);
  });
});

function fakeAudioBuffer(channels: Float32Array[], sampleRate: number): AudioBufferLike {
  return {
    sampleRate,
    numberOfChannels: channels.length,
    length: channels[0]?.length ?? 0,
    getChannelData: (index) => channels[index]!,
  };
}

describe('decoders', () => {
  it('WebAudioDecoder hands decodeAudioData a copy and copies the channels out', async () => {
    const channel = sine(440, 0.1, 48_000);
    let received: ArrayBuffer | undefined;
    const decoder = new WebAudioDecoder(async (data) => {
      received = data;
      return fakeAudioBuffer([channel], 48_000);
    });
    const input = HEADERS.oggOpus.slice();
    const audio = await decoder.decode(input, sniffAudioFormat(input));
    expect(received).not.toBe(input.buffer);
    expect(new Uint8Array(received!)).toEqual(input);
    expect(audio.channels[0]).toEqual(channel);
    expect(audio.channels[0]).not.toBe(channel);
  });

  it('WebAudioDecoder maps a decode failure to UNSUPPORTED_AUDIO_FORMAT with a human message', async () => {
    const decoder = new WebAudioDecoder(() =>
      Promise.reject(new DOMException('Unable to decode audio data', 'EncodingError')),
    );
    await expectUnsupported(
      decoder.decode(HEADERS.m4a, sniffAudioFormat(HEADERS.m4a)),
      /M4A file could not be decoded: it is damaged or incomplete/,
      'damaged',
    );
    // The sniffer could not name the codec and the header that would is there: a codec the browser lacks.
    const adpcm = encodeWav({ sampleRate: 8_000, channels: [sine(440, 0.01, 8_000)], encoding: 'pcm16' });
    new DataView(adpcm.buffer).setUint16(20, 0x11, true);
    await expectUnsupported(
      decoder.decode(adpcm, sniffAudioFormat(adpcm)),
      /WAV file uses a codec this browser cannot decode: WAV \(IMA ADPCM\)/,
      'unsupported_format',
    );
  });

  it('asks the browser whether it decodes the named codec: no means unsupported, yes means damaged', async () => {
    const asked: string[] = [];
    const failing = (supported: boolean | undefined) =>
      new WebAudioDecoder(
        () => Promise.reject(new DOMException('Unable to decode audio data', 'EncodingError')),
        async (contentType) => {
          asked.push(contentType);
          return supported;
        },
      );
    const m4a = sniffAudioFormat(HEADERS.m4a);
    await expectUnsupported(
      failing(false).decode(HEADERS.m4a, m4a),
      /cannot decode: M4A \(AAC\)/,
      'unsupported_format',
    );
    await expectUnsupported(failing(true).decode(HEADERS.m4a, m4a), /damaged or incomplete/, 'damaged');
    await expectUnsupported(failing(undefined).decode(HEADERS.m4a, m4a), /damaged or incomplete/, 'damaged');
    expect(asked).toEqual(Array(3).fill('audio/mp4; codecs="mp4a.40.2"'));
  });

  it('decodeAudio sniffs, then uses the first decoder that supports the format', async () => {
    const wav = encodeWav({ sampleRate: 8_000, channels: [sine(440, 0.1, 8_000)], encoding: 'pcm16' });
    const webAudioCalls: string[] = [];
    const webAudio = new WebAudioDecoder(async () => {
      webAudioCalls.push('decode');
      return fakeAudioBuffer([new Float32Array(10)], 16_000);
    });
    const chain = new AudioDecoderChain([new WavDecoder(), webAudio]);
    const fromWav = await decodeAudio(wav, { name: 'a.wav' }, chain);
    expect(fromWav.format.container).toBe('wav');
    expect(fromWav.audio.sampleRate).toBe(8_000);
    expect(webAudioCalls).toEqual([]);
    const fromMp3 = await decodeAudio(HEADERS.mp3, { name: 'a.mp3' }, chain);
    expect(fromMp3.audio.sampleRate).toBe(16_000);
    expect(webAudioCalls).toEqual(['decode']);
  });

  it('without Web Audio only WAV can be decoded; others are refused with a message', async () => {
    const wavOnly = new AudioDecoderChain([new WavDecoder()]);
    await expectUnsupported(
      decodeAudio(HEADERS.oggOpus, {}, wavOnly),
      /OGG audio \(opus\) cannot be decoded here/,
      'unsupported_format',
    );
    await expectUnsupported(decodeAudio(HEADERS.text, { name: 'x.wav' }, wavOnly), /marked as WAV/);
    await expectUnsupported(wavOnly.decode(HEADERS.flac, sniffAudioFormat(HEADERS.flac)), /FLAC/);
  });
});
