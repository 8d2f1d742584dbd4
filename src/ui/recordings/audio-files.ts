/**
 * Which files the drop zone and file picker take. The page only looks at the
 * name and type here; the core worker sniffs the bytes on upload and refuses
 * what is not audio with UNSUPPORTED_AUDIO_FORMAT. The list mirrors the
 * formats the sniffer knows (src/media/audio-formats.ts), which the UI may not
 * import at run time.
 */

export const AUDIO_EXTENSIONS = [
  'wav',
  'wave',
  'mp3',
  'm4a',
  'm4b',
  'mp4',
  'aac',
  'ogg',
  'oga',
  'opus',
  'webm',
  'weba',
  'flac',
] as const;

export const AUDIO_MIME_TYPES = [
  'audio/wav',
  'audio/wave',
  'audio/x-wav',
  'audio/vnd.wave',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/m4a',
  'audio/x-m4a',
  'audio/aac',
  'audio/x-aac',
  'audio/ogg',
  'audio/opus',
  'application/ogg',
  'audio/webm',
  'audio/flac',
  'audio/x-flac',
  // Containers that often hold only audio; the sniffer decides.
  'video/mp4',
  'video/webm',
  'video/ogg',
] as const;

/** The `accept` attribute of the file picker. */
export const AUDIO_ACCEPT = [
  ...AUDIO_EXTENSIONS.map((extension) => `.${extension}`),
  ...AUDIO_MIME_TYPES,
].join(',');

/**
 * Audio formats people record or download that no supported browser decodes, by
 * extension and MIME type: named in the refusal, so the file is converted rather than
 * recorded again. The core names the same formats from the bytes (src/media/audio-failure.ts).
 */
const UNSUPPORTED_AUDIO: Readonly<Record<string, string>> = {
  amr: 'AMR',
  awb: 'AMR-WB',
  '3gp': '3GP',
  '3ga': '3GP',
  '3g2': '3GP',
  wma: 'WMA',
  asf: 'WMA/ASF',
  aif: 'AIFF',
  aiff: 'AIFF',
  aifc: 'AIFF',
  caf: 'CAF',
  au: 'AU',
  snd: 'AU',
  ape: "Monkey's Audio (APE)",
  wv: 'WavPack',
  ra: 'RealAudio',
  rm: 'RealMedia',
  mka: 'Matroska (MKA)',
  mpc: 'Musepack',
  tta: 'TTA',
  dss: 'DSS (dictaphone)',
  ds2: 'DS2 (dictaphone)',
  spx: 'Speex',
  mp2: 'MPEG layer II (MP2)',
  ac3: 'AC-3',
};

const UNSUPPORTED_AUDIO_TYPES: Readonly<Record<string, string>> = {
  'audio/amr': 'AMR',
  'audio/amr-wb': 'AMR-WB',
  'audio/3gpp': '3GP',
  'audio/3gpp2': '3GP',
  'audio/x-ms-wma': 'WMA',
  'audio/aiff': 'AIFF',
  'audio/x-aiff': 'AIFF',
  'audio/x-caf': 'CAF',
  'audio/basic': 'AU',
  'audio/x-ape': "Monkey's Audio (APE)",
  'audio/x-wavpack': 'WavPack',
  'audio/x-pn-realaudio': 'RealAudio',
  'audio/x-matroska': 'Matroska (MKA)',
  'audio/ac3': 'AC-3',
};

export type AudioFileRejection = 'empty' | 'not_audio' | 'unsupported_format';

/** The audio format a file's name or type says, when it is one the browser cannot decode. */
export function unsupportedAudioFormat(file: Pick<FileLike, 'name' | 'type'>): string | null {
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return UNSUPPORTED_AUDIO[extension] ?? UNSUPPORTED_AUDIO_TYPES[mime] ?? null;
}

export interface FileLike {
  name: string;
  type: string;
  size: number;
}

/** Accepted when its type or its extension is a listed audio format (browsers often leave `type` empty). */
export function checkAudioFile(file: FileLike): AudioFileRejection | null {
  if (file.size === 0) return 'empty';
  const mime = file.type.split(';')[0]?.trim().toLowerCase() ?? '';
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const byType = (AUDIO_MIME_TYPES as readonly string[]).includes(mime);
  const byName = (AUDIO_EXTENSIONS as readonly string[]).includes(extension);
  if (byType || byName) return null;
  return unsupportedAudioFormat(file) === null ? 'not_audio' : 'unsupported_format';
}

/** The first file of a drop or a pick, with the verdict on it. */
export function firstAudioFile<T extends FileLike>(
  files: ArrayLike<T> | null | undefined,
): { file: T; rejection: AudioFileRejection | null } | null {
  const file = files && files.length > 0 ? files[0] : undefined;
  return file ? { file, rejection: checkAudioFile(file) } : null;
}
