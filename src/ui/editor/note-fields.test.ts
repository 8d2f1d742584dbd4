import { describe, expect, it } from 'vitest';
import { formatTags, normalizeFolder, parseTags, sameContent } from './note-fields';

describe('parseTags', () => {
  it('splits on ASCII and full-width commas, trims, drops # and duplicates', () => {
    expect(parseTags(' a, #b ，工作、 a ,, ')).toEqual(['a', 'b', '工作']);
    expect(parseTags('')).toEqual([]);
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
