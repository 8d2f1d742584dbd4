import { describe, expect, it } from 'vitest';
import { taggedQuery } from './query-tags';

describe('taggedQuery', () => {
  it('takes `#tag` and `tag:` words out of the query, the rest searched as text', () => {
    expect(taggedQuery('#os')).toEqual({ tags: ['os'], text: '' });
    expect(taggedQuery('tag:os')).toEqual({ tags: ['os'], text: '' });
    expect(taggedQuery('TAG:#OS')).toEqual({ tags: ['OS'], text: '' });
    expect(taggedQuery('#os scheduling')).toEqual({ tags: ['os'], text: 'scheduling' });
    expect(taggedQuery('死锁 #操作系统 #os/kernel/')).toEqual({
      tags: ['操作系统', 'os/kernel'],
      text: '死锁',
    });
  });

  it('keeps one tag per spelling, as the sidebar does', () => {
    expect(taggedQuery('#Project #project tag:PROJECT').tags).toEqual(['Project']);
  });

  it('leaves words that are no tag alone: inside a word, all digits, a bare `#`', () => {
    expect(taggedQuery('C# generics')).toEqual({ tags: [], text: 'C# generics' });
    expect(taggedQuery('issue #123')).toEqual({ tags: [], text: 'issue #123' });
    expect(taggedQuery('# heading')).toEqual({ tags: [], text: '# heading' });
    expect(taggedQuery('a#b tag:')).toEqual({ tags: [], text: 'a#b tag:' });
  });
});
