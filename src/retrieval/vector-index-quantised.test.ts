import { describe, expect, it } from 'vitest';
import type { EmbeddingModelInfo } from './embedder';
import { HASH_EMBEDDER_INFO } from './hash-embedder';
import { QUANTISED_FROM_ROWS, VECTOR_BUFFER_VERSION, VectorIndex, type VectorHit } from './vector-index';

const DENSE: EmbeddingModelInfo = {
  model_id: 'dense-test',
  model_version: '1',
  dimension: 48,
  normalization: 'l2',
};
const K = 10;

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return (state / 2 ** 32) * 2 - 1;
  };
}

const id = (i: number) => `b${String(i).padStart(5, '0')}`;

/**
 * Vectors around 30 topic centres, as a model's embeddings cluster, plus
 * noise: near neighbours are close together, the hard case for an estimate.
 */
function clustered(count: number, next: () => number, dimension = DENSE.dimension): Float32Array[] {
  const centres = Array.from({ length: 30 }, () => new Float32Array(dimension).map(() => next()));
  return Array.from({ length: count }, (_, i) => {
    const centre = centres[i % centres.length]!;
    return centre.map((value) => value + next() * 0.35);
  });
}

/** The exact top k computed here, row by row in float64, over what the test put in. */
function bruteForce(
  rows: ReadonlyMap<string, Float32Array>,
  query: Float32Array,
  k: number,
  keep: (blockId: string) => boolean = () => true,
): string[] {
  const norm = (vector: Float32Array) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  const queryNorm = norm(query);
  return [...rows]
    .filter(([blockId]) => keep(blockId))
    .map(([blockId, row]) => ({
      blockId,
      score: row.reduce((sum, value, dim) => sum + value * query[dim]!, 0) / (norm(row) * queryNorm),
    }))
    .sort((a, b) => b.score - a.score || (a.blockId < b.blockId ? -1 : 1))
    .slice(0, k)
    .map(({ blockId }) => blockId);
}

function recall(found: readonly VectorHit[], exact: readonly string[]): number {
  const wanted = new Set(exact);
  return found.filter((hit) => wanted.has(hit.block_id)).length / exact.length;
}

function build(count: number, seed: number, options = { quantisedFrom: 0 }) {
  const next = seeded(seed);
  const vectors = clustered(count, next);
  const index = new VectorIndex(DENSE, 16, options);
  const rows = new Map<string, Float32Array>();
  index.upsert(
    vectors.map((_, i) => ({
      block_id: id(i),
      note_id: `n${i % 97}`,
      folder: i % 3 === 0 ? 'work' : 'home',
    })),
    vectors,
    DENSE,
  );
  vectors.forEach((vector, i) => rows.set(id(i), vector));
  const queries = clustered(40, next);
  return { index, rows, queries, next };
}

