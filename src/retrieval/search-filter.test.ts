import { describe, expect, it } from 'vitest';
import { isEmptyFilter, matchesFilter } from './search-filter';

describe('matchesFilter: tags', () => {
  const block = (tags: string[]) => ({ folder: 'cs/os', tags });

  it('matches a tag in any spelling, nested ones too, as Obsidian does', () => {
    expect(matchesFilter(block(['Project']), { tags: ['project'] })).toBe(true);
    expect(matchesFilter(block(['project']), { tags: ['PROJECT'] })).toBe(true);
    expect(matchesFilter(block(['a/B']), { tags: ['A/b'] })).toBe(true);
    expect(matchesFilter(block(['读书笔记']), { tags: ['读书笔记'] })).toBe(true);
  });

  it('still needs every listed tag and the whole tag', () => {
    expect(matchesFilter(block(['Project', 'os']), { tags: ['project', 'OS'] })).toBe(true);
    expect(matchesFilter(block(['Project']), { tags: ['project', 'exam'] })).toBe(false);
    expect(matchesFilter(block(['project/alpha']), { tags: ['project'] })).toBe(false);
    expect(matchesFilter(block(['读书']), { tags: ['读书笔记'] })).toBe(false);
  });

  it('lets everything through without tags', () => {
    expect(isEmptyFilter({ tags: [] })).toBe(true);
    expect(matchesFilter(block([]), { folder: 'cs' })).toBe(true);
  });
});
