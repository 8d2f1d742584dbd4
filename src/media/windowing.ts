import { textSimilarity } from '../core/blocks';
import type { AsrChunk } from './asr-engine';
import { TARGET_SAMPLE_RATE } from './resample';
import type { TranscriptSegment, TranscriptWord } from '../contracts';

/**
 * Long audio in Whisper-sized windows, and the per-window phrases merged back
 * into one transcript (§5.2: sorted by start_time, no overlaps, no negative
 * durations).
 */

export const DEFAULT_WINDOW_SECONDS = 30;
export const DEFAULT_OVERLAP_SECONDS = 5;

export interface WindowingOptions {
  sampleRate?: number;
  windowSeconds?: number;
  overlapSeconds?: number;
}

export interface AudioWindow {
  index: number;
  start_sample: number;
  end_sample: number;
  /** Seconds from the start of the recording. */
  start_time: number;
  end_time: number;
}

/**
 * Windows of `windowSeconds` that start every `windowSeconds - overlapSeconds`;
 * the last one ends at the end of the audio. 95 s in 30 s windows with 5 s
 * overlap: 0-30, 25-55, 50-80, 75-95.
 */
export function planWindows(sampleCount: number, options: WindowingOptions = {}): AudioWindow[] {
  const sampleRate = options.sampleRate ?? TARGET_SAMPLE_RATE;
  const windowSeconds = options.windowSeconds ?? DEFAULT_WINDOW_SECONDS;
  const overlapSeconds = options.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
  if (!(windowSeconds > 0) || !(overlapSeconds >= 0) || overlapSeconds >= windowSeconds) {
    throw new RangeError('need windowSeconds > 0 and 0 <= overlapSeconds < windowSeconds');
  }
  const length = Math.round(windowSeconds * sampleRate);
  const stride = length - Math.round(overlapSeconds * sampleRate);
  const windows: AudioWindow[] = [];
  for (let start = 0; start < sampleCount; start += stride) {
    const end = Math.min(sampleCount, start + length);
    windows.push({
      index: windows.length,
      start_sample: start,
      end_sample: end,
      start_time: start / sampleRate,
      end_time: end / sampleRate,
    });
    if (end === sampleCount) break;
  }
  return windows;
}

export function windowSamples(samples: Float32Array, window: AudioWindow): Float32Array {
  return samples.subarray(window.start_sample, window.end_sample);
}

/** One window's engine output, in seconds from the window start. */
export interface WindowTranscript {
  window: AudioWindow;
  chunks: readonly AsrChunk[];
  words?: readonly AsrChunk[];
}

export interface MergeOptions {
  /** Segments end no later than this (the recording's length, seconds). */
  duration?: number;
}

interface Candidate {
  start: number;
  end: number;
  text: string;
  /** Positions (in start order) of the windows this phrase came from; several once merged. */
  windows: number[];
  /** Whether the phrase's midpoint lies in the middle part of its window (not in an overlap half it cedes). */
  central: boolean;
  words: TranscriptWord[];
}

/** Phrases of neighbouring windows this close (seconds) may be one phrase cut by a window edge. */
const DUPLICATE_GAP = 0.5;
/** Without shared words at the seam, phrases must share this much of the shorter one's time ... */
const DUPLICATE_TIME_SHARE = 0.5;
/** ... and be this similar (character-bigram Dice) to count as the same speech. */
const DUPLICATE_SIMILARITY = 0.6;
/** How far back (seconds of start time) a phrase looks for its duplicate. */
const DUPLICATE_LOOKBACK = 60;

/**
 * Per-window phrases to one transcript:
 * 1. offset each chunk by its window's start; a null end is the window's end;
 *    times outside the window are clamped into it; empty texts are dropped;
 * 2. phrases of different windows that are the same speech are merged into one
 *    spanning both: when they touch in time and the end of one is the start of
 *    the other (a phrase cut by one window's edge, heard whole by the next:
 *    the shared words are kept once), or when they share at least half of the
 *    shorter one's time and one contains the other or they are similar
 *    (bigram Dice >= 0.6) — then the text of the window that heard it away from
 *    its edge wins (each overlap is cut at its middle);
 * 3. everything else is kept, so speech that only one window heard survives;
 * 4. sorted by start_time; a phrase that runs into the next is ended where the
 *    next starts; nothing ends after `duration` or before it starts; a phrase
 *    that starts at or after `duration` is added to the one before it;
 * 5. ids `segment_001`, `segment_002`, ... in order: the same input always
 *    gives the same ids.
 */
