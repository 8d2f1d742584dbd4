import type { AudioFormat } from './audio-formats';
import { containerLabel } from './container-labels';
import { startsWith, ascii, indexOfAscii, u16le, u32le, u32be } from './byte-reading';

/**
 * Why audio cannot be read, for `details.reason` of UNSUPPORTED_AUDIO_FORMAT. The
 * person's next step differs: a damaged file must be exported or recorded again
 * (converting it will not help), a format the browser lacks must be converted (the
 * file itself is fine), and bytes that are no audio format at all are either.
 *
 * - `damaged`: the bytes start as a format the app reads (RIFF/WAVE, ID3 or an MPEG
 *   frame, ftyp, OggS, fLaC, EBML) but what follows is cut short or broken.
 * - `unsupported_format`: recognisable audio in a format or codec this browser
 *   cannot decode (AMR, WMA, AIFF, ADPCM WAV, ALAC…); `format` names it.
 * - `not_audio`: the first bytes match no audio format known here.
 */
export type AudioFailureReason = 'damaged' | 'unsupported_format' | 'not_audio';

export interface AudioFailure {
  reason: AudioFailureReason;
  /** For `unsupported_format`: the format as a person knows it ("AMR", "WAV (IMA ADPCM)"). */
  format?: string;
}

const DAMAGED: AudioFailure = { reason: 'damaged' };
const NOT_AUDIO: AudioFailure = { reason: 'not_audio' };

function unsupported(format: string): AudioFailure {
  return { reason: 'unsupported_format', format };
}

/**
 * For bytes the sniffer found no supported format in (`sniffAudioFormat` refused
 * them): a known container cut short, another audio format, or no audio at all.
 */
export function whyUnrecognised(bytes: Uint8Array): AudioFailure {
  if (bytes.length === 0) return DAMAGED;
  const foreign = foreignAudioFormat(bytes);
  if (foreign) return unsupported(foreign);
  if (ascii(bytes, 0, 4) === 'RIFF') {
    // A RIFF cut inside its first 12 bytes can only be a broken WAV here.
    return bytes.length < 12 ? DAMAGED : ascii(bytes, 8, 4) === 'AVI ' ? unsupported('AVI video') : NOT_AUDIO;
  }
  if (ascii(bytes, 0, 4) === 'OggS') return oggFailure(bytes);
  if (startsWith(bytes, EBML)) {
    return indexOfAscii(bytes, 'matroska', 64) >= 0 ? unsupported('Matroska (MKA/MKV)') : DAMAGED;
  }
  if (ascii(bytes, 4, 4) === 'ftyp') return ftypFailure(bytes);
  if (ascii(bytes, 0, 3) === 'ID3' || ascii(bytes, 0, 4) === 'fLaC') return DAMAGED;
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return mpegFailure(bytes);
  return NOT_AUDIO;
}

/**
 * For a file the sniffer accepted whose decoding then failed. A codec the sniffer
 * named that the browser says it decodes (`codecDecodable`, from MediaCapabilities;
 * undefined when it cannot be asked) means the file is damaged; one it says it does
 * not is a codec this browser lacks. An unnamed codec is damaged only when the header
 * that would name it is missing (cut off), and otherwise is a codec this browser lacks.
 */
export function whyUndecodable(
  bytes: Uint8Array,
  format: Pick<AudioFormat, 'container' | 'codec'>,
  codecDecodable?: boolean,
): AudioFailure {
  if (format.codec !== 'unknown') {
    if (codecDecodable !== false) return DAMAGED;
    return unsupported(`${containerLabel(format.container)} (${format.codec.toUpperCase()})`);
  }
  switch (format.container) {
    case 'wav': {
      const tag = wavFormatTag(bytes);
      return tag === undefined ? DAMAGED : unsupported(wavEncodingLabel(tag));
    }
    case 'mp4':
      return mp4Failure(bytes);
    case 'webm': {
      const codec = webmAudioCodec(bytes);
      return codec === undefined ? DAMAGED : unsupported(`WebM (${codec})`);
    }
    default:
      return DAMAGED;
  }
}

