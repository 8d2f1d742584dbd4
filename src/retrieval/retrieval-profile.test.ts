import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_PROFILE, retrievalProfileSchema } from './retrieval-profile';

describe('RetrievalProfile', () => {
  it('defaults to the §9.9 example, with reranking off until a reranker ships', () => {
    expect(DEFAULT_RETRIEVAL_PROFILE).toEqual({
      profile_id: 'default-v2',
      version: 2,
      fts_recall: 20,
      vector_recall: 20,
      rrf_k: 60,
      rerank: false,
      rerank_candidates: 20,
      context_top_k: 8,
      score_threshold: 0.0,
    });
    expect(retrievalProfileSchema.parse(DEFAULT_RETRIEVAL_PROFILE)).toEqual(DEFAULT_RETRIEVAL_PROFILE);
  });

  it('cannot be changed in place', () => {
    expect(Object.isFrozen(DEFAULT_RETRIEVAL_PROFILE)).toBe(true);
  });

  it('accepts the contract example verbatim', () => {
    const example = {
      profile_id: 'default-v2',
      version: 2,
      fts_recall: 20,
      vector_recall: 20,
      rrf_k: 60,
      rerank: true,
      rerank_candidates: 20,
      context_top_k: 8,
      score_threshold: 0.0,
    };
    expect(retrievalProfileSchema.parse(example)).toEqual(example);
  });

  it.each([
    ['a missing field', { fts_recall: undefined }],
    ['a zero recall', { vector_recall: 0 }],
    ['a fractional top k', { context_top_k: 2.5 }],
    ['a negative rrf_k', { rrf_k: -1 }],
    ['a non-finite threshold', { score_threshold: Number.POSITIVE_INFINITY }],
    ['an empty id', { profile_id: '' }],
  ])('rejects %s', (_, change) => {
    expect(retrievalProfileSchema.safeParse({ ...DEFAULT_RETRIEVAL_PROFILE, ...change }).success).toBe(false);
  });
});
