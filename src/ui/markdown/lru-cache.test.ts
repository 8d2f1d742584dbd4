import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache';

describe('LruCache', () => {
  it('drops the least recently used entry beyond its count; a read counts as a use', () => {
    const cache = new LruCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('keeps its total weight within bounds, and never keeps a value heavier than all of it', () => {
    const cache = new LruCache<string, string>({
      maxEntries: 100,
      maxWeight: 10,
      weigh: (value) => value.length,
    });
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    cache.set('c', 'cccc');
    expect(cache.has('a')).toBe(false);
    expect(cache.weight).toBe(8);
    cache.set('huge', 'x'.repeat(11));
    expect(cache.has('huge')).toBe(false);
    expect(cache.weight).toBe(8);
  });

  it('replacing a value re-weighs it; delete and clear give the weight back', () => {
    const cache = new LruCache<string, string>({
      maxEntries: 10,
      maxWeight: 100,
      weigh: (value) => value.length,
    });
    cache.set('a', 'aaaa');
    cache.set('a', 'aa');
    expect(cache.weight).toBe(2);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.weight).toBe(0);
    cache.set('b', 'bbb');
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
    expect(cache.get('b')).toBeUndefined();
  });
});
