import { describe, expect, it } from 'vitest';
import type { RagCaseDto } from '../contracts/benchmark';
import { DEFAULT_RETRIEVAL_PROFILE, HASH_EMBEDDER_INFO } from '../retrieval';
import {
  benchmarkProfile,
  embeddingDiffers,
  ragCaseResult,
  ragMetricsByMode,
  resolveRetrieval,
  runRagCases,
  sameModel,
} from './rag-run';

const CASE: RagCaseDto = {
  case_id: 'c1',
  query: 'apple',
  expected_note_ids: ['n1'],
  expected_block_ids: ['n1#1'],
  citation_required: true,
  tags: [],
};

describe('RAG run settings', () => {
  it('fills the shared profile defaults and caps top_k at the search limit', () => {
    expect(resolveRetrieval({})).toEqual({
      top_k: 10,
      rrf_k: DEFAULT_RETRIEVAL_PROFILE.rrf_k,
      rerank: DEFAULT_RETRIEVAL_PROFILE.rerank,
      rerank_candidates: DEFAULT_RETRIEVAL_PROFILE.rerank_candidates,
      score_threshold: DEFAULT_RETRIEVAL_PROFILE.score_threshold,
    });
    expect(resolveRetrieval({ top_k: 100_000, rrf_k: 5 })).toMatchObject({ top_k: 100, rrf_k: 5 });
  });

  it('recalls at least top_k candidates per index', () => {
    const profile = benchmarkProfile(resolveRetrieval({ top_k: 50, rrf_k: 30 }));
    expect(profile).toMatchObject({ context_top_k: 50, fts_recall: 50, vector_recall: 50, rrf_k: 30 });
    expect(benchmarkProfile(resolveRetrieval({ top_k: 3 })).fts_recall).toBe(
      DEFAULT_RETRIEVAL_PROFILE.fts_recall,
    );
  });

  it('tells an index of another embedding model apart; unnamed parts match', () => {
    expect(embeddingDiffers({ model_id: 'hash-v1' }, HASH_EMBEDDER_INFO)).toBe(false);
    expect(embeddingDiffers({ model_id: 'hash-v1', dimension: 64 }, HASH_EMBEDDER_INFO)).toBe(true);
    expect(embeddingDiffers({ model_id: 'bge-m3' }, HASH_EMBEDDER_INFO)).toBe(true);
    expect(sameModel(HASH_EMBEDDER_INFO, { ...HASH_EMBEDDER_INFO })).toBe(true);
    expect(sameModel(HASH_EMBEDDER_INFO, { ...HASH_EMBEDDER_INFO, normalization: 'none' })).toBe(false);
  });
});

describe('ragCaseResult', () => {
  const hit = (block_id: string) => ({ block_id, note_id: block_id.split('#')[0]! });

  it('ranks the first expected block and rounds the latency', () => {
    const result = ragCaseResult(CASE, 'fts', 1, [hit('n2#0'), hit('n1#1')], 1.23456);
    expect(result).toMatchObject({
      first_hit_rank: 2,
      passed: true,
      failure_reason: null,
      ranked_block_ids: ['n2#0', 'n1#1'],
      ranked_note_ids: ['n2', 'n1'],
      latency_ms: 1.23,
      cited_block_ids: null,
    });
  });

  it('says why a case failed: nothing found, or not the expected block', () => {
    expect(ragCaseResult(CASE, 'fts', 1, [], 0)).toMatchObject({
      passed: false,
      failure_reason: 'no results',
    });
    expect(ragCaseResult(CASE, 'vector', 2, [hit('n1#0')], 0)).toMatchObject({
      mode: 'vector',
      repeat: 2,
      first_hit_rank: null,
      failure_reason: 'expected block not retrieved',
    });
  });

  it('scores against the notes when the case names no block', () => {
    const byNote = { ...CASE, expected_block_ids: [] };
    expect(ragCaseResult(byNote, 'fts', 1, [hit('n2#0'), hit('n1#0')], 0).first_hit_rank).toBe(2);
  });
});

describe('runRagCases', () => {
  it('runs mode by mode, repeat by repeat, timing only the search, and reports each case in order', async () => {
    const readings = [0, 2, 10, 11, 20, 24, 30, 31];
    let at = 0;
    const seen: string[] = [];
    const results = await runRagCases(
      [CASE, { ...CASE, case_id: 'c2', query: 'pear' }],
      { modes: ['fts', 'hybrid'], repeat: 1, topK: 5 },
      {
        search: async (query, mode, limit) => {
          seen.push(`${mode}:${query}:${limit}`);
          return query === 'apple' ? [{ block_id: 'n1#1', note_id: 'n1' }] : [];
        },
        clock: () => readings[at++]!,
        signal: new AbortController().signal,
        onResult: async (result, done, total) => void seen.push(`${result.case_id}@${done}/${total}`),
      },
    );
    expect(seen).toEqual([
      'fts:apple:5',
      'c1@1/4',
      'fts:pear:5',
      'c2@2/4',
      'hybrid:apple:5',
      'c1@3/4',
      'hybrid:pear:5',
      'c2@4/4',
    ]);
    expect(results.map((result) => result.latency_ms)).toEqual([2, 1, 4, 1]);
    expect(ragMetricsByMode(results, ['fts', 'hybrid'], 5, 'no model')).toMatchObject({
      fts: { hit_at_1: 0.5, case_count: 2, skipped: { citation_hit_rate: 'no model' } },
      hybrid: { hit_at_1: 0.5, case_count: 2 },
    });
  });

  it('keeps up to `concurrency` searches in flight and still reports in case order', async () => {
    const gates = new Map<string, () => void>();
    const waiting = new Map<number, () => void>();
    /** Resolves once `count` searches have started. */
    const startedCount = (count: number) =>
      new Promise<void>((resolve) => (gates.size >= count ? resolve() : waiting.set(count, resolve)));
    const seen: string[] = [];
    const running = runRagCases(
      [CASE, { ...CASE, case_id: 'c2', query: 'pear' }, { ...CASE, case_id: 'c3', query: 'plum' }],
      { modes: ['fts'], repeat: 1, topK: 5, concurrency: 2 },
      {
        search: (query) =>
          new Promise<Array<{ block_id: string; note_id: string }>>((resolve) => {
            seen.push(`start:${query}`);
            gates.set(query, () => resolve([]));
            waiting.get(gates.size)?.();
          }),
        clock: () => 0,
        signal: new AbortController().signal,
        onResult: async (result, done, total) => void seen.push(`${result.case_id}@${done}/${total}`),
      },
    );
    await startedCount(2);
    // Two in flight, the third waits for a free slot.
    expect(seen).toEqual(['start:apple', 'start:pear']);
    gates.get('pear')!();
    gates.get('apple')!();
    await startedCount(3);
    gates.get('plum')!();
    const results = await running;
    expect(results.map((result) => result.case_id)).toEqual(['c1', 'c2', 'c3']);
    expect(seen.filter((entry) => entry.includes('@'))).toEqual(['c1@1/3', 'c2@2/3', 'c3@3/3']);
  });

  it('stops at the signal before the next case', async () => {
    const controller = new AbortController();
    const results: string[] = [];
    await expect(
      runRagCases(
        [CASE, { ...CASE, case_id: 'c2' }],
        { modes: ['fts'], repeat: 2, topK: 5 },
        {
          search: async () => [],
          clock: () => 0,
          signal: controller.signal,
          onResult: async (result) => {
            results.push(result.case_id);
            controller.abort();
          },
        },
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(results).toEqual(['c1']);
  });
});
