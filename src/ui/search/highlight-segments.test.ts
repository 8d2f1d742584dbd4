import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight-segments';

describe('highlightSegments', () => {
  it('splits text into plain and marked runs', () => {
    expect(highlightSegments('进程调度决定下一个进程', [{ start: 0, end: 4 }])).toEqual([
      { text: '进程调度', marked: true },
      { text: '决定下一个进程', marked: false },
    ]);
    expect(
      highlightSegments('a deadlock and a lock', [
        { start: 2, end: 10 },
        { start: 17, end: 21 },
      ]).map((segment) => (segment.marked ? `[${segment.text}]` : segment.text)),
    ).toEqual(['a ', '[deadlock]', ' and a ', '[lock]']);
  });

  it('gives the whole text unmarked without ranges, and nothing for empty text', () => {
    expect(highlightSegments('plain', [])).toEqual([{ text: 'plain', marked: false }]);
    expect(highlightSegments('', [{ start: 0, end: 3 }])).toEqual([]);
  });

  it('merges overlapping and touching ranges, sorts, clamps and drops broken ones', () => {
    const segments = highlightSegments('abcdefgh', [
      { start: 5, end: 99 },
      { start: 1, end: 3 },
      { start: 2, end: 4 },
      { start: 4, end: 5 },
      { start: -3, end: 0 },
      { start: Number.NaN, end: 2 },
    ]);
    expect(segments.map((segment) => segment.text).join('')).toBe('abcdefgh');
    expect(segments).toEqual([
      { text: 'a', marked: false },
      { text: 'bcdefgh', marked: true },
    ]);
  });
});
