import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance';

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and a swap of neighbours as one edit each', () => {
    expect(editDistance('domain', 'domain')).toBe(0);
    expect(editDistance('deepseek-chatt', 'deepseek-chat')).toBe(1);
    expect(editDistance('domian', 'domain')).toBe(1);
    expect(editDistance('grud', 'grid')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
