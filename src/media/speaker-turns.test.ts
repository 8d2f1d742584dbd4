import { describe, expect, it } from 'vitest';
import { powersetToTurns, stitchWindows, type DiarizedWindow } from './speaker-turns';

describe('powersetToTurns', () => {
  it('maps classes to local speakers, overlap classes to both, silence to none, offset applied', () => {
    const turns = powersetToTurns(
      [
        { id: 0, start: 0, end: 1 },
        { id: 1, start: 1, end: 2 },
        { id: 4, start: 2, end: 3 },
        { id: 2, start: 3, end: 4 },
        { id: 0, start: 4, end: 5 },
        { id: 6, start: 5, end: 6 },
      ],
      10,
    );
    expect(turns).toEqual([
      { speaker: 0, start: 11, end: 13 },
      { speaker: 1, start: 12, end: 14 },
      { speaker: 1, start: 15, end: 16 },
      { speaker: 2, start: 15, end: 16 },
    ]);
  });

  it('refuses a class outside the powerset (a model with other outputs)', () => {
    expect(() => powersetToTurns([{ id: 7, start: 0, end: 1 }], 0)).toThrow(RangeError);
  });
});

describe('stitchWindows', () => {
  it('labels speakers SPEAKER_00.. in order of first speech, whatever the local numbers', () => {
    const windows: DiarizedWindow[] = [
      {
        start: 0,
        end: 10,
        turns: [
          { speaker: 2, start: 0, end: 4 },
          { speaker: 0, start: 4, end: 9 },
        ],
      },
    ];
    expect(stitchWindows(windows)).toEqual([
      { speaker: 'SPEAKER_00', start: 0, end: 4 },
      { speaker: 'SPEAKER_01', start: 4, end: 9 },
    ]);
  });

  it('keeps a speaker across windows whose local numbers swap, matched in the overlap', () => {
    // Window 2 (8-18 s) numbers the speakers the other way round; both talk in the overlap (8-10 s).
    const windows: DiarizedWindow[] = [
      {
        start: 0,
        end: 10,
        turns: [
          { speaker: 0, start: 0, end: 9 },
          { speaker: 1, start: 9, end: 10 },
        ],
      },
      {
        start: 8,
        end: 18,
        turns: [
          { speaker: 1, start: 8, end: 9 },
          { speaker: 0, start: 9, end: 14 },
          { speaker: 1, start: 14, end: 18 },
        ],
      },
    ];
    expect(stitchWindows(windows)).toEqual([
      { speaker: 'SPEAKER_00', start: 0, end: 9 },
      { speaker: 'SPEAKER_01', start: 9, end: 14 },
      { speaker: 'SPEAKER_00', start: 14, end: 18 },
    ]);
  });

  it('gives a speaker first heard after the overlap a new label', () => {
    const windows: DiarizedWindow[] = [
      { start: 0, end: 10, turns: [{ speaker: 0, start: 0, end: 10 }] },
      {
        start: 8,
        end: 18,
        turns: [
          { speaker: 1, start: 8, end: 11 },
          { speaker: 0, start: 14, end: 18 },
        ],
      },
    ];
    expect(stitchWindows(windows)).toEqual([
      { speaker: 'SPEAKER_00', start: 0, end: 11 },
      { speaker: 'SPEAKER_01', start: 14, end: 18 },
    ]);
  });

  it('cuts each overlap in the middle, so a disagreement there is decided by the nearer window', () => {
    const windows: DiarizedWindow[] = [
      { start: 0, end: 10, turns: [{ speaker: 0, start: 0, end: 10 }] },
      { start: 8, end: 18, turns: [{ speaker: 0, start: 8.5, end: 18 }] },
    ];
    expect(stitchWindows(windows)).toEqual([{ speaker: 'SPEAKER_00', start: 0, end: 18 }]);
  });

  it('returns no turns for silence', () => {
    expect(stitchWindows([{ start: 0, end: 10, turns: [] }])).toEqual([]);
    expect(stitchWindows([])).toEqual([]);
  });
});
