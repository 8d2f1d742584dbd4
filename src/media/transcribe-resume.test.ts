import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../contracts';
import {
  NO_RESUME,
  afterSeam,
  firstWindowToRun,
  resumeFromEvents,
  seamOf,
  type TranscriptionResume,
} from './transcribe-resume';
import { planWindows } from './windowing';

function segment(id: number, start: number, end: number, text = `phrase ${id}`): TranscriptSegment {
  return {
    segment_id: `segment_${String(id).padStart(3, '0')}`,
    speaker: null,
    start_time: start,
    end_time: end,
    text,
    confidence: null,
    words: [],
  };
}

function resume(segments: TranscriptSegment[]): TranscriptionResume {
  return { segments, languages: new Map() };
}

describe('resumeFromEvents', () => {
  it('keeps every segment the transcribing Progress events published, once each, in start order', () => {
    const found = resumeFromEvents([
      { event: 'Queued', data: { status: 'queued' } },
      { event: 'Progress', data: { phase: 'transcribing', current: 1, segments: [segment(1, 0, 4)] } },
      { event: 'Progress', data: { phase: 'transcribing', current: 2, segments: [segment(2, 6, 9)] } },
      // A later run heard window 2 again and published nothing new, then window 3.
      { event: 'Queued', data: { status: 'queued', resumed: true } },
      { event: 'Progress', data: { phase: 'transcribing', current: 2, segments: [segment(2, 6, 9)] } },
      { event: 'Progress', data: { phase: 'transcribing', current: 3, segments: [segment(3, 30, 33)] } },
      // Not transcript: other phases, other events, malformed segments.
      { event: 'Progress', data: { phase: 'reading', segments: [segment(9, 1, 2)] } },
      { event: 'ModelLoading', data: { segments: [segment(8, 1, 2)] } },
      {
        event: 'Progress',
        data: { phase: 'transcribing', segments: [{ segment_id: 'x', text: 'no times' }] },
      },
    ]);
    expect(found.segments.map((s) => s.segment_id)).toEqual(['segment_001', 'segment_002', 'segment_003']);
  });

  it('remembers the language each finished window heard, by window index', () => {
    const found = resumeFromEvents([
      {
        event: 'Progress',
        data: { phase: 'transcribing', current: 1, segments: [], detected_language: 'zh' },
      },
      {
        event: 'Progress',
        data: { phase: 'transcribing', current: 2, segments: [], detected_language: null },
      },
      {
        event: 'Progress',
        data: { phase: 'transcribing', current: 3, segments: [], detected_language: 'en' },
      },
    ]);
    expect([...found.languages]).toEqual([
      [0, 'zh'],
      [2, 'en'],
    ]);
  });

  it('finds nothing in a job that never transcribed', () => {
    expect(resumeFromEvents([{ event: 'Queued', data: {} }])).toEqual(NO_RESUME);
  });
});

describe('the seam', () => {
  // 80 s in 30 s windows every 25 s: 0-30, 25-55, 50-80.
  const windows = planWindows(80 * 16_000);

  it('is where the last kept segment ends', () => {
    expect(seamOf([segment(1, 0, 4), segment(2, 20.5, 23.9)])).toBe(23.9);
    expect(seamOf([])).toBe(0);
  });

  it('runs again from the first window that reaches past it, never one that ends before it', () => {
    // Settled after window 1 (0-30): up to 24 s. Window 1 is heard again for its unsettled tail.
    expect(firstWindowToRun(windows, resume([segment(1, 0, 23.9)]))).toBe(0);
    expect(firstWindowToRun(windows, resume([segment(1, 0, 30)]))).toBe(1);
    expect(firstWindowToRun(windows, resume([segment(1, 0, 54)]))).toBe(1);
    expect(firstWindowToRun(windows, resume([segment(1, 0, 55)]))).toBe(2);
    // Everything kept: no window runs.
    expect(firstWindowToRun(windows, resume([segment(1, 0, 80)]))).toBe(3);
    // Nothing kept: from the start.
    expect(firstWindowToRun(windows, NO_RESUME)).toBe(0);
  });

  it('keeps of the windows run again only what starts at or after it, numbered on after the kept ones', () => {
    const kept = resume([segment(1, 0, 4), segment(2, 4, 23.9)]);
    const heardAgain = [
      segment(1, 0, 4, 'phrase 1'),
      segment(2, 4, 23.9, 'phrase 2'),
      segment(3, 23.9, 27, 'phrase 3'),
      segment(4, 28, 31, 'phrase 4'),
    ];
    expect(afterSeam(heardAgain, kept).map((s) => [s.segment_id, s.text])).toEqual([
      ['segment_003', 'phrase 3'],
      ['segment_004', 'phrase 4'],
    ]);
  });

  it('keeps a segment heard again a little earlier when most of it lies after the seam, starting at the seam', () => {
    const kept = resume([segment(1, 0, 4), segment(2, 4, 23.9)]);
    const cutDifferently = [
      segment(2, 4, 23.2, 'phrase 2'),
      segment(3, 23.2, 27, 'phrase 3 and more'),
      segment(4, 28, 31, 'phrase 4'),
    ];
    expect(afterSeam(cutDifferently, kept).map((s) => [s.segment_id, s.start_time, s.text])).toEqual([
      ['segment_003', 23.9, 'phrase 3 and more'],
      ['segment_004', 28, 'phrase 4'],
    ]);
    // Mostly before the seam: the kept segments hold its words.
    expect(afterSeam([segment(2, 10, 24.5, 'phrase 2')], kept)).toEqual([]);
  });

  it('changes nothing for a run that resumes nothing', () => {
    const heard = [segment(1, 0, 4), segment(2, 4, 9)];
    expect(afterSeam(heard, NO_RESUME)).toEqual(heard);
  });
});
