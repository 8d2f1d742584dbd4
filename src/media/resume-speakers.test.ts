import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../contracts';
import { diarizationStart, resumedSpeakerTurns, SPEAKER_CONTEXT_SECONDS } from './resume-speakers';

function segment(start: number, end: number, speaker: string | null): TranscriptSegment {
  return {
    segment_id: `segment_${String(start).padStart(3, '0')}`,
    speaker,
    start_time: start,
    end_time: end,
    text: 'words',
    confidence: null,
    words: [],
  };
}

describe('diarizationStart', () => {
  it('hears the whole recording when nothing is kept, or the kept segments have no speakers', () => {
    expect(diarizationStart([])).toBe(0);
    expect(diarizationStart([segment(0, 100, null)])).toBe(0);
  });

  it('starts a context before the seam when every kept speaker is heard in it', () => {
    const kept = [
      segment(0, 50, 'SPEAKER_00'),
      segment(50, 580, 'SPEAKER_01'),
      segment(580, 600, 'SPEAKER_00'),
    ];
    expect(diarizationStart(kept)).toBe(600 - SPEAKER_CONTEXT_SECONDS);
    // A seam inside the first context hears everything.
    expect(diarizationStart([segment(0, 10, 'SPEAKER_00')])).toBe(0);
  });

  it('reaches back to the last words of a kept speaker not heard in the context', () => {
    // The student (SPEAKER_01) asked at 300 s and was silent since: the diarizer hears them again.
    const kept = [
      segment(0, 300, 'SPEAKER_00'),
      segment(300, 310, 'SPEAKER_01'),
      segment(310, 600, 'SPEAKER_00'),
    ];
    expect(diarizationStart(kept)).toBe(300);
  });
});

describe('resumedSpeakerTurns', () => {
  // Kept: the lecturer (SPEAKER_00) and a student (SPEAKER_01) until the seam at 600 s.
  const kept = [
    segment(560, 580, 'SPEAKER_00'),
    segment(580, 590, 'SPEAKER_01'),
    segment(590, 600, 'SPEAKER_00'),
  ];

  it('moves turns onto the recording clock and gives each the kept label it shares most time with', () => {
    // The diarizer started at 570 s and numbered the speakers its own way.
    const turns = [
      { speaker: 'SPEAKER_00', start: 0, end: 10 }, // 570-580: the lecturer
      { speaker: 'SPEAKER_01', start: 10, end: 20 }, // 580-590: the student
      { speaker: 'SPEAKER_00', start: 20, end: 60 }, // 590-630: the lecturer on
    ].map((turn) => ({ ...turn, speaker: turn.speaker === 'SPEAKER_00' ? 'SPEAKER_01' : 'SPEAKER_00' }));
    expect(resumedSpeakerTurns(turns, 570, kept)).toEqual([
      { speaker: 'SPEAKER_00', start: 570, end: 580 },
      { speaker: 'SPEAKER_01', start: 580, end: 590 },
      { speaker: 'SPEAKER_00', start: 590, end: 630 },
    ]);
  });

  it('gives someone first heard after the seam the next unused label', () => {
    const turns = [
      { speaker: 'SPEAKER_00', start: 0, end: 30 }, // 570-600: the lecturer
      { speaker: 'SPEAKER_01', start: 35, end: 40 }, // 605-610: a guest
      { speaker: 'SPEAKER_02', start: 45, end: 50 }, // 615-620: another
    ];
    const labels = resumedSpeakerTurns(turns, 570, kept).map((turn) => turn.speaker);
    expect(labels).toEqual(['SPEAKER_00', 'SPEAKER_02', 'SPEAKER_03']);
  });

  it('never gives two new speakers the same kept label', () => {
    // Both overlap only the lecturer: the larger share takes the label, the other is someone new.
    const turns = [
      { speaker: 'A', start: 0, end: 10 }, // 570-580 with SPEAKER_00
      { speaker: 'B', start: 20, end: 25 }, // 590-595 with SPEAKER_00
    ];
    expect(resumedSpeakerTurns(turns, 570, kept).map((turn) => turn.speaker)).toEqual([
      'SPEAKER_00',
      'SPEAKER_02',
    ]);
  });
});
