import { AppError } from '../contracts';
import { codecContentType, wavEncodingLabel, whyUndecodable, type AudioFailureReason } from './audio-failure';
import { containerLabel, sniffAudioFormat, type AudioFormat, type AudioHints } from './audio-formats';

/** PCM as the rest of the pipeline wants it: one Float32Array per channel, -1..1. */
export interface DecodedAudio {
  sampleRate: number;
  channels: Float32Array[];
}

export function durationOf(audio: DecodedAudio): number {
  return (audio.channels[0]?.length ?? 0) / audio.sampleRate;
}

/**
 * One decoding back end. `supports` looks at the sniffed format only; `decode`
 * throws UNSUPPORTED_AUDIO_FORMAT (with a human message and `details.reason`,
 * see audio-failure.ts) for input it cannot read.
 */
export interface AudioDecoder {
  supports(format: AudioFormat): boolean;
  decode(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio>;
}

/** Sniffs the bytes, then decodes with the decoder; every refusal is UNSUPPORTED_AUDIO_FORMAT with a reason. */
export async function decodeAudio(
  bytes: Uint8Array,
  hints: AudioHints,
  decoder: AudioDecoder,
): Promise<{ format: AudioFormat; audio: DecodedAudio }> {
  const format = sniffAudioFormat(bytes, hints);
  if (!decoder.supports(format)) {
    const codec = format.codec === 'unknown' ? '' : ` (${format.codec})`;
    const label = containerLabel(format.container);
    throw new AppError('UNSUPPORTED_AUDIO_FORMAT', `${label} audio${codec} cannot be decoded here.`, {
      container: format.container,
      codec: format.codec,
      reason: 'unsupported_format' satisfies AudioFailureReason,
      format: `${label}${codec}`,
    });
  }
  return { format, audio: await decoder.decode(bytes, format) };
}

/** Tries decoders in order: the first that supports the format decodes it. */
export class AudioDecoderChain implements AudioDecoder {
  readonly #decoders: readonly AudioDecoder[];

  constructor(decoders: readonly AudioDecoder[]) {
    this.#decoders = decoders;
  }

  supports(format: AudioFormat): boolean {
    return this.#decoders.some((decoder) => decoder.supports(format));
  }

  decode(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> {
    const decoder = this.#decoders.find((candidate) => candidate.supports(format));
    if (!decoder) {
      return Promise.reject(
        new AppError(
          'UNSUPPORTED_AUDIO_FORMAT',
          `${containerLabel(format.container)} audio cannot be decoded here.`,
          {
            container: format.container,
            codec: format.codec,
            reason: 'unsupported_format' satisfies AudioFailureReason,
            format: containerLabel(format.container),
          },
        ),
      );
    }
    return decoder.decode(bytes, format);
  }
}

// ---------------------------------------------------------------------------
// WAV: pure TypeScript, so Node tests and a no-Web-Audio fallback can decode.
// ---------------------------------------------------------------------------

const MAX_CHANNELS = 32;
const WAVE_FORMAT_PCM = 1;
const WAVE_FORMAT_IEEE_FLOAT = 3;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;
/** Streaming writers leave the RIFF and data sizes at these until the file is closed. */
const PLACEHOLDER_SIZES = new Set([0, 0xffffffff]);

interface WavFormat {
  tag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bits: number;
}

/** A WAV whose header or data is broken or cut short: recording or exporting it again is the fix. */
function corrupt(message: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('UNSUPPORTED_AUDIO_FORMAT', message, {
    container: 'wav',
    reason: 'damaged' satisfies AudioFailureReason,
    ...details,
  });
}

/** A sound WAV in an encoding this decoder does not read: converting it is the fix. */
function unreadableEncoding(message: string, format: string, details: Record<string, unknown>): AppError {
  return new AppError('UNSUPPORTED_AUDIO_FORMAT', message, {
    container: 'wav',
    reason: 'unsupported_format' satisfies AudioFailureReason,
    format,
    ...details,
  });
}

/**
 * Linear PCM (8-bit unsigned, 16/24/32-bit signed) and IEEE float (32/64-bit),
 * any channel count up to 32, plain or WAVE_FORMAT_EXTENSIBLE headers. Unknown
 * chunks are skipped. A data chunk that declares more bytes than the file holds
 * is a truncated file and refused; placeholder sizes (0 or 0xFFFFFFFF, left by
 * streaming writers) mean "to the end of the file".
 */
export class WavDecoder implements AudioDecoder {
  supports(format: AudioFormat): boolean {
    return format.container === 'wav' && (format.codec === 'pcm' || format.codec === 'float');
  }

