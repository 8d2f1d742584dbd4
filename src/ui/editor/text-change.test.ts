import { describe, expect, it } from 'vitest';
import { textChange, type TextChange } from './text-change';

function apply(text: string, change: TextChange | null): string {
  return change ? text.slice(0, change.from) + change.insert + text.slice(change.to) : text;
}

describe('textChange', () => {
  it('is null for equal texts', () => {
    expect(textChange('same', 'same')).toBeNull();
    expect(textChange('', '')).toBeNull();
  });

  it('keeps the common start and end: an insertion, a deletion, a replacement', () => {
    expect(textChange('hello world', 'hello brave world')).toEqual({ from: 6, to: 6, insert: 'brave ' });
    expect(textChange('hello brave world', 'hello world')).toEqual({ from: 6, to: 12, insert: '' });
    expect(textChange('a cat sat', 'a dog sat')).toEqual({ from: 2, to: 5, insert: 'dog' });
  });

  it('appends and prepends, and replaces everything when nothing is shared', () => {
    expect(textChange('body', 'body typed')).toEqual({ from: 4, to: 4, insert: ' typed' });
    expect(textChange('body', '# body')).toEqual({ from: 0, to: 0, insert: '# ' });
    expect(textChange('abc', 'xyz')).toEqual({ from: 0, to: 3, insert: 'xyz' });
    expect(textChange('', 'new')).toEqual({ from: 0, to: 0, insert: 'new' });
  });

  it('does not count one character twice when the start and end overlap', () => {
    const change = textChange('aaa', 'aaaa');
    expect(change).toEqual({ from: 3, to: 3, insert: 'a' });
    expect(apply('aaa', change)).toBe('aaaa');
  });

  it('never splits a surrogate pair', () => {
    // 😀 and 😁 share their high surrogate.
    const change = textChange('x😀y', 'x😁y');
    expect(change).toEqual({ from: 1, to: 3, insert: '😁' });
  });

  it('turns the first text into the second for any pair', () => {
    const samples = ['', 'a', 'ab', 'abc', 'aXc', '调度', '调度 😀', '\n\n', 'abab'];
    for (const before of samples)
      for (const after of samples) expect(apply(before, textChange(before, after))).toBe(after);
  });
});
