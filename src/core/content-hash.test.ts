import { describe, expect, it } from 'vitest';
import { contentHash } from './content-hash';

describe('contentHash', () => {
  it('keeps its output stable, because hashes are persisted beside notes', () => {
    expect(contentHash('')).toBe('488bdcb81aee8d83');
    expect(contentHash('abc')).toBe('7a91f9f91ac18c8d');
    expect(contentHash('你好，世界')).toBe('d0c0f3b2eb60b3cf');
  });

  it('returns 16 hex digits and separates near-identical inputs', () => {
    const hashes = new Set<string>();
    for (let index = 0; index < 5_000; index++) {
      const hash = contentHash(`paragraph ${index} 段落`);
      expect(hash).toMatch(/^[0-9a-f]{16}$/);
      hashes.add(hash);
    }
    expect(hashes.size).toBe(5_000);
    expect(contentHash('a b')).not.toBe(contentHash('a  b'));
  });
});