  async decode(bytes: Uint8Array): Promise<DecodedAudio> {
    return decodeWav(bytes);
  }
}

export function decodeWav(bytes: Uint8Array): DecodedAudio {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (offset: number) =>
    offset + 4 <= bytes.length ? String.fromCharCode(...bytes.subarray(offset, offset + 4)) : '';
  if (text(0) !== 'RIFF' || text(8) !== 'WAVE') throw corrupt('This is not a WAV file.');

  let format: WavFormat | undefined;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = text(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + size > bytes.length) throw corrupt('The WAV file has a damaged header.');
      format = readFormat(view, body, size);
    } else if (id === 'data') {
      if (!format) throw corrupt('The WAV file has no format header before its audio data.');
      const available = bytes.length - body;
      let length = size;
      // 0xFFFFFFFF always means "to the end"; 0 only when the RIFF size is unset too.
      if (size === 0xffffffff || (size === 0 && PLACEHOLDER_SIZES.has(view.getUint32(4, true)))) {
        length = available;
      } else if (size > available) {
        throw corrupt('The WAV file is incomplete: it ends before the end of its audio data.', {
          declared_bytes: size,
          present_bytes: available,
        });
      }
      return readSamples(view, body, length, format);
    }
    offset = body + size + (size % 2);
  }
  throw corrupt(
    format
      ? 'The WAV file has no audio data.'
      : 'The WAV file is incomplete or damaged: it has no format header.',
  );
}

function readFormat(view: DataView, at: number, size: number): WavFormat {
  let tag = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const blockAlign = view.getUint16(at + 12, true);
  const bits = view.getUint16(at + 14, true);
  if (tag === WAVE_FORMAT_EXTENSIBLE) {
    if (size < 40) throw corrupt('The WAV file has a damaged extended format header.');
    tag = view.getUint16(at + 24, true);
  }
  if (tag !== WAVE_FORMAT_PCM && tag !== WAVE_FORMAT_IEEE_FLOAT) {
    throw unreadableEncoding(
      'This WAV file uses a compressed codec; only PCM and float WAV can be read here.',
      wavEncodingLabel(tag),
      { format_tag: tag },
    );
  }
  const validBits =
    tag === WAVE_FORMAT_PCM
      ? [8, 16, 24, 32].includes(bits)
      : tag === WAVE_FORMAT_IEEE_FLOAT && [32, 64].includes(bits);
  if (!validBits) {
    throw unreadableEncoding(`${bits}-bit WAV audio is not supported.`, `WAV (${bits}-bit)`, { bits });
  }
  if (channels < 1 || channels > MAX_CHANNELS) throw corrupt('The WAV file has an impossible channel count.');
  if (sampleRate < 1000 || sampleRate > 768_000) throw corrupt('The WAV file has an impossible sample rate.');
  if (blockAlign !== (channels * bits) / 8) throw corrupt('The WAV file has a damaged header (block size).');
  return { tag, channels, sampleRate, blockAlign, bits };
}

function readSamples(view: DataView, at: number, length: number, format: WavFormat): DecodedAudio {
  const frames = Math.floor(length / format.blockAlign);
  const channels = Array.from({ length: format.channels }, () => new Float32Array(frames));
  const width = format.bits / 8;
  const float = format.tag === WAVE_FORMAT_IEEE_FLOAT;
  const read = sampleReader(view, format.bits, float);
  let position = at;
  for (let frame = 0; frame < frames; frame++) {
    for (const channel of channels) {
      channel[frame] = read(position);
      position += width;
    }
  }
  return { sampleRate: format.sampleRate, channels };
}

