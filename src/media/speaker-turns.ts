import type { SpeakerTurn } from './asr-engine';

/**
 * From a pyannote-style segmentation model's output to speaker turns over a
 * whole recording.
 *
 * The model classifies each frame into a "powerset" class: a set of local
 * speakers talking in that frame (pyannote segmentation 3.0: 3 speakers, at
 * most 2 at once, 7 classes). transformers.js' `post_process_speaker_diarization`
 * gives runs of one class as `{ id, start, end }` in seconds from the window
 * start. Local speaker numbers mean something only inside one window (the
 * model is permutation-invariant), so long audio runs in overlapping windows
 * and each window's speakers are matched to the ones already known by how
 * much they talk at the same time in the overlap. Without a speaker-embedding
 * model, someone who falls silent for longer than a window returns under a new
 * label: the limit of segmentation-only diarization.
 */

/** pyannote segmentation 3.0's classes: no one, each of 3 speakers alone, each pair. */
export const PYANNOTE_POWERSET: readonly (readonly number[])[] = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2]];

/** One run of a powerset class, as transformers.js' post-processor returns it (seconds from the window start). */
export interface ClassRun {
  id: number;
  start: number;
  end: number;
}

/** A turn of a speaker numbered within its window, in seconds from the start of the recording. */
export interface LocalTurn {
  speaker: number;
  start: number;
  end: number;
}

export interface DiarizedWindow {
  /** Seconds from the start of the recording. */
  start: number;
  end: number;
  turns: readonly LocalTurn[];
}

/** Turns closer than this (seconds) are one turn: about one frame of pyannote segmentation 3.0 (17 ms). */
const JOIN_GAP = 0.02;

/** Class runs of one window → turns per local speaker, offset to the recording's time line. */
export function powersetToTurns(
  runs: readonly ClassRun[],
  offset: number,
  powerset: readonly (readonly number[])[] = PYANNOTE_POWERSET,
): LocalTurn[] {
  const turns: LocalTurn[] = [];
  for (const run of runs) {
    const speakers = powerset[run.id];
    if (!speakers) throw new RangeError(`class ${run.id} is not in the powerset`);
    for (const speaker of speakers) turns.push({ speaker, start: offset + run.start, end: offset + run.end });
  }
  return joinTurns(turns);
}

/**
 * Windows (in order, each overlapping the previous one) → one list of turns
 * with stable labels `SPEAKER_00`, `SPEAKER_01`, … in order of first speech.
 * In an overlap, each window keeps its half: the cut is the overlap's middle.
 */
export function stitchWindows(windows: readonly DiarizedWindow[]): SpeakerTurn[] {
  const global: Array<{ speaker: number; start: number; end: number }> = [];
  let nextSpeaker = 0;
  let previous: {
    window: DiarizedWindow;
    turns: Array<{ speaker: number; start: number; end: number }>;
  } | null = null;
  windows.forEach((window, index) => {
    const mapping = previous
      ? matchSpeakers(window.turns, previous.turns, window.start, previous.window.end)
      : new Map<number, number>();
    const mapped = window.turns.map((turn) => {
      let speaker = mapping.get(turn.speaker);
      if (speaker === undefined) {
        speaker = nextSpeaker++;
        mapping.set(turn.speaker, speaker);
      }
      return { speaker, start: turn.start, end: turn.end };
    });
    const next = windows[index + 1];
    const from = previous ? (window.start + previous.window.end) / 2 : window.start;
    const to = next && next.start < window.end ? (next.start + window.end) / 2 : window.end;
    for (const turn of mapped) {
      const start = Math.max(turn.start, from);
      const end = Math.min(turn.end, to);
      if (end > start) global.push({ speaker: turn.speaker, start, end });
    }
    previous = { window, turns: mapped };
  });
  return labelTurns(joinTurns(global));
}

/**
 * Local speaker → known speaker, pairing the two that talk at the same time
 * longest in [from, to] first (at most 3 × 3 pairs: greedy is exact enough);
 * a local speaker who shares no time with anyone stays unmatched (a new speaker).
 */
function matchSpeakers(
  local: readonly LocalTurn[],
  known: readonly LocalTurn[],
  from: number,
  to: number,
): Map<number, number> {
  const shared = new Map<string, { local: number; known: number; seconds: number }>();
  for (const a of local) {
    for (const b of known) {
      const seconds = Math.min(a.end, b.end, to) - Math.max(a.start, b.start, from);
      if (seconds <= 0) continue;
      const key = `${a.speaker}|${b.speaker}`;
      const entry = shared.get(key) ?? { local: a.speaker, known: b.speaker, seconds: 0 };
      entry.seconds += seconds;
      shared.set(key, entry);
    }
  }
  const mapping = new Map<number, number>();
  const taken = new Set<number>();
  for (const pair of [...shared.values()].sort((x, y) => y.seconds - x.seconds)) {
    if (mapping.has(pair.local) || taken.has(pair.known)) continue;
    mapping.set(pair.local, pair.known);
    taken.add(pair.known);
  }
  return mapping;
}

/** Same-speaker turns that touch (within a frame) or overlap become one; sorted by start. */
function joinTurns<T extends { speaker: number; start: number; end: number }>(turns: readonly T[]): T[] {
  const bySpeaker = new Map<number, T[]>();
  for (const turn of [...turns].sort((a, b) => a.start - b.start)) {
    const list = bySpeaker.get(turn.speaker) ?? [];
    const last = list.at(-1);
    if (last && turn.start <= last.end + JOIN_GAP) last.end = Math.max(last.end, turn.end);
    else list.push({ ...turn });
    bySpeaker.set(turn.speaker, list);
  }
  return [...bySpeaker.values()].flat().sort((a, b) => a.start - b.start || a.speaker - b.speaker);
}

/** Speaker numbers → `SPEAKER_00`… in order of first speech, whatever numbers the stitching gave. */
function labelTurns(turns: ReadonlyArray<{ speaker: number; start: number; end: number }>): SpeakerTurn[] {
  const labels = new Map<number, string>();
  return turns
    .filter((turn) => round(turn.end) > round(turn.start))
    .map((turn) => {
      let label = labels.get(turn.speaker);
      if (label === undefined) {
        label = `SPEAKER_${String(labels.size).padStart(2, '0')}`;
        labels.set(turn.speaker, label);
      }
      return { speaker: label, start: round(turn.start), end: round(turn.end) };
    });
}

/** Milliseconds are enough (frames are 17 ms) and keep stored numbers short. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
