import type { TranscriptSegment } from '../contracts';
import { segmentId, type AudioWindow } from './windowing';

/**
 * Going on with a transcription that a closed tab (or a failure) cut short, instead of
 * starting it again. What an earlier run finished is in its `Progress` events: the
 * segments no later window can change, and the language each window heard. The run that
 * resumes keeps those, decodes the audio again and transcribes on the same windows from
 * the last one that reaches past the seam (the end of the last kept segment); of what
 * those windows give, only segments that start at or after the seam are new. So the
 * transcript comes out as one uninterrupted run would have made it: same windows, same
 * merge at each overlap, nothing twice and nothing missing at the seam.
 */
export interface TranscriptionResume {
  /** Segments earlier runs published, in start order, ids `segment_001`... */
  segments: TranscriptSegment[];
  /** The language each finished window detected, by window index. */
  languages: ReadonlyMap<number, string>;
}

export const NO_RESUME: TranscriptionResume = { segments: [], languages: new Map() };

/** The fields of a stored event this module reads. */
export interface StoredEvent {
  event: string;
  data: unknown;
}

/** What earlier runs of a job finished, from its stored events (oldest first). */
export function resumeFromEvents(events: Iterable<StoredEvent>): TranscriptionResume {
  const segments = new Map<string, TranscriptSegment>();
  const languages = new Map<number, string>();
  for (const { event, data } of events) {
    if (event !== 'Progress' || typeof data !== 'object' || data === null) continue;
    const progress = data as Record<string, unknown>;
    if (progress.phase !== 'transcribing') continue;
    if (Array.isArray(progress.segments)) {
      for (const segment of progress.segments) {
        if (isSegment(segment)) segments.set(segment.segment_id, segment);
      }
    }
    const current = progress.current;
    if (typeof progress.detected_language === 'string' && typeof current === 'number' && current >= 1) {
      languages.set(current - 1, progress.detected_language);
    }
  }
  return {
    segments: [...segments.values()].sort((a, b) => a.start_time - b.start_time || a.end_time - b.end_time),
    languages,
  };
}

/** Where the kept transcript ends (seconds): the end of its last segment; 0 with none. */
export function seamOf(segments: readonly TranscriptSegment[]): number {
  return segments.reduce((end, segment) => Math.max(end, segment.end_time), 0);
}

/**
 * The first window to transcribe again: the first that reaches past the seam. The windows
 * before it hold nothing after the seam; this one may hold speech that was still unsettled
 * (not yet published) when the run stopped, so it is heard again.
 */
export function firstWindowToRun(windows: readonly AudioWindow[], resume: TranscriptionResume): number {
  if (resume.segments.length === 0) return 0;
  const seam = seamOf(resume.segments);
  const index = windows.findIndex((window) => window.end_time > seam);
  return index === -1 ? windows.length : index;
}

/**
 * The segments of the windows run again that are not kept already, numbered on after the
 * kept ones. A segment belongs after the seam when most of it lies there: heard again (on
 * another device, WASM instead of WebGPU) a window may cut its segments a little
 * differently, and one that starts just before the seam and runs on past it holds words
 * the kept segments do not. Its start is moved to the seam, so no two segments overlap.
 */
export function afterSeam(
  merged: readonly TranscriptSegment[],
  resume: TranscriptionResume,
): TranscriptSegment[] {
  const kept = resume.segments.length;
  const seam = kept > 0 ? seamOf(resume.segments) : Number.NEGATIVE_INFINITY;
  return merged
    .filter((segment) => segment.end_time > seam && (segment.start_time + segment.end_time) / 2 >= seam)
    .map((segment, index) => ({
      ...segment,
      start_time: Math.max(segment.start_time, seam),
      segment_id: segmentId(kept + index),
    }));
}

function isSegment(value: unknown): value is TranscriptSegment {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return (
    typeof data.segment_id === 'string' &&
    typeof data.text === 'string' &&
    typeof data.start_time === 'number' &&
    Number.isFinite(data.start_time) &&
    typeof data.end_time === 'number' &&
    Number.isFinite(data.end_time)
  );
}