function sampleReader(view: DataView, bits: number, float: boolean): (offset: number) => number {
  if (float) {
    return bits === 64
      ? (offset) => view.getFloat64(offset, true)
      : (offset) => view.getFloat32(offset, true);
  }
  switch (bits) {
    case 8:
      return (offset) => (view.getUint8(offset) - 128) / 128;
    case 16:
      return (offset) => view.getInt16(offset, true) / 32768;
    case 24:
      return (offset) => {
        const value =
          view.getUint8(offset) | (view.getUint8(offset + 1) << 8) | (view.getInt8(offset + 2) << 16);
        return value / 8388608;
      };
    default:
      return (offset) => view.getInt32(offset, true) / 2147483648;
  }
}

// ---------------------------------------------------------------------------
// Web Audio: every other format, in the browser.
// ---------------------------------------------------------------------------

/** The parts of an AudioBuffer the decoder reads. */
export interface AudioBufferLike {
  readonly sampleRate: number;
  readonly numberOfChannels: number;
  readonly length: number;
  getChannelData(channel: number): Float32Array;
}

/**
 * `BaseAudioContext.decodeAudioData`, injected so tests need no browser. In the
 * app: `(data) => new OfflineAudioContext(1, 1, 16000).decodeAudioData(data)`
 * (an OfflineAudioContext works in workers; its rate is the output rate).
 */
export type DecodeAudioData = (data: ArrayBuffer) => Promise<AudioBufferLike>;

/**
 * Whether this browser decodes a MIME type with its codecs parameter; undefined when
 * it cannot be asked. Asked only after a decode failed, to tell a damaged file from a
 * codec the browser lacks (a Chromium without AAC, a Firefox without system codecs).
 */
export type CodecProbe = (contentType: string) => Promise<boolean | undefined>;

/** MediaCapabilities, which windows and workers both have where it exists at all. */
export const mediaCapabilitiesProbe: CodecProbe = async (contentType) => {
  const capabilities = (
    globalThis.navigator as
      { mediaCapabilities?: { decodingInfo(config: unknown): Promise<{ supported: boolean }> } } | undefined
  )?.mediaCapabilities;
  if (!capabilities) return undefined;
  try {
    return (await capabilities.decodingInfo({ type: 'file', audioConfiguration: { contentType } })).supported;
  } catch {
    return undefined;
  }
};

export class WebAudioDecoder implements AudioDecoder {
  readonly #decodeAudioData: DecodeAudioData;
  readonly #probe: CodecProbe;

  constructor(decodeAudioData: DecodeAudioData, probe: CodecProbe = mediaCapabilitiesProbe) {
    this.#decodeAudioData = decodeAudioData;
    this.#probe = probe;
  }

  supports(): boolean {
    return true;
  }

  async decode(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> {
    // decodeAudioData detaches its argument: hand it a copy, keep the caller's bytes.
    const copy = bytes.slice().buffer;
    let buffer: AudioBufferLike;
    try {
      buffer = await this.#decodeAudioData(copy);
    } catch (cause) {
      const contentType = codecContentType(format);
      const decodable = contentType === undefined ? undefined : await this.#probe(contentType);
      const failure = whyUndecodable(bytes, format, decodable);
      const label = containerLabel(format.container);
      throw new AppError(
        'UNSUPPORTED_AUDIO_FORMAT',
        failure.reason === 'unsupported_format'
          ? `This ${label} file uses a codec this browser cannot decode: ${failure.format}. Convert it to MP3, WAV or M4A.`
          : `This ${label} file could not be decoded: it is damaged or incomplete.`,
        { container: format.container, codec: format.codec, ...failure },
        { cause },
      );
    }
    const channels = Array.from({ length: buffer.numberOfChannels }, (_, index) =>
      Float32Array.from(buffer.getChannelData(index)),
    );
    return { sampleRate: buffer.sampleRate, channels };
  }
}
