import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import type { Embedder, EmbeddingModelInfo } from './embedder';
import { HASH_EMBEDDER_INFO, HashEmbedder } from './hash-embedder';
import { VectorIndex, type VectorEntry, type VectorNoteSegment } from './vector-index';

const TINY: EmbeddingModelInfo = { model_id: 'tiny', model_version: '1', dimension: 3, normalization: 'l2' };

const entry = (block_id: string, extra: Partial<VectorEntry> = {}): VectorEntry => ({
  block_id,
  note_id: extra.note_id ?? `note-${block_id}`,
  ...extra,
});
const vec = (...values: number[]): Float32Array => new Float32Array(values);

function tinyIndex(): VectorIndex {
  const index = new VectorIndex(TINY, 2);
  index.upsert(
    [
      entry('x', { folder: 'a', tags: ['t1'] }),
      entry('y', { folder: 'a/b', tags: ['t1', 't2'] }),
      entry('z', { folder: 'c' }),
      entry('xy', { note_id: 'note-x' }),
    ],
    [vec(1, 0, 0), vec(0, 1, 0), vec(0, 0, 1), vec(1, 1, 0)],
    TINY,
  );
  return index;
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('VectorIndex: search', () => {
  it('ranks by cosine similarity, best first', () => {
    const hits = tinyIndex().search(vec(1, 0.2, 0), 4);
    expect(hits.map((hit) => hit.block_id)).toEqual(['x', 'xy', 'y', 'z']);
    // cos((1, .2, 0), (1, 0, 0)) = 1 / sqrt(1.04); cos with (1, 1, 0) = 1.2 / (sqrt(1.04) * sqrt(2)).
    expect(hits[0]?.score).toBeCloseTo(1 / Math.sqrt(1.04), 6);
    expect(hits[1]?.score).toBeCloseTo(1.2 / (Math.sqrt(1.04) * Math.SQRT2), 6);
    expect(hits[3]?.score).toBeCloseTo(0, 6);
    expect(hits[1]?.note_id).toBe('note-x');
  });

  it('returns at most k hits and breaks ties by block id', () => {
    const index = new VectorIndex(TINY);
    index.upsert([entry('b'), entry('c'), entry('a')], [vec(1, 0, 0), vec(1, 0, 0), vec(1, 0, 0)], TINY);
    expect(index.search(vec(1, 0, 0), 2).map((hit) => hit.block_id)).toEqual(['a', 'b']);
    expect(index.search(vec(1, 0, 0), 0)).toEqual([]);
  });

  it('filters by folder (with sub-folders) and tags', () => {
    const index = tinyIndex();
    expect(index.search(vec(1, 1, 1), 10, { folder: 'a' }).map((hit) => hit.block_id)).toEqual(['x', 'y']);
    expect(index.search(vec(1, 1, 1), 10, { tags: ['t2'] }).map((hit) => hit.block_id)).toEqual(['y']);
  });

  it('stores vectors unit-length even from a model without normalisation', () => {
    const raw: EmbeddingModelInfo = { ...TINY, normalization: 'none' };
    const index = new VectorIndex(raw);
    index.upsert([entry('long'), entry('short')], [vec(10, 0, 0), vec(0.1, 0.1, 0)], raw);
    const hits = index.search(vec(5, 5, 0), 2);
    expect(hits.map((hit) => hit.block_id)).toEqual(['short', 'long']);
    expect(hits[0]?.score).toBeCloseTo(1, 6);
  });

  it('finds nothing for a zero query vector', () => {
    expect(tinyIndex().search(vec(0, 0, 0), 5)).toEqual([]);
  });
});

/** A seeded stream of values in [-1, 1), zero about `zeros` of the time. */
function seeded(seed: number, zeros: number): () => number {
  let state = seed;
  return () => {
    state = (state * 48271) % 2147483647;
    const value = (state % 20000) / 10000 - 1;
    return (state >> 4) % 100 < zeros * 100 ? 0 : value;
  };
}

/** The unit-length float32 copy a row or query is stored and searched as. */
function unitOf(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  const scale = 1 / Math.sqrt(norm);
  return vector.map((value) => value * scale);
}

describe('VectorIndex: scores over many rows', () => {
  const WIDE: EmbeddingModelInfo = {
    model_id: 'wide',
    model_version: '1',
    dimension: 37,
    normalization: 'l2',
  };

  it('scores every row bit for bit as a row-by-row dot product, across tiles, after removes and growth', () => {
    const next = seeded(11, 0.6);
    const count = 1500;
    const vectors = Array.from({ length: count }, () => {
      const vector = new Float32Array(WIDE.dimension).map(() => next());
      vector[count % WIDE.dimension] = 0.5;
      return vector;
    });
    const index = new VectorIndex(WIDE, 3);
    index.upsert(
      vectors.map((_, i) => entry(`b${String(i).padStart(4, '0')}`, { note_id: `n${i % 40}` })),
      vectors,
      WIDE,
    );
    // Rows from the first tiles are removed, so rows of the last tile move into them.
    for (let i = 0; i < 1500; i += 7) index.remove(`b${String(i).padStart(4, '0')}`);
    index.removeNote('n3');

    const stored = new Map<string, Float32Array>();
    for (let note = 0; note < 40; note++) {
      const segment = index.noteSegment(`n${note}`);
      segment?.block_ids.forEach((id, at) =>
        stored.set(id, segment.data.subarray(at * WIDE.dimension, (at + 1) * WIDE.dimension)),
      );
    }
    expect(stored.size).toBe(index.size);
    const dense = new Float32Array(WIDE.dimension).map(() => next() || 0.25);
    const sparse = new Float32Array(WIDE.dimension);
    sparse[2] = 0.7;
    sparse[20] = -0.3;
    sparse[36] = 0.1;
    for (const query of [dense, sparse]) {
      const unitQuery = unitOf(query);
      const expected = [...stored]
        .map(([block_id, row]) => {
          let dot = 0;
          for (let dim = 0; dim < WIDE.dimension; dim++) dot += row[dim]! * unitQuery[dim]!;
          return { block_id, score: dot };
        })
        .sort((a, b) => b.score - a.score || (a.block_id < b.block_id ? -1 : 1))
        .slice(0, 50);
      const hits = index.search(query, 50);
      expect(hits.map(({ block_id, score }) => ({ block_id, score }))).toEqual(expected);
      expect(VectorIndex.fromBuffer(index.toBuffer()).search(query, 50)).toEqual(hits);
    }
  });
});

describe('VectorIndex: incremental updates', () => {
  it('upsert replaces a vector in place', () => {
    const index = tinyIndex();
    index.upsert([entry('z', { folder: 'c' })], [vec(1, 0, 0.01)], TINY);
    expect(index.size).toBe(4);
    const hits = index.search(vec(1, 0, 0), 2);
    expect(hits.map((hit) => hit.block_id).sort()).toEqual(['x', 'z']);
    // The old (0, 0, 1) is gone: nothing points along z any more.
    expect(index.search(vec(0, 0, 1), 1)[0]?.score).toBeLessThan(0.02);
  });

  it('remove keeps the other rows intact (the last row moves into the hole)', () => {
    const index = tinyIndex();
    expect(index.remove('x')).toBe(true);
    expect(index.remove('x')).toBe(false);
    expect(index.size).toBe(3);
    expect(index.search(vec(1, 1, 0), 1)[0]?.block_id).toBe('xy');
    expect(index.search(vec(0, 0, 1), 1)[0]?.block_id).toBe('z');
    expect(index.search(vec(1, 0, 0), 10).some((hit) => hit.block_id === 'x')).toBe(false);
  });

  it('removeNote removes every block of the note', () => {
    const index = new VectorIndex(TINY);
    index.upsert(
      [entry('a1', { note_id: 'A' }), entry('b1', { note_id: 'B' }), entry('a2', { note_id: 'A' })],
      [vec(1, 0, 0), vec(1, 0.1, 0), vec(1, 0, 0.1)],
      TINY,
    );
    expect(index.removeNote('A')).toBe(2);
    expect(index.search(vec(1, 0, 0), 10).map((hit) => hit.note_id)).toEqual(['B']);
    expect(index.blocksOf('A')).toEqual([]);
  });

  it('grows past its initial capacity', () => {
    const index = new VectorIndex(TINY, 1);
    const ids = Array.from({ length: 100 }, (_, i) => `b${i}`);
    index.upsert(
      ids.map((id) => entry(id)),
      ids.map((_, i) => vec(Math.cos(i / 50), Math.sin(i / 50), 0)),
      TINY,
    );
    expect(index.size).toBe(100);
    expect(index.search(vec(Math.cos(0.5), Math.sin(0.5), 0), 1)[0]?.block_id).toBe('b25');
  });
});

describe('VectorIndex: model compatibility', () => {
  const variants: Array<[string, EmbeddingModelInfo]> = [
    ['model id', { ...TINY, model_id: 'other' }],
    ['model version', { ...TINY, model_version: '2' }],
    ['dimension', { ...TINY, dimension: 4 }],
    ['normalization', { ...TINY, normalization: 'none' }],
  ];

  it.each(variants)('a different %s is incompatible', (_, other) => {
    const index = tinyIndex();
    expect(index.isCompatible(TINY)).toBe(true);
    expect(index.isCompatible(other)).toBe(false);
    expect(codeOf(() => index.assertCompatible(other))).toBe('INDEX_MODEL_MISMATCH');
  });

  it('refuses vectors from another model, so old and new never mix', () => {
    const index = tinyIndex();
    expect(codeOf(() => index.upsert([entry('n')], [vec(1, 0, 0)], { ...TINY, model_version: '2' }))).toBe(
      'INDEX_MODEL_MISMATCH',
    );
    expect(index.has('n')).toBe(false);
  });

  it('querying with an incompatible embedder fails before embedding, with both sides in the details', async () => {
    const index = new VectorIndex(HASH_EMBEDDER_INFO);
    let embedded = false;
    const other: Embedder = {
      info: { model_id: 'bge-m3', model_version: '2024-01', dimension: 1024, normalization: 'l2' },
      embed: async (texts) => {
        embedded = true;
        return texts.map(() => new Float32Array(1024));
      },
    };
    const error = await index.query(other, 'anything', 5).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'INDEX_MODEL_MISMATCH',
      status: 409,
      details: {
        vector_index: HASH_EMBEDDER_INFO,
        embedding: other.info,
        differences: ['model_id', 'model_version', 'dimension'],
      },
    });
    expect(embedded).toBe(false);
  });

  it('queries with a compatible embedder', async () => {
    const embedder = new HashEmbedder();
    const index = new VectorIndex(embedder.info);
    const texts = ['死锁的四个必要条件', '红烧肉的做法', 'TCP three-way handshake'];
    index.upsert(
      texts.map((_, i) => entry(`b${i}`)),
      await embedder.embed(texts),
      embedder.info,
    );
    expect((await index.query(embedder, '死锁条件', 1))[0]?.block_id).toBe('b0');
    expect((await index.query(embedder, 'tcp handshake', 1))[0]?.block_id).toBe('b2');
  });

  it('a raw vector of the wrong length is EMBEDDING_DIMENSION_MISMATCH', () => {
    const index = tinyIndex();
    expect(codeOf(() => index.search(vec(1, 0), 3))).toBe('EMBEDDING_DIMENSION_MISMATCH');
    expect(codeOf(() => index.upsert([entry('q')], [vec(1, 0, 0, 0)], TINY))).toBe(
      'EMBEDDING_DIMENSION_MISMATCH',
    );
    expect(codeOf(() => index.upsert([entry('q')], [], TINY))).toBe('INVALID_REQUEST');
  });
});

