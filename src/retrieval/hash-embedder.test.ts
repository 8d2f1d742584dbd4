import { describe, expect, it } from 'vitest';
import { embeddingModelDifferences, sameEmbeddingModel } from './embedder';
import { HASH_EMBEDDER_INFO, HashEmbedder, hashEmbed } from './hash-embedder';

const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const norm = (vector: Float32Array): number => Math.sqrt(cosine(vector, vector));

describe('hash-v1 embedder', () => {
  it('describes itself as hash-v1, 256 dimensions, l2-normalised', () => {
    expect(new HashEmbedder().info).toEqual({
      model_id: 'hash-v1',
      model_version: '1',
      dimension: 256,
      normalization: 'l2',
    });
  });

  it('returns one unit-length vector of the declared dimension per text', async () => {
    const vectors = await new HashEmbedder().embed(['死锁的四个必要条件', 'Deadlock conditions', 'x']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(HASH_EMBEDDER_INFO.dimension);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it('is deterministic across calls and instances', async () => {
    const text = 'Sourdough starter 1:1:1 — 酸面种每天喂养';
    const [first] = await new HashEmbedder().embed([text]);
    const [second] = await new HashEmbedder().embed([text]);
    expect(first).toEqual(second);
    expect(hashEmbed(text)).toEqual(first);
  });

  it('never changes its output: stored vectors depend on it (bump model_version instead)', () => {
    const vector = hashEmbed('Deadlock needs four conditions. 死锁需要四个条件。');
    const nonZero = [...vector].flatMap((value, index) => (value === 0 ? [] : [[index, value] as const]));
    expect(nonZero).toHaveLength(22);
    const pinned: Array<[number, number]> = [
      [8, 0.225018],
      [26, -0.225018],
      [47, -0.225018],
      [57, -0.225018],
      [82, -0.225018],
      [84, 0.225018],
    ];
    pinned.forEach(([index, value], position) => {
      expect(nonZero[position]?.[0]).toBe(index);
      expect(nonZero[position]?.[1]).toBeCloseTo(value, 6);
    });
  });

  it('gives similar texts similar vectors, in English and in Chinese', () => {
    const deadlock = hashEmbed('the four conditions for deadlock in operating systems');
    const deadlockAgain = hashEmbed('operating systems: deadlock needs four conditions');
    const bread = hashEmbed('feed the sourdough starter with flour and water');
    expect(cosine(deadlock, deadlockAgain)).toBeGreaterThan(0.5);
    expect(cosine(deadlock, deadlockAgain)).toBeGreaterThan(cosine(deadlock, bread) + 0.3);

    const zhDeadlock = hashEmbed('操作系统中死锁的四个必要条件');
    const zhDeadlockAgain = hashEmbed('死锁发生需要哪些条件');
    const zhBraise = hashEmbed('红烧肉要先炒糖色再小火慢炖');
    expect(cosine(zhDeadlock, zhDeadlockAgain)).toBeGreaterThan(cosine(zhDeadlock, zhBraise) + 0.2);
  });

  it('maps an empty text to the zero vector, which matches nothing', () => {
    expect(norm(hashEmbed(''))).toBe(0);
    expect(norm(hashEmbed('the of and'))).toBe(0);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(new HashEmbedder().embed(['a', 'b'], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('embedding model identity', () => {
  it('compares all four fields', () => {
    const base = { ...HASH_EMBEDDER_INFO };
    expect(sameEmbeddingModel(base, { ...base })).toBe(true);
    expect(embeddingModelDifferences(base, { ...base, model_version: '2', dimension: 128 })).toEqual([
      'model_version',
      'dimension',
    ]);
    expect(sameEmbeddingModel(base, { ...base, normalization: 'none' })).toBe(false);
  });
});
