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

export type AudioFileRejection = 'empty' | 'not_audio';

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
  return byType || byName ? null : 'not_audio';
}

/** The first file of a drop or a pick, with the verdict on it. */
export function firstAudioFile<T extends FileLike>(
  files: ArrayLike<T> | null | undefined,
): { file: T; rejection: AudioFileRejection | null } | null {
  const file = files && files.length > 0 ? files[0] : undefined;
  return file ? { file, rejection: checkAudioFile(file) } : null;
}