describe('VectorIndex: persistence', () => {
  it('round-trips through an ArrayBuffer with identical results', async () => {
    const embedder = new HashEmbedder();
    const index = new VectorIndex(embedder.info);
    const texts = Array.from(
      { length: 50 },
      (_, i) => `note ${i} about ${i % 2 ? '操作系统 死锁' : 'cooking rice'}`,
    );
    index.upsert(
      texts.map((_, i) =>
        entry(`b${i}`, { note_id: `n${i % 7}`, folder: i % 3 ? 'x' : 'y', tags: [`t${i % 2}`] }),
      ),
      await embedder.embed(texts),
      embedder.info,
    );
    index.remove('b3');
    index.removeNote('n5');

    const loaded = VectorIndex.fromBuffer(index.toBuffer());
    expect(loaded.info).toEqual(index.info);
    expect(loaded.size).toBe(index.size);
    const [query] = await embedder.embed(['死锁']);
    if (!query) throw new Error('no vector');
    expect(loaded.search(query, 20)).toEqual(index.search(query, 20));
    const filter = { folder: 'x', tags: ['t1'] };
    expect(loaded.search(query, 20, filter)).toEqual(index.search(query, 20, filter));
    expect(loaded.blocksOf('n1')).toEqual(index.blocksOf('n1'));
    expect(new Uint8Array(loaded.toBuffer())).toEqual(new Uint8Array(index.toBuffer()));
  });

  it('stores the vectors as raw float32 after a small header', () => {
    const index = tinyIndex();
    const buffer = index.toBuffer();
    const headerBytes = new DataView(buffer).getUint32(8, true);
    expect(buffer.byteLength).toBeLessThanOrEqual(12 + headerBytes + 3 + 4 * 3 * 4);
  });

  it('an unreadable buffer is VECTOR_INDEX_REBUILD_REQUIRED', () => {
    const good = tinyIndex().toBuffer();
    const corrupt = good.slice(0);
    new Uint8Array(corrupt)[0] = 0x58;
    const otherVersion = good.slice(0);
    new DataView(otherVersion).setUint32(4, 99, true);
    for (const bad of [new ArrayBuffer(4), good.slice(0, good.byteLength - 4), corrupt, otherVersion]) {
      expect(codeOf(() => VectorIndex.fromBuffer(bad))).toBe('VECTOR_INDEX_REBUILD_REQUIRED');
    }
  });
});