/**
 * The MIME type with codecs parameter a browser's MediaCapabilities is asked about for a
 * sniffed format; undefined when the codec is not named (nothing precise to ask).
 */
export function codecContentType(format: { container: string; codec: string }): string | undefined {
  const { container, codec } = format;
  if (codec === 'unknown') return undefined;
  if (container === 'mp3') return 'audio/mpeg';
  if (container === 'aac') return 'audio/aac';
  if (container === 'flac') return 'audio/flac';
  if (container === 'wav') return `audio/wav; codecs="${codec === 'float' ? 3 : 1}"`;
  const codecs = codec === 'aac' ? 'mp4a.40.2' : codec;
  return `audio/${container}; codecs="${codecs}"`;
}

// ---------------------------------------------------------------------------

const EBML = [0x1a, 0x45, 0xdf, 0xa3];
const ASF = [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11];

/** Audio formats recognisable by their first bytes that no supported browser decodes. */
const FOREIGN_MAGIC: ReadonlyArray<{ at: number; magic: string | number[]; format: string }> = [
  { at: 0, magic: '#!AMR-WB\n', format: 'AMR-WB' },
  { at: 0, magic: '#!AMR\n', format: 'AMR' },
  { at: 0, magic: ASF, format: 'WMA/ASF' },
  { at: 0, magic: 'caff', format: 'CAF' },
  { at: 0, magic: '.snd', format: 'AU' },
  { at: 0, magic: 'MAC ', format: "Monkey's Audio (APE)" },
  { at: 0, magic: 'wvpk', format: 'WavPack' },
  { at: 0, magic: 'MThd', format: 'MIDI' },
  { at: 0, magic: '.ra\xfd', format: 'RealAudio' },
  { at: 0, magic: '.RMF', format: 'RealMedia' },
  { at: 0, magic: 'MPCK', format: 'Musepack' },
  { at: 0, magic: 'MP+', format: 'Musepack' },
  { at: 0, magic: 'TTA1', format: 'TTA' },
  { at: 0, magic: '\x02dss', format: 'DSS (dictaphone)' },
  { at: 0, magic: '\x03ds2', format: 'DS2 (dictaphone)' },
  { at: 0, magic: 'RF64', format: 'RF64 (large WAV)' },
  { at: 0, magic: [0x0b, 0x77], format: 'AC-3' },
];

/** The name of a known audio format this app cannot read, from the file's first bytes. */
export function foreignAudioFormat(bytes: Uint8Array): string | undefined {
  if (ascii(bytes, 0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(bytes, 8, 4))) return 'AIFF';
  for (const { at, magic, format } of FOREIGN_MAGIC) {
    const expected =
      typeof magic === 'string' ? Array.from(magic, (character) => character.charCodeAt(0)) : magic;
    if (expected.every((byte, index) => bytes[at + index] === byte)) return format;
  }
  return undefined;
}

/** The first Ogg page names its stream; one named but not Opus/Vorbis/FLAC is another codec. */
function oggFailure(bytes: Uint8Array): AudioFailure {
  const body = 27 + (bytes[26] ?? 0);
  if (body + 8 > bytes.length) return DAMAGED;
  if (ascii(bytes, body, 8) === 'Speex   ') return unsupported('Ogg Speex');
  if (bytes[body] === 0x80 && ascii(bytes, body + 1, 6) === 'theora')
    return unsupported('Ogg Theora (video)');
  return DAMAGED;
}

/** ISO media brands that are pictures, not sound. */
const IMAGE_BRANDS = new Set([
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'mif1',
  'msf1',
  'avif',
  'avis',
  'crx ',
]);

function ftypFailure(bytes: Uint8Array): AudioFailure {
  const brand = ascii(bytes, 8, 4);
  if (brand === '') return DAMAGED;
  if (IMAGE_BRANDS.has(brand)) return NOT_AUDIO;
  if (brand.startsWith('3g')) return unsupported('3GP (AMR)');
  if (brand === 'qt  ') return unsupported('QuickTime (MOV)');
  return unsupported(`MP4 (${brand.trim()})`);
}

