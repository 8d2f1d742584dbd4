/**
 * Small hand-made file starts, one per format, built from the specs' header
 * layouts. They are enough to sniff, not to decode.
 */

function bytes(...parts: Array<string | number[] | Uint8Array>): Uint8Array {
  const arrays = parts.map((part) =>
    typeof part === 'string'
      ? Uint8Array.from(part, (character) => character.charCodeAt(0))
      : Uint8Array.from(part),
  );
  const out = new Uint8Array(arrays.reduce((sum, array) => sum + array.length, 0));
  let offset = 0;
  for (const array of arrays) {
    out.set(array, offset);
    offset += array.length;
  }
  return out;
}

const zeros = (count: number) => new Uint8Array(count);

/** MPEG-1 layer III, 128 kbit/s, 44.1 kHz, no padding: 417-byte frames. */
const MP3_HEADER = [0xff, 0xfb, 0x90, 0x64];
const mp3Frame = () => bytes(MP3_HEADER, zeros(417 - 4));

export const HEADERS = {
  mp3: bytes(mp3Frame(), mp3Frame()),
  /** ID3v2.3 tag of 10 bytes (sync-safe size), then frames. */
  mp3WithId3: bytes('ID3', [3, 0, 0], [0, 0, 0, 10], zeros(10), mp3Frame(), mp3Frame()),
  /** 100 bytes of junk before the first frame: only found when the name says .mp3. */
  mp3AfterJunk: bytes(new Uint8Array(100).fill(0x20), mp3Frame(), mp3Frame()),
  /** ADTS, AAC LC, 44.1 kHz (sampling index 4), stereo. */
  aacAdts: bytes([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc], zeros(64)),
  /** ftyp M4A, then a moov with an mp4a sample entry. */
  m4a: bytes(
    [0, 0, 0, 0x20],
    'ftypM4A ',
    [0, 0, 0, 0],
    'M4A mp42isom',
    [0, 0, 0, 0],
    [0, 0, 0, 0x10],
    'moov',
    [0, 0, 0, 0x08],
    'mp4a',
  ),
  /** Ogg page 0 carrying OpusHead. */
  oggOpus: bytes('OggS', [0, 2], zeros(8), [1, 0, 0, 0], zeros(4), zeros(4), [1, 19], 'OpusHead', [1, 2], zeros(9)),
  oggVorbis: bytes('OggS', [0, 2], zeros(8), [1, 0, 0, 0], zeros(4), zeros(4), [1, 30], [1], 'vorbis', zeros(23)),
  oggSpeex: bytes('OggS', [0, 2], zeros(8), [1, 0, 0, 0], zeros(4), zeros(4), [1, 80], 'Speex   ', zeros(72)),
  /** EBML header with DocType "webm", then a track whose CodecID is A_OPUS (as MediaRecorder writes). */
  webmOpus: bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], 'webm', zeros(24), [0x86, 0x86], 'A_OPUS'),
  matroskaVideo: bytes([0x1a, 0x45, 0xdf, 0xa3, 0xa3, 0x42, 0x82, 0x88], 'matroska', zeros(24), 'V_MPEG4'),
  /** fLaC marker and a STREAMINFO block header. */
  flac: bytes('fLaC', [0x80, 0, 0, 34], zeros(34)),
  aiff: bytes('FORM', [0, 0, 0, 100], 'AIFF', zeros(32)),
  png: bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], zeros(16)),
  threeGpp: bytes([0, 0, 0, 0x14], 'ftyp3gp4', [0, 0, 0, 0], '3gp4'),
  /** An ID3 tag that claims 2 MB in a 30-byte file. */
  truncatedId3: bytes('ID3', [3, 0, 0], [0, 0x7f, 0x7f, 0x7f], zeros(20)),
  text: bytes('Hello, this is not audio at all.\n'),
} as const;