describe('VectorIndex: per-note segments', () => {
  it('an index loaded from its notes’ segments answers exactly as the original', () => {
    const original = tinyIndex();
    const segments = ['note-x', 'note-y', 'note-z'].map((note_id) => ({
      note_id,
      vectors: original.noteSegment(note_id)!,
    }));
    expect(segments[0]!.vectors.block_ids).toEqual(['x', 'xy']);
    const loaded = VectorIndex.fromSegments(TINY, segments);
    expect(loaded.size).toBe(original.size);
    for (const query of [vec(1, 0, 0), vec(0.2, 0.9, 0.1), vec(0, 0, 1)]) {
      expect(loaded.search(query, 3)).toEqual(original.search(query, 3));
      // Blocks of one note share its folder and tags (tinyIndex's note-x does not, so it is left out here).
      expect(loaded.search(query, 3, { folder: 'a/b' })).toEqual(
        original.search(query, 3, { folder: 'a/b' }),
      );
      expect(loaded.search(query, 3, { tags: ['t2'] })).toEqual(original.search(query, 3, { tags: ['t2'] }));
    }
    expect(original.noteSegment('nobody')).toBeUndefined();
  });

  it('refuses rows that do not fit the model or repeat a block with VECTOR_INDEX_REBUILD_REQUIRED', () => {
    const segment = { note_id: 'n', vectors: { block_ids: ['a'], folder: '', tags: [], data: vec(1, 0, 0) } };
    const codeOf = (segments: Array<typeof segment>) => {
      try {
        VectorIndex.fromSegments(TINY, segments);
      } catch (error) {
        return error instanceof AppError ? error.code : 'other';
      }
      return 'none';
    };
    expect(codeOf([segment])).toBe('none');
    expect(codeOf([segment, segment])).toBe('VECTOR_INDEX_REBUILD_REQUIRED');
    expect(codeOf([{ ...segment, vectors: { ...segment.vectors, data: vec(1, 0) } }])).toBe(
      'VECTOR_INDEX_REBUILD_REQUIRED',
    );
  });

  it('stores hash-v1 rows sparse and a dense model’s rows dense; both load to the same scores, bit for bit', async () => {
    const embedder = new HashEmbedder();
    const texts = [
      ['n1', 'The kernel schedules threads by priority.'],
      ['n1', '进程调度决定下一个运行的进程'],
      ['n2', 'Water the tomatoes early in the morning.'],
      ['n3', ''],
    ] as const;
    // Over 600 rows, so rows fall in more than one tile.
    const entries: VectorEntry[] = [];
    const vectors: Float32Array[] = [];
    for (let copy = 0; copy < 160; copy++) {
      const embedded = await embedder.embed(texts.map(([, text]) => `${text} copy${copy}`));
      texts.forEach(([note], i) => {
        entries.push(entry(`${note}-${copy}-${i}`, { note_id: `${note}-${copy}` }));
        vectors.push(embedded[i]!);
      });
    }
    const original = new VectorIndex(HASH_EMBEDDER_INFO, 8);
    original.upsert(entries, vectors, HASH_EMBEDDER_INFO);
    const notes = [...new Set(entries.map((item) => item.note_id))];
    const stored = notes.map((note_id) => ({ note_id, vectors: original.storedSegment(note_id)! }));
    const first = stored[0]!.vectors;
    expect(first.dims).toBeInstanceOf(Uint16Array);
    expect(first.data.length).toBeLessThan(first.block_ids.length * 256 * 0.5);
    expect(first.ends).toEqual(new Uint32Array([first.ends![0]!, first.data.length]));
    const loaded = VectorIndex.fromSegments(HASH_EMBEDDER_INFO, stored);
    for (const note of notes) expect(loaded.noteSegment(note)).toEqual(original.noteSegment(note));
    for (const query of await embedder.embed(['kernel threads', '进程', 'tomatoes copy7'])) {
      expect(loaded.search(query, 20)).toEqual(original.search(query, 20));
    }
    // Mixed with dense rows of the same model (stored before the sparse form existed).
    const mixed = stored.map((row, i) =>
      i % 2 === 0 ? { ...row, vectors: original.noteSegment(row.note_id)! } : row,
    );
    expect(VectorIndex.fromSegments(HASH_EMBEDDER_INFO, mixed).search(vectors[5]!, 20)).toEqual(
      original.search(vectors[5]!, 20),
    );

    const dense = tinyIndex();
    expect(dense.storedSegment('note-x')).toEqual(dense.noteSegment('note-x'));
    expect(dense.storedSegment('nobody')).toBeUndefined();
  });

  it('refuses a sparse row whose parts disagree with VECTOR_INDEX_REBUILD_REQUIRED', () => {
    const good: VectorNoteSegment = {
      block_ids: ['a', 'b'],
      folder: '',
      tags: [],
      data: vec(1, 0.6, 0.8),
      dims: new Uint16Array([0, 1, 2]),
      ends: new Uint32Array([1, 3]),
    };
    const load = (vectors: VectorNoteSegment) => () =>
      VectorIndex.fromSegments(TINY, [{ note_id: 'n', vectors }]);
    expect(load(good)().search(vec(0, 0.6, 0.8), 1)[0]!.block_id).toBe('b');
    for (const bad of [
      { ...good, dims: new Uint16Array([0, 1, 3]) },
      { ...good, dims: new Uint16Array([0, 1]) },
      { ...good, ends: new Uint32Array([3, 1]) },
      { ...good, ends: new Uint32Array([1, 2]) },
      { ...good, ends: new Uint32Array([3]) },
      { ...good, dims: [0, 1, 2] as unknown as Uint16Array },
    ]) {
      expect(codeOf(load(bad))).toBe('VECTOR_INDEX_REBUILD_REQUIRED');
    }
  });
});