/** An MPEG sync word: layer I/II audio is another format; a broken layer III header is damage. */
function mpegFailure(bytes: Uint8Array): AudioFailure {
  const layer = ((bytes[1] ?? 0) >> 1) & 0x03;
  if (layer === 2) return unsupported('MPEG layer II (MP2)');
  if (layer === 3) return unsupported('MPEG layer I (MP1)');
  return DAMAGED;
}

/** The WAVE format tag of the `fmt ` chunk (extensible headers resolved); undefined when there is none. */
export function wavFormatTag(bytes: Uint8Array): number | undefined {
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = u32le(bytes, offset + 4);
    if (ascii(bytes, offset, 4) === 'fmt ') {
      if (offset + 10 > bytes.length) return undefined;
      const tag = u16le(bytes, offset + 8);
      return tag === 0xfffe && size >= 40 && offset + 34 <= bytes.length ? u16le(bytes, offset + 32) : tag;
    }
    offset += 8 + size + (size % 2);
  }
  return undefined;
}

const WAV_CODECS: Readonly<Record<number, string>> = {
  0x0002: 'Microsoft ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0031: 'GSM 6.10',
  0x0050: 'MPEG',
  0x0055: 'MP3',
  0x0160: 'WMA',
  0x0161: 'WMA',
};

/** "WAV (IMA ADPCM)": the encoding a WAVE format tag names. */
export function wavEncodingLabel(tag: number): string {
  return `WAV (${WAV_CODECS[tag] ?? `codec 0x${tag.toString(16).padStart(4, '0')}`})`;
}

/** Sample entries every supported browser decodes: when one is there, the failure is damage. */
const MP4_DECODABLE = ['mp4a', 'Opus', 'fLaC', '.mp3'];
const MP4_NAMED: ReadonlyArray<[string, string]> = [
  ['alac', 'ALAC'],
  ['samr', 'AMR'],
  ['sawb', 'AMR-WB'],
  ['ac-3', 'AC-3'],
  ['ec-3', 'E-AC-3'],
  ['ac-4', 'AC-4'],
];

/**
 * Walks the top-level boxes. A box that runs past the end, or no `moov` (the index
 * a recorder writes last), is a file cut short; a complete index without a sample
 * entry the browser decodes is a codec it lacks.
 */
function mp4Failure(bytes: Uint8Array): AudioFailure {
  let offset = 0;
  let moov: Uint8Array | undefined;
  while (offset + 8 <= bytes.length) {
    let size = u32be(bytes, offset);
    if (size === 1) size = u32be(bytes, offset + 8) * 0x1_0000_0000 + u32be(bytes, offset + 12);
    else if (size === 0) size = bytes.length - offset;
    if (size < 8 || offset + size > bytes.length) return DAMAGED;
    if (ascii(bytes, offset + 4, 4) === 'moov') moov = bytes.subarray(offset, offset + size);
    offset += size;
  }
  if (!moov) return DAMAGED;
  const index = moov;
  if (MP4_DECODABLE.some((entry) => indexOfAscii(index, entry, index.length) >= 0)) return DAMAGED;
  const named = MP4_NAMED.find(([entry]) => indexOfAscii(index, entry, index.length) >= 0);
  return unsupported(`M4A/MP4 (${named ? named[1] : 'unknown codec'})`);
}

/** The audio CodecID of a WebM's Tracks (EBML id 0x86, then its size, then "A_…"). */
function webmAudioCodec(bytes: Uint8Array): string | undefined {
  const limit = Math.min(bytes.length, 64 * 1024);
  for (let offset = 0; offset + 4 < limit; offset++) {
    const size = (bytes[offset + 1] ?? 0) & 0x7f;
    if (bytes[offset] !== 0x86 || ((bytes[offset + 1] ?? 0) & 0x80) === 0 || size < 3) continue;
    if (ascii(bytes, offset + 2, 2) === 'A_') return ascii(bytes, offset + 2, size) || undefined;
  }
  return undefined;
}
