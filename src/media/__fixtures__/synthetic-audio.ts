/**
 * Audio the tests make themselves: tones, silence and WAV files in every bit
 * depth the decoder reads. Nothing here is committed binary data.
 */

export function sine(
  frequency: number,
  seconds: number,
  sampleRate: number,
  amplitude = 0.5,
  phase = 0,
): Float32Array {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let index = 0; index < samples.length; index++) {
    samples[index] = amplitude * Math.sin((2 * Math.PI * frequency * index) / sampleRate + phase);
  }
  return samples;
}

export function silence(seconds: number, sampleRate: number): Float32Array {
  return new Float32Array(Math.round(seconds * sampleRate));
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Frequency from interpolated upward zero crossings; precise to millihertz on a clean tone. */
export function estimateFrequency(samples: Float32Array, sampleRate: number): number {
  const crossings: number[] = [];
  for (let index = 1; index < samples.length; index++) {
    const a = samples[index - 1] ?? 0;
    const b = samples[index] ?? 0;
    if (a < 0 && b >= 0) crossings.push(index - 1 + a / (a - b));
  }
  const first = crossings[0];
  const last = crossings.at(-1);
  if (first === undefined || last === undefined || crossings.length < 2) return 0;
  return ((crossings.length - 1) * sampleRate) / (last - first);
}

/** Peak amplitude of a tone, from its RMS. */
export function toneAmplitude(samples: Float32Array): number {
  return rms(samples) * Math.SQRT2;
}

export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return samples.length === 0 ? 0 : Math.sqrt(sum / samples.length);
}

/** The middle of a signal, away from the filter's edge transients. */
export function middle(samples: Float32Array, sampleRate: number, marginSeconds = 0.1): Float32Array {
  const margin = Math.round(marginSeconds * sampleRate);
  return samples.subarray(margin, samples.length - margin);
}

export type WavEncoding = 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32' | 'float64';

export interface WavOptions {
  sampleRate: number;
  channels: Float32Array[];
  encoding: WavEncoding;
  /** WAVE_FORMAT_EXTENSIBLE header (what many recorders write). */
  extensible?: boolean;
  /** Chunks before `fmt ` / between `fmt ` and `data`, e.g. LIST, to test skipping. */
  extraChunk?: { id: string; bytes: Uint8Array };
  /** Streaming writers leave sizes as 0 or 0xFFFFFFFF. */
  placeholderSizes?: 0 | 0xffffffff;
}

const BITS: Record<WavEncoding, number> = {
  pcm8: 8,
  pcm16: 16,
  pcm24: 24,
  pcm32: 32,
  float32: 32,
  float64: 64,
};

export function encodeWav(options: WavOptions): Uint8Array {
  const { sampleRate, channels, encoding } = options;
  const bits = BITS[encoding];
  const bytesPerSample = bits / 8;
  const frames = channels[0]?.length ?? 0;
  const blockAlign = bytesPerSample * channels.length;
  const dataSize = frames * blockAlign;
  const isFloat = encoding.startsWith('float');
  const fmtSize = options.extensible ? 40 : 16;
  const extra = options.extraChunk;
  const extraSize = extra ? 8 + extra.bytes.length + (extra.bytes.length % 2) : 0;
  const total = 12 + 8 + fmtSize + extraSize + 8 + dataSize;
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  let offset = 0;
  const ascii = (text: string) => {
    for (const character of text) bytes[offset++] = character.charCodeAt(0);
  };
  const u16 = (value: number) => {
    view.setUint16(offset, value, true);
    offset += 2;
  };
  const u32 = (value: number) => {
    view.setUint32(offset, value, true);
    offset += 4;
  };
  ascii('RIFF');
  u32(options.placeholderSizes ?? total - 8);
  ascii('WAVE');
  ascii('fmt ');
  u32(fmtSize);
  u16(options.extensible ? 0xfffe : isFloat ? 3 : 1);
  u16(channels.length);
  u32(sampleRate);
  u32(sampleRate * blockAlign);
  u16(blockAlign);
  u16(bits);
  if (options.extensible) {
    u16(22);
    u16(bits);
    u32(channels.length === 2 ? 3 : 4);
    // Sub-format GUID: format tag, then the fixed KSDATAFORMAT tail.
    u16(isFloat ? 3 : 1);
    for (const byte of [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]) {
      bytes[offset++] = byte;
    }
  }
  if (extra) {
    ascii(extra.id);
    u32(extra.bytes.length);
    bytes.set(extra.bytes, offset);
    offset += extra.bytes.length + (extra.bytes.length % 2);
  }
  ascii('data');
  u32(options.placeholderSizes ?? dataSize);
  for (let frame = 0; frame < frames; frame++) {
    for (const channel of channels) {
      const value = Math.max(-1, Math.min(1, channel[frame] ?? 0));
      switch (encoding) {
        case 'pcm8':
          view.setUint8(offset, Math.round(value * 127) + 128);
          break;
        case 'pcm16':
          view.setInt16(offset, Math.round(value * 32767), true);
          break;
        case 'pcm24': {
          const int = Math.round(value * 8388607);
          view.setUint8(offset, int & 0xff);
          view.setUint8(offset + 1, (int >> 8) & 0xff);
          view.setUint8(offset + 2, (int >> 16) & 0xff);
          break;
        }
        case 'pcm32':
          view.setInt32(offset, Math.round(value * 2147483647), true);
          break;
        case 'float32':
          view.setFloat32(offset, value, true);
          break;
        case 'float64':
          view.setFloat64(offset, value, true);
          break;
      }
      offset += bytesPerSample;
    }
  }
  return bytes;
}