export function mergeWindowTranscripts(
  transcripts: readonly WindowTranscript[],
  options: MergeOptions = {},
): TranscriptSegment[] {
  const ordered = [...transcripts].sort((a, b) => a.window.start_time - b.window.start_time);
  // cuts[i]: the middle of the overlap between window i-1 and window i.
  const cuts = ordered.map((transcript, index) => {
    const previous = ordered[index - 1];
    return previous
      ? (transcript.window.start_time + previous.window.end_time) / 2
      : Number.NEGATIVE_INFINITY;
  });
  const all = ordered
    .flatMap((transcript, index) =>
      toCandidates(
        transcript,
        index,
        cuts[index] ?? Number.NEGATIVE_INFINITY,
        cuts[index + 1] ?? Number.POSITIVE_INFINITY,
      ),
    )
    .sort((a, b) => a.start - b.start || a.end - b.end);

  const merged: Candidate[] = [];
  for (const candidate of all) {
    let joined = false;
    for (let index = merged.length - 1; index >= 0 && !joined; index--) {
      const other = merged[index];
      if (!other) continue;
      if (candidate.start - other.start > DUPLICATE_LOOKBACK) break;
      if (other.windows.some((window) => candidate.windows.includes(window))) continue;
      const cut = cuts[Math.max(...other.windows, ...candidate.windows)] ?? 0;
      const combined = mergeDuplicate(other, candidate, cut);
      if (combined) {
        merged[index] = combined;
        joined = true;
      }
    }
    if (!joined) merged.push(candidate);
  }

  return finalize(merged, options.duration);
}

function toCandidates(transcript: WindowTranscript, position: number, from: number, to: number): Candidate[] {
  const { window } = transcript;
  const length = window.end_time - window.start_time;
  const place = (chunk: AsrChunk) => {
    const start = clamp(chunk.timestamp[0], 0, length);
    const end = clamp(chunk.timestamp[1] ?? length, start, length);
    return { start: window.start_time + start, end: window.start_time + end };
  };
  const words: TranscriptWord[] = (transcript.words ?? [])
    .map((chunk) => ({ ...place(chunk), word: chunk.text.trim() }))
    .filter((word) => word.word !== '')
    .map((word) => ({ word: word.word, start_time: word.start, end_time: word.end, confidence: null }));
  const candidates: Candidate[] = transcript.chunks
    .map((chunk) => {
      const { start, end } = place(chunk);
      const middle = (start + end) / 2;
      return {
        start,
        end,
        text: normalizeSpace(chunk.text),
        windows: [position],
        central: middle >= from && middle < to,
        words: [],
      };
    })
    .filter((candidate) => candidate.text !== '');
  for (const word of words) {
    const middle = (word.start_time + word.end_time) / 2;
    const owner =
      candidates.find((candidate) => middle >= candidate.start && middle <= candidate.end) ??
      nearest(candidates, middle);
    owner?.words.push(word);
  }
  return candidates;
}

function nearest(candidates: Candidate[], time: number): Candidate | undefined {
  let best: Candidate | undefined;
  let distance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const gap = Math.min(Math.abs(candidate.start - time), Math.abs(candidate.end - time));
    if (gap < distance) [best, distance] = [candidate, gap];
  }
  return best;
}

/** One phrase from two phrases of different windows that are the same speech, or undefined. */
function mergeDuplicate(a: Candidate, b: Candidate, cut: number): Candidate | undefined {
  const shared = Math.min(a.end, b.end) - Math.max(a.start, b.start);
  if (shared < -DUPLICATE_GAP) return undefined;
  const [early, late] = Math.min(...a.windows) < Math.min(...b.windows) ? [a, b] : [b, a];
  const [first, second] = a.start <= b.start ? [a, b] : [b, a];
  let text = stitchAtSeam(first.text, second.text);
  if (text === undefined) {
    const shorter = Math.min(a.end - a.start, b.end - b.start);
    if (shared < DUPLICATE_TIME_SHARE * shorter) return undefined;
    const match = sameSpeech(a.text, b.text);
    if (match === undefined) return undefined;
    text = match === 'similar' ? (b.central && !a.central ? b.text : a.text) : match;
  }
  return {
    start: Math.min(a.start, b.start),
    end: Math.max(a.end, b.end),
    text,
    windows: [...a.windows, ...b.windows],
    central: a.central || b.central,
    words: mergeWords(early.words, late.words, cut),
  };
}

/** Words near the cut are taken from both windows, then the repeated run at the seam is kept once. */
const WORD_MARGIN = 1;

function mergeWords(early: TranscriptWord[], late: TranscriptWord[], cut: number): TranscriptWord[] {
  const middle = (word: TranscriptWord) => (word.start_time + word.end_time) / 2;
  const head = early.filter((word) => middle(word) < cut + WORD_MARGIN);
  const tail = late.filter((word) => middle(word) >= cut - WORD_MARGIN);
  const shared = seamLength(
    head.map((word) => tokenKey(word.word)),
    tail.map((word) => tokenKey(word.word)),
    1,
  );
  if (shared > 0) return [...head, ...tail.slice(shared)];
  return [...early.filter((word) => middle(word) < cut), ...late.filter((word) => middle(word) >= cut)];
}

/** The longest run (at least `minimum` long) that ends `left` and starts `right`; 0 when none. */
function seamLength(left: readonly string[], right: readonly string[], minimum: number): number {
  for (let size = Math.min(left.length, right.length); size >= Math.max(1, minimum); size--) {
    let equal = true;
    for (let index = 0; index < size && equal; index++) {
      equal = left[left.length - size + index] === right[index];
    }
    if (equal) return size;
  }
  return 0;
}

