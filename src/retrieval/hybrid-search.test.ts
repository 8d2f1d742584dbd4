import { describe, expect, it } from 'vitest';
import type { Embedder } from './embedder';
import { FullTextIndex, type FullTextDocument } from './full-text-index';
import { HASH_EMBEDDER_RELEVANCE_FLOOR, HashEmbedder } from './hash-embedder';
import { hybridSearch, rrf, type HybridSearchInput, type Reranker } from './hybrid-search';
import { DEFAULT_RETRIEVAL_PROFILE, type RetrievalProfile } from './retrieval-profile';
import { VectorIndex } from './vector-index';

describe('rrf', () => {
  it('sums 1 / (k + rank) with ranks from 1 (hand-computed, k = 60)', () => {
    const fused = rrf(
      [
        ['a', 'b', 'c'],
        ['c', 'a', 'd'],
      ],
      60,
    );
    // a: 1/61 + 1/62 = 0.016393443 + 0.016129032 = 0.032522475
    // c: 1/63 + 1/61 = 0.015873016 + 0.016393443 = 0.032266459
    // b: 1/62        = 0.016129032
    // d: 1/63        = 0.015873016
    expect(fused.map((item) => item.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0]?.score).toBeCloseTo(0.032522475, 8);
    expect(fused[1]?.score).toBeCloseTo(0.032266459, 8);
    expect(fused[2]?.score).toBeCloseTo(0.016129032, 8);
    expect(fused[3]?.score).toBeCloseTo(0.015873016, 8);
    expect(fused[0]?.ranks).toEqual([1, 2]);
    expect(fused[3]?.ranks).toEqual([null, 3]);
  });

  it('with k = 0 the top rank dominates (hand-computed)', () => {
    // x: 1/1 = 1; y: 1/2 + 1/1 = 1.5; z: 1/3 = 0.333...
    const fused = rrf([['x', 'y', 'z'], ['y']], 0);
    expect(fused.map((item) => [item.id, item.score])).toEqual([
      ['y', 1.5],
      ['x', 1],
      ['z', 1 / 3],
    ]);
  });

  it('counts an id once per list, at its best rank', () => {
    const fused = rrf([['a', 'a', 'b']], 60);
    // a: 1/61 = 0.016393443 (its second place is ignored); b keeps rank 3: 1/63.
    expect(fused.map((item) => [item.id, item.ranks])).toEqual([
      ['a', [1]],
      ['b', [3]],
    ]);
    expect(fused[1]?.score).toBeCloseTo(0.015873016, 8);
  });

  it('breaks ties by best rank, then list order, then id', () => {
    expect(rrf([['p'], ['q']], 60).map((item) => item.id)).toEqual(['p', 'q']);
    expect(
      rrf(
        [
          ['m', 'n'],
          ['n', 'm'],
        ],
        60,
      ).map((item) => item.id),
    ).toEqual(['m', 'n']);
    expect(rrf([], 60)).toEqual([]);
  });
});

const NOTES: Array<[string, string, string]> = [
  ['deadlock', 'os', '死锁的四个必要条件：互斥、占有并等待、不可抢占、循环等待。'],
  ['banker', 'os', '银行家算法用安全状态来避免死锁。'],
  ['scheduling', 'os', 'CFS 调度器按虚拟运行时间挑选下一个任务。'],
  ['braise', 'cooking', '红烧肉先炒糖色，再小火炖一个小时。'],
  ['tomato', 'cooking', '番茄炒蛋要先把鸡蛋炒到八成熟盛出。'],
  ['tcp', 'network', 'TCP 三次握手：SYN、SYN-ACK、ACK。'],
  ['tcp-en', 'network', 'The TCP three-way handshake sends SYN, SYN-ACK and ACK.'],
  ['deadlock-en', 'os', 'A deadlock needs mutual exclusion, hold and wait, no preemption and circular wait.'],
  ['lock-en', 'os', 'Always acquire locks in one global order to avoid a deadlock.'],
  ['rice', 'cooking', '炒饭要用隔夜的米饭。'],
];

