import { describe, expect, it } from 'vitest';
import { formatTimestamp, segmentIndexAt } from './transcript-time';

const segments = [
  { start_time: 0, end_time: 2.5 },
  { start_time: 2.5, end_time: 4 },
  { start_time: 6, end_time: 9.75 },
  { start_time: 10, end_time: 31 },
];

describe('segmentIndexAt', () => {
  it('finds the segment playing at a time', () => {
    expect(segmentIndexAt(segments, 0)).toBe(0);
    expect(segmentIndexAt(segments, 1.2)).toBe(0);
    expect(segmentIndexAt(segments, 3.99)).toBe(1);
    expect(segmentIndexAt(segments, 7)).toBe(2);
    expect(segmentIndexAt(segments, 30.9)).toBe(3);
  });

  it('gives a shared boundary to the segment that starts there', () => {
    expect(segmentIndexAt(segments, 2.5)).toBe(1);
  });

  it('is -1 in gaps, before the first and after the last segment', () => {
    expect(segmentIndexAt(segments, 4)).toBe(-1);
    expect(segmentIndexAt(segments, 5)).toBe(-1);
    expect(segmentIndexAt(segments, 9.9)).toBe(-1);
    expect(segmentIndexAt(segments, 31)).toBe(-1);
    expect(segmentIndexAt(segments, -1)).toBe(-1);
    expect(segmentIndexAt(segments, Number.NaN)).toBe(-1);
    expect(segmentIndexAt([], 1)).toBe(-1);
  });

  it('agrees with a linear scan on a long transcript', () => {
    const long = Array.from({ length: 1000 }, (_, i) => ({ start_time: i * 3, end_time: i * 3 + 2 }));
    for (const time of [0, 1.5, 2, 2.9, 1500, 1501.99, 2997, 2999, 3000]) {
      const expected = long.findIndex((s) => time >= s.start_time && time < s.end_time);
      expect(segmentIndexAt(long, time)).toBe(expected);
    }
  });
});

describe('formatTimestamp', () => {
  it('writes m:ss under an hour and h:mm:ss from an hour on', () => {
    expect(formatTimestamp(0)).toBe('0:00');
    expect(formatTimestamp(7.4)).toBe('0:07');
    expect(formatTimestamp(65)).toBe('1:05');
    expect(formatTimestamp(3599.99)).toBe('59:59');
    expect(formatTimestamp(3600)).toBe('1:00:00');
    expect(formatTimestamp(36_061)).toBe('10:01:01');
  });

  it('truncates instead of rounding up to the next second', () => {
    expect(formatTimestamp(59.96)).toBe('0:59');
  });

  it('adds tenths when asked', () => {
    expect(formatTimestamp(12.4, { tenths: true })).toBe('0:12.4');
    expect(formatTimestamp(0.3, { tenths: true })).toBe('0:00.3');
    expect(formatTimestamp(3723.05, { tenths: true })).toBe('1:02:03.0');
  });

  it('shows nonsense times as zero', () => {
    expect(formatTimestamp(-3)).toBe('0:00');
    expect(formatTimestamp(Number.NaN)).toBe('0:00');
    expect(formatTimestamp(Number.POSITIVE_INFINITY)).toBe('0:00');
  });
});
