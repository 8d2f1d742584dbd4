import { describe, expect, it } from 'vitest';
import { makeSnippet } from './snippet';

describe('makeSnippet', () => {
  it('keeps a short block whole with its highlights', () => {
    expect(makeSnippet('进程调度算法', [{ start: 0, end: 4 }], 20)).toEqual({
      text: '进程调度算法',
      highlights: [{ start: 0, end: 4 }],
      cut_start: false,
      cut_end: false,
    });
  });

  it('centres a long block on the first match and moves the ranges into the window', () => {
    const text = `${'a'.repeat(100)}MATCH${'b'.repeat(100)}`;
    const snippet = makeSnippet(text, [{ start: 100, end: 105 }], 40);
    expect(snippet.text).toHaveLength(40);
    expect(snippet.cut_start && snippet.cut_end).toBe(true);
    const [range] = snippet.highlights;
    expect(snippet.text.slice(range!.start, range!.end)).toBe('MATCH');
    expect(range!.start).toBe(10);
  });

  it('drops ranges outside the window and clips the one across its edge', () => {
    const text = 'x'.repeat(300);
    const snippet = makeSnippet(
      text,
      [
        { start: 10, end: 20 },
        { start: 45, end: 60 },
        { start: 250, end: 260 },
      ],
      50,
    );
    expect(snippet.cut_start).toBe(false);
    expect(snippet.highlights).toEqual([
      { start: 10, end: 20 },
      { start: 45, end: 50 },
    ]);
  });

  it('ends at the block end when the match is near it, without a cut at the end', () => {
    const text = `${'y'.repeat(200)}end`;
    const snippet = makeSnippet(text, [{ start: 200, end: 203 }], 30);
    expect(snippet.text.endsWith('end')).toBe(true);
    expect(snippet.text).toHaveLength(30);
    expect(snippet.cut_end).toBe(false);
    expect(snippet.highlights).toEqual([{ start: 27, end: 30 }]);
  });

  it('never splits a surrogate pair', () => {
    const text = '😀'.repeat(50);
    for (const at of [0, 11, 21, 40]) {
      const snippet = makeSnippet(text, [{ start: at * 2, end: at * 2 + 2 }], 15);
      expect(snippet.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
      expect([...snippet.text].every((character) => character === '😀')).toBe(true);
    }
  });

  it('opens at the start when there is no highlight', () => {
    const snippet = makeSnippet('z'.repeat(100), [], 10);
    expect(snippet).toMatchObject({ text: 'z'.repeat(10), highlights: [], cut_start: false, cut_end: true });
  });
});
