import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIEVAL_PROFILE, profileForReranker, retrievalProfileSchema } from './retrieval-profile';

describe('RetrievalProfile', () => {
  it('defaults to the §9.9 example, with reranking off until a reranker is chosen', () => {
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

describe('profileForReranker', () => {
  it('turns `rerank` on exactly when a reranker is configured and keeps every number', () => {
    const on = profileForReranker(DEFAULT_RETRIEVAL_PROFILE, true);
    expect(on).toEqual({ ...DEFAULT_RETRIEVAL_PROFILE, rerank: true });
    expect(profileForReranker(on, false)).toEqual({ ...DEFAULT_RETRIEVAL_PROFILE, rerank: false });
    // Unchanged profiles are the same object: nothing is copied per query.
    expect(profileForReranker(DEFAULT_RETRIEVAL_PROFILE, false)).toBe(DEFAULT_RETRIEVAL_PROFILE);
  });
});