describe('VectorIndex: dense queries through the int8 scan', () => {
  it('finds the exact top 10 (recall ≥ 0.95 against a brute force, exact scores) on a seeded set', () => {
    const { index, rows, queries } = build(3000, 7);
    let total = 0;
    for (const query of queries) {
      const hits = index.search(query, K);
      total += recall(hits, bruteForce(rows, query, K));
      // The scores are the float scan's, bit for bit, for every row both return.
      const exact = new Map(
        index.search(query, K, undefined, { exact: true }).map((hit) => [hit.block_id, hit]),
      );
      for (const hit of hits) if (exact.has(hit.block_id)) expect(hit).toEqual(exact.get(hit.block_id));
    }
    expect(total / queries.length).toBeGreaterThanOrEqual(0.95);
    expect(index.memory().code_bytes).toBeGreaterThan(0);
  });

  it('applies the filter before choosing its candidates', () => {
    const { index, rows, queries } = build(3000, 8);
    let total = 0;
    for (const query of queries) {
      const hits = index.search(query, K, { folder: 'work' });
      for (const hit of hits) expect(Number(hit.block_id.slice(1)) % 3).toBe(0);
      total += recall(
        hits,
        bruteForce(rows, query, K, (blockId) => Number(blockId.slice(1)) % 3 === 0),
      );
    }
    expect(total / queries.length).toBeGreaterThanOrEqual(0.95);
  });

  it('stays right through upserts, replacements, removals and a value outside the codes’ range', () => {
    const { index, rows, queries, next } = build(2500, 9);
    index.search(queries[0]!, K); // builds the codes; everything below updates them
    const added = clustered(600, next);
    index.upsert(
      added.map((_, i) => ({ block_id: id(10_000 + i), note_id: `added-${i % 10}` })),
      added,
      DENSE,
    );
    added.forEach((vector, i) => rows.set(id(10_000 + i), vector));
    // Removed notes: their rows' holes are filled by the last rows.
    for (const note of ['n0', 'n1', 'added-3']) {
      for (const blockId of index.blocksOf(note)) rows.delete(blockId);
      index.removeNote(note);
    }
    // The last rows moved into the holes keep their codes: each is still its own best match.
    for (const last of [id(10_599), id(10_598), id(10_597)]) {
      const query = rows.get(last)!.map((value) => value + 0.001 * next());
      expect(index.search(query, 1)[0]?.block_id).toBe(last);
    }
    // Replacements in place, one of them far outside every dimension's range so far.
    // On the dimension where the block's old vector is lowest: stale codes would rank it last.
    const old = rows.get(id(5))!;
    const spike = new Float32Array(DENSE.dimension);
    spike[old.indexOf(Math.min(...old))] = 1;
    const replaced = [queries[1]!.map((value) => value * 3), spike];
    index.upsert(
      [
        { block_id: id(4), note_id: 'n4' },
        { block_id: id(5), note_id: 'n5' },
      ],
      replaced,
      DENSE,
    );
    rows.set(id(4), replaced[0]!);
    rows.set(id(5), spike);
    expect(index.size).toBe(rows.size);

    // Dense (every dimension used), so it takes the int8 scan.
    const nearSpike = spike.map((value) => value + 0.02 * next());
    let total = 0;
    for (const query of [...queries, nearSpike]) {
      const hits = index.search(query, K);
      for (const hit of hits) expect(rows.has(hit.block_id)).toBe(true);
      total += recall(hits, bruteForce(rows, query, K));
    }
    expect(total / (queries.length + 1)).toBeGreaterThanOrEqual(0.95);
    expect(index.search(queries[1]!, 1)[0]?.block_id).toBe(id(4));
    expect(index.search(nearSpike, 1)[0]?.block_id).toBe(id(5));
  });

  it('answers the same after clear and new rows', () => {
    const { index, queries, next } = build(1000, 10);
    index.search(queries[0]!, K);
    index.clear();
    const vectors = clustered(500, next).map((vector) => vector.map((value) => value * 10));
    index.upsert(
      vectors.map((_, i) => ({ block_id: id(i), note_id: 'again' })),
      vectors,
      DENSE,
    );
    const rows = new Map(vectors.map((vector, i) => [id(i), vector]));
    let total = 0;
    for (const query of queries) total += recall(index.search(query, K), bruteForce(rows, query, K));
    expect(total / queries.length).toBeGreaterThanOrEqual(0.95);
  });

  it('stores only the floats: the format is unchanged and a loaded index rebuilds its codes', () => {
    const { index, queries } = build(2000, 11);
    const before = queries.map((query) => index.search(query, K));
    const buffer = index.toBuffer();
    expect(new DataView(buffer).getUint32(4, true)).toBe(VECTOR_BUFFER_VERSION);
    expect(VECTOR_BUFFER_VERSION).toBe(1);
    const headerLength = new DataView(buffer).getUint32(8, true);
    expect(buffer.byteLength).toBe(((12 + headerLength + 3) & ~3) + index.size * DENSE.dimension * 4);
    const loaded = VectorIndex.fromBuffer(buffer, { quantisedFrom: 0 });
    expect(loaded.memory().code_bytes).toBe(0);
    expect(queries.map((query) => loaded.search(query, K))).toEqual(before);
    expect(loaded.memory().code_bytes).toBeGreaterThan(0);
  });

  it('keeps small indexes, sparse queries and hash-v1 on the exact float scan, with no codes', () => {
    const small = build(500, 12, { quantisedFrom: QUANTISED_FROM_ROWS });
    small.queries.forEach((query) =>
      expect(small.index.search(query, K)).toEqual(small.index.search(query, K, undefined, { exact: true })),
    );
    expect(small.index.memory().code_bytes).toBe(0);

    const { index, queries } = build(1000, 13);
    const sparse = new Float32Array(DENSE.dimension);
    sparse[3] = 1;
    sparse[30] = -0.5;
    expect(index.search(sparse, K)).toEqual(index.search(sparse, K, undefined, { exact: true }));
    expect(index.memory().code_bytes).toBe(0);
    expect(index.search(queries[0]!, K)).toHaveLength(K);
    expect(index.memory().code_bytes).toBeGreaterThan(0);

    const next = seeded(14);
    const hash = new VectorIndex(HASH_EMBEDDER_INFO, 16, { quantisedFrom: 0 });
    const vectors = Array.from({ length: 300 }, () =>
      new Float32Array(HASH_EMBEDDER_INFO.dimension).map(() => next()),
    );
    hash.upsert(
      vectors.map((_, i) => ({ block_id: id(i), note_id: 'hash' })),
      vectors,
      HASH_EMBEDDER_INFO,
    );
    const dense = new Float32Array(HASH_EMBEDDER_INFO.dimension).map(() => next());
    expect(hash.search(dense, K)).toEqual(hash.search(dense, K, undefined, { exact: true }));
    expect(hash.memory().code_bytes).toBe(0);
  });
});