async function fixture(): Promise<Pick<HybridSearchInput, 'fullText' | 'vectors' | 'embedder'>> {
  const embedder = new HashEmbedder();
  const fullText = new FullTextIndex();
  const vectors = new VectorIndex(embedder.info);
  const documents: FullTextDocument[] = NOTES.map(([id, folder, text]) => ({
    block_id: id,
    note_id: `note-${id}`,
    text,
    folder,
  }));
  documents.forEach((document) => fullText.add(document));
  vectors.upsert(documents, await embedder.embed(documents.map((document) => document.text)), embedder.info);
  return { fullText, vectors, embedder };
}

const profile = (changes: Partial<RetrievalProfile> = {}): RetrievalProfile => ({
  ...DEFAULT_RETRIEVAL_PROFILE,
  ...changes,
});

describe('hybridSearch', () => {
  it('fts mode returns BM25 hits with highlights, using the default profile', async () => {
    const result = await hybridSearch({
      ...(await fixture()),
      query: '死锁条件',
      mode: 'fts',
      profile: profile(),
    });
    expect(result).toMatchObject({
      mode: 'fts',
      profile_id: 'default-v2',
      profile_version: 2,
      reranked: false,
    });
    const [top] = result.hits;
    expect(top).toMatchObject({
      block_id: 'deadlock',
      note_id: 'note-deadlock',
      fts_rank: 1,
      vector_rank: null,
    });
    expect(top?.score).toBe(top?.fts_score);
    expect(top?.highlights.length).toBeGreaterThan(0);
  });

  it('vector mode ranks by cosine and drops non-positive similarities (score_threshold 0)', async () => {
    const result = await hybridSearch({
      ...(await fixture()),
      query: '死锁的必要条件',
      mode: 'vector',
      profile: profile(),
    });
    expect(result.hits[0]?.block_id).toBe('deadlock');
    expect(result.hits.every((hit) => hit.score > 0 && hit.score === hit.vector_score)).toBe(true);
    expect(result.hits.every((hit) => hit.fts_rank === null)).toBe(true);
  });

  it('hybrid mode fuses both lists with rrf(profile.rrf_k)', async () => {
    const inputs = await fixture();
    const query = 'deadlock 死锁';
    const result = await hybridSearch({ ...inputs, query, profile: profile() });
    expect(result.mode).toBe('hybrid');
    const fts = inputs.fullText.search(query, { limit: DEFAULT_RETRIEVAL_PROFILE.fts_recall });
    const vector = inputs.vectors?.search(
      (await inputs.embedder?.embed([query]))?.[0] ?? new Float32Array(),
      20,
    );
    // hash-v1's relevance floor keeps the vector candidates that share a term.
    const relevant = (vector ?? []).filter(
      (hit) =>
        hit.score >= HASH_EMBEDDER_RELEVANCE_FLOOR.min_cosine &&
        inputs.fullText.sharesTerm(hit.block_id, query),
    );
    expect(relevant.length).toBeGreaterThan(0);
    expect(relevant.length).toBeLessThan((vector ?? []).length);
    const expected = rrf(
      [fts.map((hit) => hit.block_id), relevant.map((hit) => hit.block_id)],
      DEFAULT_RETRIEVAL_PROFILE.rrf_k,
    ).slice(0, DEFAULT_RETRIEVAL_PROFILE.context_top_k);
    expect(result.hits.map((hit) => [hit.block_id, hit.score])).toEqual(
      expected.map((item) => [item.id, item.score]),
    );
    for (const hit of result.hits) {
      const fused = expected.find((item) => item.id === hit.block_id);
      expect([hit.fts_rank, hit.vector_rank]).toEqual(fused?.ranks);
    }
  });

  it('returns context_top_k hits by default, and honours recall and limit', async () => {
    const inputs = await fixture();
    const wide = await hybridSearch({
      ...inputs,
      query: '的 a 死锁 TCP 红烧肉 米饭 order CFS',
      profile: profile(),
    });
    expect(wide.hits).toHaveLength(DEFAULT_RETRIEVAL_PROFILE.context_top_k);
    const narrow = await hybridSearch({
      ...inputs,
      query: '的 a 死锁 TCP 红烧肉 米饭 order CFS',
      mode: 'fts',
      profile: profile({ fts_recall: 2, context_top_k: 5 }),
    });
    expect(narrow.hits).toHaveLength(2);
    const limited = await hybridSearch({ ...inputs, query: '死锁', profile: profile(), limit: 1 });
    expect(limited.hits).toHaveLength(1);
  });

  it('applies score_threshold to the mode score', async () => {
    const inputs = await fixture();
    const all = await hybridSearch({ ...inputs, query: 'deadlock', mode: 'fts', profile: profile() });
    const cut = (all.hits[0]?.score ?? 0) - 0.001;
    const strict = await hybridSearch({
      ...inputs,
      query: 'deadlock',
      mode: 'fts',
      profile: profile({ score_threshold: cut }),
    });
    expect(strict.hits.map((hit) => hit.block_id)).toEqual([all.hits[0]?.block_id]);
  });

  it('filters by folder in every mode', async () => {
    const inputs = await fixture();
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      const result = await hybridSearch({
        ...inputs,
        query: 'TCP 死锁 红烧肉',
        mode,
        profile: profile(),
        filter: { folder: 'cooking' },
      });
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits.every((hit) => ['braise', 'tomato', 'rice'].includes(hit.block_id))).toBe(true);
    }
  });

  it("drops vector candidates below the embedder's relevance floor, in vector and hybrid mode", async () => {
    const inputs = await fixture();
    for (const mode of ['vector', 'hybrid'] as const) {
      // Made-up words share no term with any block: hash collisions alone give them cosines.
      const nonsense = await hybridSearch({ ...inputs, query: 'qzxv blorft wug', mode, profile: profile() });
      expect(nonsense.hits, mode).toEqual([]);
      const real = await hybridSearch({ ...inputs, query: 'handshake', mode, profile: profile() });
      expect(real.hits.map((hit) => hit.block_id)).toEqual(['tcp-en']);
    }
  });

  it('takes the floor from the embedder: none is calibrated on the notebook, a cosine floor cuts by score', async () => {
    const inputs = await fixture();
    const hash = new HashEmbedder();
    const unfloored: Embedder = { info: hash.info, embed: (texts, options) => hash.embed(texts, options) };
    const calibrated = await hybridSearch({
      ...inputs,
      embedder: unfloored,
      query: 'qzxv blorft wug',
      mode: 'vector',
      profile: profile(),
    });
    expect(calibrated.hits).toEqual([]);
    expect(calibrated.relevance_floor?.source).toBe('calibrated');
    const low: Embedder = { ...unfloored, relevance_floor: { min_cosine: -1 } };
    const all = await hybridSearch({
      ...inputs,
      embedder: low,
      query: 'qzxv blorft wug',
      mode: 'vector',
      profile: profile(),
    });
    expect(all.hits.length).toBeGreaterThan(0);
    const cut = (all.hits[0]?.score ?? 0) - 0.0001;
    const floored: Embedder = { ...unfloored, relevance_floor: { min_cosine: cut } };
    const top = await hybridSearch({
      ...inputs,
      embedder: floored,
      query: 'qzxv blorft wug',
      mode: 'vector',
      profile: profile(),
    });
    expect(top.hits.map((hit) => hit.block_id)).toEqual([all.hits[0]?.block_id]);
    expect(top.relevance_floor).toEqual({ source: 'model', floor: { min_cosine: cut }, calibration: null });
  });

  it('matches the last word as a prefix when asked (search as you type), with highlights', async () => {
    const inputs = await fixture();
    const exact = await hybridSearch({ ...inputs, query: 'hands', mode: 'fts', profile: profile() });
    expect(exact.hits).toEqual([]);
    for (const mode of ['fts', 'hybrid'] as const) {
      const typed = await hybridSearch({ ...inputs, query: 'hands', mode, profile: profile(), prefix: true });
      expect(typed.hits.map((hit) => hit.block_id)).toEqual(['tcp-en']);
      expect(typed.hits[0]?.highlights).toEqual([{ start: 18, end: 27 }]);
    }
  });

  it('gives vector-only hits highlights where they share words with the query', async () => {
    const inputs = await fixture();
    const result = await hybridSearch({ ...inputs, query: 'handshake', mode: 'vector', profile: profile() });
    const hit = result.hits.find((candidate) => candidate.block_id === 'tcp-en');
    expect(hit?.highlights).toEqual([{ start: 18, end: 27 }]);
  });

  it('marks each returned hit as the full-text index marks its block, and none when asked not to', async () => {
    const inputs = await fixture();
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      for (const query of ['tcp handshake', '死锁', 'hands']) {
        const result = await hybridSearch({
          ...inputs,
          query,
          mode,
          profile: profile(),
          prefix: true,
          limit: 3,
        });
        for (const hit of result.hits) {
          expect(hit.highlights).toEqual(inputs.fullText.highlights(hit.block_id, query, { prefix: true }));
        }
        const bare = await hybridSearch({ ...inputs, query, mode, profile: profile(), highlights: false });
        expect(bare.hits.every((hit) => hit.highlights.length === 0)).toBe(true);
      }
    }
  });

  it('vector and hybrid over incompatible vectors fail with INDEX_MODEL_MISMATCH; fts still works', async () => {
    const inputs = await fixture();
    const upgraded: Embedder = {
      info: { ...new HashEmbedder().info, model_version: '2' },
      embed: (texts, options) => new HashEmbedder().embed(texts, options),
    };
    for (const mode of ['vector', 'hybrid'] as const) {
      await expect(
        hybridSearch({ ...inputs, embedder: upgraded, query: '死锁', mode, profile: profile() }),
      ).rejects.toMatchObject({
        code: 'INDEX_MODEL_MISMATCH',
        details: { differences: ['model_version'] },
      });
    }
    const fallback = await hybridSearch({
      ...inputs,
      embedder: upgraded,
      query: '死锁条件',
      mode: 'fts',
      profile: profile(),
    });
    expect(fallback.hits[0]?.block_id).toBe('deadlock');
  });

  it('needs an embedder and a vector index outside fts mode', async () => {
    const { fullText, vectors, embedder } = await fixture();
    await expect(hybridSearch({ fullText, vectors, query: 'x', profile: profile() })).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
    });
    await expect(hybridSearch({ fullText, embedder, query: 'x', profile: profile() })).rejects.toMatchObject({
      code: 'VECTOR_INDEX_REBUILD_REQUIRED',
    });
    expect(
      (await hybridSearch({ fullText, query: '死锁', mode: 'fts', profile: profile() })).hits.length,
    ).toBeGreaterThan(0);
  });

  it('returns nothing for a blank query', async () => {
    expect((await hybridSearch({ ...(await fixture()), query: '  ', profile: profile() })).hits).toEqual([]);
  });

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(
      hybridSearch({ ...(await fixture()), query: '死锁', profile: profile(), signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reranks the first rerank_candidates hits only when the profile asks and a reranker exists', async () => {
    const inputs = await fixture();
    const seen: string[][] = [];
    // Prefers shorter blocks: an easy order to predict.
    const reranker: Reranker = {
      info: { model_id: 'fake-cross-encoder', model_version: '1' },
      score: async (_query, texts) => {
        seen.push(texts);
        return texts.map((text) => -text.length);
      },
    };
    const query = 'deadlock 死锁 TCP';
    const plain = await hybridSearch({ ...inputs, query, profile: profile(), reranker });
    expect(plain.reranked).toBe(false);
    expect(seen).toEqual([]);

    const reranked = await hybridSearch({
      ...inputs,
      query,
      profile: profile({ rerank: true, rerank_candidates: 3 }),
      reranker,
    });
    expect(reranked.reranked).toBe(true);
    expect(seen[0]).toHaveLength(3);
    const head = plain.hits.slice(0, 3).map((hit) => hit.block_id);
    const byLength = [...head].sort(
      (a, b) => (inputs.fullText.get(a)?.text.length ?? 0) - (inputs.fullText.get(b)?.text.length ?? 0),
    );
    expect(reranked.hits.slice(0, 3).map((hit) => hit.block_id)).toEqual(byLength);
    expect(reranked.hits.slice(3).map((hit) => hit.block_id)).toEqual(
      plain.hits.slice(3).map((hit) => hit.block_id),
    );
    expect(reranked.hits[0]?.rerank_score).toBe(-(inputs.fullText.get(byLength[0] ?? '')?.text.length ?? 0));

    const withoutReranker = await hybridSearch({ ...inputs, query, profile: profile({ rerank: true }) });
    expect(withoutReranker.reranked).toBe(false);
  });
});

