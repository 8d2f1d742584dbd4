import type { AudioContainer } from './audio-formats';

/** Each container as a person knows it, for messages ("M4A", not "mp4"). */
const LABELS: Record<AudioContainer, string> = {
  wav: 'WAV',
  mp3: 'MP3',
  mp4: 'M4A',
  aac: 'AAC',
  ogg: 'OGG',
  webm: 'WebM',
  flac: 'FLAC',
};

export function containerLabel(container: AudioContainer): string {
  return LABELS[container];
}
