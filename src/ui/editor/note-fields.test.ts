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

  it('splits on spaces and drops each "#", as Obsidian tags have no spaces', () => {
    expect(parseTags('会议 #周会')).toEqual(['会议', '周会']);
    expect(parseTags('#a, #b')).toEqual(['a', 'b']);
    expect(parseTags('a，b')).toEqual(['a', 'b']);
    expect(parseTags('产品，roadmap、会议 #周会\t#项目/子项')).toEqual([
      '产品',
      'roadmap',
      '会议',
      '周会',
      '项目/子项',
    ]);
    expect(parseTags('# , #')).toEqual([]);
  });

  it('keeps a double-quoted tag whole, so a stored tag with a space round-trips unchanged', () => {
    expect(formatTags(['x', 'y z', '会议 #周会'])).toBe('x, "y z", "会议 #周会"');
    expect(parseTags(formatTags(['x', 'y z', '会议 #周会', 'a/b']))).toEqual([
      'x',
      'y z',
      '会议 #周会',
      'a/b',
    ]);
    expect(parseTags('"y z" w')).toEqual(['y z', 'w']);
    expect(parseTags(formatTags(['say"hi']))).toEqual(['say"hi']);
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