/**
 * Joins `a` (earlier) and `b` when they are the same speech: the longest run of
 * words (characters in CJK text) that ends `a` and starts `b` is kept once; a
 * text that contains the other wins; similar texts give the longer one.
 * Undefined when they look unrelated.
 */
export function stitchTexts(a: string, b: string): string | undefined {
  const seam = stitchAtSeam(a, b);
  if (seam !== undefined) return seam;
  const match = sameSpeech(a, b);
  return match === 'similar' ? (b.length > a.length ? b : a) : match;
}

/** `a` + the rest of `b` when at least two words (all of a shorter text) end `a` and start `b`. */
function stitchAtSeam(a: string, b: string): string | undefined {
  const leftKeys = tokens(a).map(tokenKey);
  const right = tokens(b);
  const size = seamLength(leftKeys, right.map(tokenKey), Math.min(2, leftKeys.length, right.length));
  return size > 0 ? joinTexts([a, right.slice(size).join(' ')]) : undefined;
}

/** The containing text when one contains the other, 'similar' when alike, else undefined. */
function sameSpeech(a: string, b: string): string | 'similar' | undefined {
  const leftText = tokens(a).map(tokenKey).join(' ');
  const rightText = tokens(b).map(tokenKey).join(' ');
  if (rightText !== '' && leftText.includes(rightText)) return a;
  if (leftText !== '' && rightText.includes(leftText)) return b;
  return textSimilarity(a, b) >= DUPLICATE_SIMILARITY ? 'similar' : undefined;
}

/** Scripts written without spaces between words, with their punctuation (Korean uses spaces). */
const CJK_CHARACTERS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303f\\uff00-\\uffef';
const CJK = new RegExp(`[${CJK_CHARACTERS}]`, 'u');
/** One token per CJK character, one per whitespace-separated word otherwise. */
const TOKEN = new RegExp(`[${CJK_CHARACTERS}]|[^\\s${CJK_CHARACTERS}]+`, 'gu');
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK_CHARACTERS}]) +(?=[${CJK_CHARACTERS}])`, 'gu');

function tokens(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Case and punctuation do not make two words different. */
function tokenKey(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}\p{N}\p{M}]+/gu, '');
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Joins phrases with a space, except between CJK characters. */
export function joinTexts(parts: readonly string[]): string {
  let out = '';
  for (const raw of parts) {
    const part = normalizeSpace(raw);
    if (part === '') continue;
    const cjkBoundary = CJK.test(out.at(-1) ?? '') && CJK.test(part[0] ?? '');
    out = out === '' || cjkBoundary ? out + part : `${out} ${part}`;
  }
  // Stitched CJK tokens were joined with spaces; put those runs back together.
  return out.replace(SPACE_BETWEEN_CJK, '');
}

function finalize(candidates: Candidate[], duration: number | undefined): TranscriptSegment[] {
  const limit = duration ?? Number.POSITIVE_INFINITY;
  const sorted = foldPastEnd(
    candidates
      .map((candidate) => ({ ...candidate, start: clamp(candidate.start, 0, limit) }))
      .sort((a, b) => a.start - b.start || a.end - b.end),
    limit,
  );
  return sorted.map((candidate, index) => {
    const next = sorted[index + 1];
    const end = clamp(
      Math.min(candidate.end, next?.start ?? Number.POSITIVE_INFINITY),
      candidate.start,
      limit,
    );
    const start = round(candidate.start);
    const roundedEnd = Math.max(start, round(end));
    return {
      segment_id: segmentId(index),
      speaker: null,
      start_time: start,
      end_time: roundedEnd,
      text: candidate.text,
      confidence: null,
      words: candidate.words.map((word) => {
        const wordStart = round(clamp(word.start_time, start, roundedEnd));
        return {
          ...word,
          start_time: wordStart,
          end_time: round(clamp(word.end_time, wordStart, roundedEnd)),
        };
      }),
    };
  });
}

/**
 * A phrase the model placed at or after the end of the audio (Whisper goes on
 * past the end of a short clip) would be a citation of no time that plays
 * nothing. Its text is kept: it joins the phrase before it, which then runs to
 * the end; when nothing comes before, it spans the whole audio.
 */
function foldPastEnd(sorted: Candidate[], limit: number): Candidate[] {
  const kept: Candidate[] = [];
  for (const candidate of sorted) {
    if (round(candidate.start) < round(limit)) {
      kept.push(candidate);
      continue;
    }
    const previous = kept.at(-1);
    if (previous === undefined) {
      kept.push({ ...candidate, start: 0 });
      continue;
    }
    kept[kept.length - 1] = {
      ...previous,
      end: Math.max(previous.end, candidate.end),
      text: joinTexts([previous.text, candidate.text]),
      windows: [...previous.windows, ...candidate.windows],
      words: [...previous.words, ...candidate.words],
    };
  }
  return kept;
}

export function segmentId(index: number): string {
  return `segment_${String(index + 1).padStart(3, '0')}`;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/** Milliseconds are plenty for audio positions, and keep the JSON short. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
