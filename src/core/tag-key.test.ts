import { describe, expect, it } from 'vitest';
import { hasTag, sameTag, tagKey } from './tag-key';

describe('tagKey', () => {
  it('folds case, nested tags level by level', () => {
    expect(tagKey('Project')).toBe('project');
    expect(sameTag('#a/B'.slice(1), 'A/b')).toBe(true);
    expect(sameTag('Ａｂｃ', 'ａＢＣ')).toBe(true);
    expect(sameTag('Ελληνικά', 'ΕΛΛΗΝΙΚΆ')).toBe(true);
  });

  it('leaves scripts without case alone, and different tags different', () => {
    expect(tagKey('读书笔记')).toBe('读书笔记');
    expect(tagKey('日本語_メモ')).toBe('日本語_メモ');
    expect(sameTag('读书', '读书笔记')).toBe(false);
    expect(sameTag('a/b', 'a-b')).toBe(false);
  });

  it('makes a precomposed and a decomposed spelling one tag', () => {
    expect(sameTag('Caf\u00e9', 'cafe\u0301')).toBe(true);
  });

  it('uses the default lowercase mapping, whatever the locale', () => {
    // Not full case folding: ẞ and ß are one tag, SS is not ß.
    expect(sameTag('STRAẞE', 'straße')).toBe(true);
    expect(sameTag('STRASSE', 'straße')).toBe(false);
    // Not Turkish: I is i (not ı), and the dotted İ is i + a combining dot.
    expect(sameTag('ISTANBUL', 'istanbul')).toBe(true);
    expect(tagKey('İ')).toBe('i\u0307');
  });

  it('finds a tag in a list in any spelling', () => {
    expect(hasTag(['os', 'Project'], 'PROJECT')).toBe(true);
    expect(hasTag(['os'], 'project')).toBe(false);
  });
});
