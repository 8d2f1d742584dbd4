import type { TranscriptSegment } from '../contracts';
import type { SpeakerTurn } from './asr-engine';
import { seamOf } from './transcribe-resume';

/**
 * Speakers for a transcription that resumes (see transcribe-resume.ts). Only the audio
 * from the seam on is transcribed again, so only it needs speakers: diarizing the whole
 * recording again costs as much as the first run did. The diarizer hears the rest plus
 * some audio the kept segments already cover; in that stretch its speakers are matched
 * to the kept segments' labels, so a lecturer who was SPEAKER_00 before the tab closed is
 * SPEAKER_00 after it. Someone first heard after the seam gets the next unused label.
 */

/**
 * How much already-transcribed audio before the seam the diarizer hears again (seconds):
 * enough speech in it to tell who is who, little next to a lecture's length.
 */
export const SPEAKER_CONTEXT_SECONDS = 30;

/**
 * Where diarization starts (seconds). From the beginning when nothing is kept, or when
 * the kept segments have no speakers to match (the earlier run's diarizer failed, say):
 * then labels from a partial run could not be made to agree with anything. Otherwise a
 * context before the seam, reaching back to the last words of every kept speaker: a
 * student who asked a question at minute 5 and asks again after the seam is matched to
 * the label they had, not given a second one.
 */
export function diarizationStart(kept: readonly TranscriptSegment[]): number {
  const lastWords = new Map<string, TranscriptSegment>();
  for (const segment of kept) {
    if (!segment.speaker) continue;
    const last = lastWords.get(segment.speaker);
    if (!last || segment.end_time > last.end_time) lastWords.set(segment.speaker, segment);
  }
  if (lastWords.size === 0) return 0;
  let start = seamOf(kept) - SPEAKER_CONTEXT_SECONDS;
  for (const last of lastWords.values()) {
    if (last.end_time <= start) start = Math.min(start, last.start_time);
  }
  return Math.max(0, start);
}

/**
 * Turns the diarizer gave for the audio from `start` on (its clock starts there), on the
 * recording's clock and under the kept segments' labels. Each new speaker takes the kept
 * label it shares the most time with (one to one, the largest shares first); the others
 * take unused labels in order of first speech.
 */
export function resumedSpeakerTurns(
  turns: readonly SpeakerTurn[],
  start: number,
  kept: readonly TranscriptSegment[],
): SpeakerTurn[] {
  const shifted = turns.map((turn) => ({ ...turn, start: turn.start + start, end: turn.end + start }));
  const shares: Array<{ heard: string; label: string; seconds: number }> = [];
  const totals = new Map<string, number>();
  for (const turn of shifted) {
    for (const segment of kept) {
      if (!segment.speaker) continue;
      const seconds = Math.min(turn.end, segment.end_time) - Math.max(turn.start, segment.start_time);
      if (seconds <= 0) continue;
      const key = `${turn.speaker}\u0000${segment.speaker}`;
      totals.set(key, (totals.get(key) ?? 0) + seconds);
    }
  }
  for (const [key, seconds] of totals) {
    const [heard = '', label = ''] = key.split('\u0000');
    shares.push({ heard, label, seconds });
  }
  shares.sort((a, b) => b.seconds - a.seconds || a.heard.localeCompare(b.heard));

  const mapping = new Map<string, string>();
  const taken = new Set<string>();
  for (const { heard, label } of shares) {
    if (mapping.has(heard) || taken.has(label)) continue;
    mapping.set(heard, label);
    taken.add(label);
  }
  const used = new Set(kept.flatMap((segment) => (segment.speaker ? [segment.speaker] : [])));
  let next = 0;
  const unused = (): string => {
    let label: string;
    do label = `SPEAKER_${String(next++).padStart(2, '0')}`;
    while (used.has(label));
    used.add(label);
    return label;
  };
  for (const turn of [...shifted].sort((a, b) => a.start - b.start)) {
    if (!mapping.has(turn.speaker)) mapping.set(turn.speaker, unused());
  }
  return shifted.map((turn) => ({ ...turn, speaker: mapping.get(turn.speaker) ?? turn.speaker }));
}