describe('hybridSearch with tags in the query', () => {
  async function tagged(): Promise<Pick<HybridSearchInput, 'fullText' | 'vectors' | 'embedder'>> {
    const embedder = new HashEmbedder();
    const fullText = new FullTextIndex();
    const vectors = new VectorIndex(embedder.info);
    const documents: FullTextDocument[] = [
      // Tagged in front matter only: the word "os" is nowhere in its text.
      {
        block_id: 'fm-1',
        note_id: 'fm',
        title: 'Paging',
        tags: ['os'],
        text: 'Pages map virtual to physical memory.',
      },
      {
        block_id: 'fm-2',
        note_id: 'fm',
        title: 'Paging',
        tags: ['os'],
        text: 'A page fault loads the page.',
      },
      {
        block_id: 'inline-1',
        note_id: 'inline',
        title: 'Kernel',
        tags: ['OS'],
        text: 'The kernel runs in ring 0. #OS',
      },
      {
        block_id: 'word-1',
        note_id: 'word',
        title: 'Mac',
        tags: [],
        text: 'My os is macOS, the os of Apple.',
      },
    ];
    documents.forEach((document) => fullText.add(document));
    vectors.upsert(
      documents,
      await embedder.embed(documents.map((document) => document.text)),
      embedder.info,
    );
    return { fullText, vectors, embedder };
  }

  it('`#os` and `tag:os` list the tagged notes, front matter or inline, by their first block, in every mode', async () => {
    const inputs = await tagged();
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      for (const query of ['#os', 'tag:OS']) {
        const result = await hybridSearch({ ...inputs, query, mode, profile: profile() });
        expect(result.hits.map((hit) => hit.block_id)).toEqual(['inline-1', 'fm-1']);
      }
    }
  });

  it('searches the rest of the query among the tagged notes, with the sidebar filter too', async () => {
    const inputs = await tagged();
    const fts = await hybridSearch({ ...inputs, query: '#os page fault', mode: 'fts', profile: profile() });
    expect(fts.hits.map((hit) => hit.block_id)).toEqual(['fm-2', 'fm-1']);
    const none = await hybridSearch({ ...inputs, query: '#os apple', mode: 'fts', profile: profile() });
    expect(none.hits).toEqual([]);
    const both = await hybridSearch({
      ...inputs,
      query: '#os',
      mode: 'fts',
      profile: profile(),
      filter: { tags: ['nothing-has-this'] },
    });
    expect(both.hits).toEqual([]);
  });
});
