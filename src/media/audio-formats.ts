import { AppError } from '../contracts';
import { wavFormatTag, whyUnrecognised } from './audio-failure';
import { ascii, indexOfAscii, u32be } from './byte-reading';
import { containerLabel } from './container-labels';

export { containerLabel };

/**
 * Audio format detection from the file's first bytes, with the MIME type and
 * file name as hints. The bytes decide: a `.wav` name on an MP3 is an MP3, and a
 * file whose bytes match no supported format is refused with
 * UNSUPPORTED_AUDIO_FORMAT and a message a person can act on. The hints only
 * widen the MP3 search (an MP3 may start with junk before its first frame) and
 * make the message more precise.
 */

export const AUDIO_CONTAINERS = ['wav', 'mp3', 'mp4', 'aac', 'ogg', 'webm', 'flac'] as const;
export type AudioContainer = (typeof AUDIO_CONTAINERS)[number];

/** `unknown`: the container is fine but the codec is not named in the bytes read. */
export type AudioCodec = 'pcm' | 'float' | 'mp3' | 'aac' | 'opus' | 'vorbis' | 'flac' | 'unknown';

export interface AudioFormat {
  container: AudioContainer;
  codec: AudioCodec;
  /** Canonical MIME type of the container. */
  mime_type: string;
}

export interface AudioHints {
  mime_type?: string | null;
  name?: string | null;
}

export const SUPPORTED_FORMATS_LABEL = 'WAV, MP3, M4A/AAC, OGG/Opus, WebM or FLAC';

const MIME: Record<AudioContainer, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  webm: 'audio/webm',
  flac: 'audio/flac',
};

const MIME_ALIASES: Record<string, AudioContainer> = {
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/x-pn-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mpeg3': 'mp3',
  'audio/x-mpeg-3': 'mp3',
  'audio/mp4': 'mp4',
  'audio/m4a': 'mp4',
  'audio/x-m4a': 'mp4',
  'video/mp4': 'mp4',
  'audio/aac': 'aac',
  'audio/aacp': 'aac',
  'audio/x-aac': 'aac',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'application/ogg': 'ogg',
  'video/ogg': 'ogg',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
};

const EXTENSIONS: Record<string, AudioContainer> = {
  wav: 'wav',
  wave: 'wav',
  mp3: 'mp3',
  m4a: 'mp4',
  m4b: 'mp4',
  mp4: 'mp4',
  aac: 'aac',
  ogg: 'ogg',
  oga: 'ogg',
  opus: 'ogg',
  webm: 'webm',
  weba: 'webm',
  flac: 'flac',
};

/** The container a MIME type or file name claims, if any. */
export function claimedContainer(hints: AudioHints): AudioContainer | undefined {
  const mime = hints.mime_type?.split(';')[0]?.trim().toLowerCase();
  const byMime = mime ? MIME_ALIASES[mime] : undefined;
  if (byMime) return byMime;
  const extension = /\.([A-Za-z0-9]+)$/.exec(hints.name ?? '')?.[1]?.toLowerCase();
  return extension ? EXTENSIONS[extension] : undefined;
}

/** How far into the file an MP3 frame is looked for when the hints say MP3. */
const MP3_SCAN_BYTES = 8 * 1024;

/** Detects the format or throws UNSUPPORTED_AUDIO_FORMAT. */
export function sniffAudioFormat(bytes: Uint8Array, hints: AudioHints = {}): AudioFormat {
  const claimed = claimedContainer(hints);
  const details = { mime_type: hints.mime_type ?? null, name: hints.name ?? null };
  if (bytes.length === 0) {
    throw new AppError('UNSUPPORTED_AUDIO_FORMAT', 'The audio file is empty.', {
      ...details,
      reason: 'damaged',
    });
  }
  const found = detect(bytes, claimed);
  if (found) return { ...found, mime_type: MIME[found.container] };
  const failure = whyUnrecognised(bytes);
  const message =
    failure.reason === 'unsupported_format'
      ? `This file is ${failure.format} audio, which cannot be decoded here. Convert it to MP3, WAV or M4A.`
      : claimed
        ? `This file is marked as ${containerLabel(claimed)}, but its content is not ${containerLabel(claimed)} audio. It may be damaged or only partly downloaded.`
        : `This file is not audio in a supported format (${SUPPORTED_FORMATS_LABEL}).`;
  throw new AppError('UNSUPPORTED_AUDIO_FORMAT', message, { ...details, ...failure });
}

type Detected = Omit<AudioFormat, 'mime_type'>;

function detect(bytes: Uint8Array, claimed: AudioContainer | undefined): Detected | undefined {
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') {
    return { container: 'wav', codec: wavCodec(bytes) };
  }
  if (ascii(bytes, 0, 4) === 'OggS') {
    const codec = oggCodec(bytes);
    return codec ? { container: 'ogg', codec } : undefined;
  }
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    return webm(bytes);
  }
  if (ascii(bytes, 4, 4) === 'ftyp') return mp4(bytes);
  // Everything below may sit behind an ID3v2 tag.
  const start = id3End(bytes);
  if (start === undefined || start >= bytes.length) return undefined;
  if (ascii(bytes, start, 4) === 'fLaC') return { container: 'flac', codec: 'flac' };
  if (isAdtsHeader(bytes, start)) return { container: 'aac', codec: 'aac' };
  if (mp3FrameLength(bytes, start) !== undefined) return { container: 'mp3', codec: 'mp3' };
  // An MP3 may carry junk (or a damaged tag) before its first frame: look a
  // little further, but only when the file says it is MP3, and only trust a
  // header that is followed by another one where its length says.
  if (claimed === 'mp3' || (start > 0 && claimed === undefined)) {
    const limit = Math.min(bytes.length - 4, start + MP3_SCAN_BYTES);
    for (let offset = start + 1; offset < limit; offset++) {
      const length = mp3FrameLength(bytes, offset);
      if (length !== undefined && mp3FrameLength(bytes, offset + length) !== undefined) {
        return { container: 'mp3', codec: 'mp3' };
      }
    }
  }
  return undefined;
}

