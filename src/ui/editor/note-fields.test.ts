import { describe, expect, it } from 'vitest';
import {
  PLAIN_EDITOR_CHARS,
  UNWRAPPED_LINE_CHARS,
  fitsUnwrapped,
  formatTags,
  isLargeBody,
  normalizeFolder,
  parseTags,
  sameContent,
} from './note-fields';

describe('parseTags', () => {
  it('splits on ASCII and full-width commas, trims, drops # and duplicates', () => {
    expect(parseTags(' a, #b ，工作、 a ,, ')).toEqual(['a', 'b', '工作']);
    expect(parseTags('')).toEqual([]);
  });

  it('drops a tag that differs only in case or composition, keeping the first spelling', () => {
    expect(parseTags('Work, work, #WORK, Café, cafe\u0301, 工作')).toEqual(['Work', 'Café', '工作']);
  });

  it('round-trips with formatTags', () => {
    expect(parseTags(formatTags(['x', 'y z']))).toEqual(['x', 'y z']);
  });
});

describe('normalizeFolder', () => {
  it('trims segments and drops empty ones', () => {
    expect(normalizeFolder(' /work // projects/ ')).toBe('work/projects');
    expect(normalizeFolder('')).toBe('');
  });
});

describe('sameContent', () => {
  const base = { title: 't', folder: 'f', tags: ['a', 'b'], body: 'x' };
  it('compares every field, tags in order', () => {
    expect(sameContent(base, { ...base, tags: ['a', 'b'] })).toBe(true);
    expect(sameContent(base, { ...base, tags: ['b', 'a'] })).toBe(false);
    expect(sameContent(base, { ...base, body: 'y' })).toBe(false);
  });
});

describe('isLargeBody', () => {
  it('is true only past the plain-editor threshold', () => {
    expect(isLargeBody('')).toBe(false);
    expect(isLargeBody('x'.repeat(PLAIN_EDITOR_CHARS))).toBe(false);
    expect(isLargeBody('x'.repeat(PLAIN_EDITOR_CHARS + 1))).toBe(true);
  });
});

describe('fitsUnwrapped', () => {
  const line = (length: number) => 'x'.repeat(length);
  it('is true when every line is at most the limit long, wherever the line breaks are', () => {
    expect(fitsUnwrapped('')).toBe(true);
    expect(fitsUnwrapped(`${line(UNWRAPPED_LINE_CHARS)}\n${line(3)}\n\n`)).toBe(true);
    expect(fitsUnwrapped(`${line(76)}\n`.repeat(1000))).toBe(true);
  });

  it('is false when any line, the first, a middle or the last, is longer', () => {
    const long = line(UNWRAPPED_LINE_CHARS + 1);
    expect(fitsUnwrapped(long)).toBe(false);
    expect(fitsUnwrapped(`${long}\nshort`)).toBe(false);
    expect(fitsUnwrapped(`short\n${long}\nshort`)).toBe(false);
    expect(fitsUnwrapped(`short\n${long}`)).toBe(false);
    expect(fitsUnwrapped('abc\ndefg', 3)).toBe(false);
  });
});
