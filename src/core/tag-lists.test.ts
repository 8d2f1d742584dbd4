import { describe, expect, it } from 'vitest';
import { sameTags } from './tag-lists';

describe('sameTags', () => {
  it('is true only for the same tags in the same order', () => {
    expect(sameTags([], [])).toBe(true);
    expect(sameTags(['os', '数据库'], ['os', '数据库'])).toBe(true);
    expect(sameTags(['os', '数据库'], ['数据库', 'os'])).toBe(false);
    expect(sameTags(['os'], ['os', 'os'])).toBe(false);
    expect(sameTags(['os'], ['OS'])).toBe(false);
  });
});