/** `pcm`/`float` from the `fmt ` chunk (WAVE_FORMAT_EXTENSIBLE included); else unknown. */
function wavCodec(bytes: Uint8Array): AudioCodec {
  const tag = wavFormatTag(bytes);
  return tag === 1 ? 'pcm' : tag === 3 ? 'float' : 'unknown';
}

/** The first Ogg page names the codec; Speex, Theora-only and others are refused. */
function oggCodec(bytes: Uint8Array): AudioCodec | undefined {
  const segments = bytes[26] ?? 0;
  const body = 27 + segments;
  if (ascii(bytes, body, 8) === 'OpusHead') return 'opus';
  if (bytes[body] === 0x01 && ascii(bytes, body + 1, 6) === 'vorbis') return 'vorbis';
  if (bytes[body] === 0x7f && ascii(bytes, body + 1, 4) === 'FLAC') return 'flac';
  return undefined;
}

/** WebM (Matroska with DocType "webm"); the codec id is in the Tracks element near the start. */
function webm(bytes: Uint8Array): Detected | undefined {
  const head = 4096;
  if (indexOfAscii(bytes, 'webm', 64) < 0) return undefined;
  if (indexOfAscii(bytes, 'A_OPUS', head) >= 0) return { container: 'webm', codec: 'opus' };
  if (indexOfAscii(bytes, 'A_VORBIS', head) >= 0) return { container: 'webm', codec: 'vorbis' };
  return { container: 'webm', codec: 'unknown' };
}

/** ISO base media brands that carry M4A/MP4 audio; QuickTime and 3GPP (AMR) are refused. */
const MP4_BRANDS = new Set([
  'M4A ',
  'M4B ',
  'M4P ',
  'mp41',
  'mp42',
  'isom',
  'iso2',
  'iso4',
  'iso5',
  'iso6',
  'dash',
  'avc1',
  'MSNV',
  'f4a ',
  'F4A ',
]);

function mp4(bytes: Uint8Array): Detected | undefined {
  const size = u32be(bytes, 0);
  const brands = [ascii(bytes, 8, 4)];
  for (let offset = 16; offset + 4 <= Math.min(size, bytes.length, 64); offset += 4) {
    brands.push(ascii(bytes, offset, 4));
  }
  if (!brands.some((brand) => MP4_BRANDS.has(brand))) return undefined;
  // The sample entry sits in `moov`, which may come after the media data.
  const head = 64 * 1024;
  if (indexOfAscii(bytes, 'mp4a', head) >= 0) return { container: 'mp4', codec: 'aac' };
  if (indexOfAscii(bytes, 'Opus', head) >= 0) return { container: 'mp4', codec: 'opus' };
  if (indexOfAscii(bytes, 'fLaC', head) >= 0) return { container: 'mp4', codec: 'flac' };
  return { container: 'mp4', codec: 'unknown' };
}

/** Offset after any ID3v2 tags; undefined when a tag claims more bytes than exist. */
function id3End(bytes: Uint8Array): number | undefined {
  let offset = 0;
  while (ascii(bytes, offset, 3) === 'ID3') {
    const sizeBytes = bytes.subarray(offset + 6, offset + 10);
    if (sizeBytes.length < 4 || sizeBytes.some((byte) => byte & 0x80)) return undefined;
    const size = sizeBytes.reduce((sum, byte) => sum * 128 + byte, 0);
    const footer = ((bytes[offset + 5] ?? 0) & 0x10) !== 0 ? 10 : 0;
    offset += 10 + size + footer;
    if (offset > bytes.length) return undefined;
  }
  return offset;
}

function isAdtsHeader(bytes: Uint8Array, offset: number): boolean {
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  // 12-bit sync, layer 00, a sampling-frequency index below 13.
  return bytes[offset] === 0xff && (b1 & 0xf6) === 0xf0 && ((b2 >> 2) & 0x0f) < 13;
}

const MP3_BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MP3_BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MP3_RATES_V1 = [44_100, 48_000, 32_000];

/** Length of the MPEG layer III frame whose header starts at `offset`; undefined when it is none. */
function mp3FrameLength(bytes: Uint8Array, offset: number): number | undefined {
  if (offset + 4 > bytes.length) return undefined;
  const b1 = bytes[offset + 1] ?? 0;
  const b2 = bytes[offset + 2] ?? 0;
  if (bytes[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const version = (b1 >> 3) & 0x03; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  const layer = (b1 >> 1) & 0x03; // 1: layer III
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0x03;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return undefined;
  }
  const mpeg1 = version === 3;
  const kbps = (mpeg1 ? MP3_BITRATES_V1 : MP3_BITRATES_V2)[bitrateIndex] ?? 0;
  const rate = (MP3_RATES_V1[rateIndex] ?? 44_100) / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const padding = (b2 >> 1) & 0x01;
  return Math.floor(((mpeg1 ? 144 : 72) * kbps * 1000) / rate) + padding;
}
