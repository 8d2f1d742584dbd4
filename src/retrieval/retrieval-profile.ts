import { z } from 'zod';

/**
 * §9.9: search, RAG and the benchmarks share one RetrievalProfile so a number
 * tuned in a benchmark is the number the app uses. Field names are the
 * contract's (snake_case); nothing else in the project may hard-code them.
 */
export const retrievalProfileSchema = z.object({
  profile_id: z.string().min(1).max(200),
  /** Bumped whenever a value changes, so benchmark snapshots can tell profiles apart. */
  version: z.number().int().min(1),
  /** Candidates taken from the full-text index before fusion. */
  fts_recall: z.number().int().min(1).max(1000),
  /** Candidates taken from the vector index before fusion. */
  vector_recall: z.number().int().min(1).max(1000),
  /** The k of reciprocal rank fusion: score = Σ 1 / (rrf_k + rank). */
  rrf_k: z.number().int().min(0).max(10_000),
  /** Rerank the fused head with a cross-encoder, when one is configured. */
  rerank: z.boolean(),
  /** How many fused candidates the reranker sees. */
  rerank_candidates: z.number().int().min(1).max(1000),
  /** Blocks handed to the caller (and injected into a RAG context). */
  context_top_k: z.number().int().min(1).max(1000),
  /**
   * Results must score strictly above this. The contract does not say on which
   * scale; here it is the score of the requested mode (BM25 for fts, cosine for
   * vector, RRF for hybrid), so 0 keeps every lexical match and drops vectors
   * that point away from the query.
   */
  score_threshold: z.number().finite(),
});

export type RetrievalProfile = z.infer<typeof retrievalProfileSchema>;

/**
 * The §9.9 example values, except `rerank`: it is not a number to tune but
 * whether a cross-encoder runs, so it is derived from the configuration by
 * `profileForReranker` (false here: the app ships with no reranker chosen).
 * A profile that claimed reranking while none runs would make benchmark
 * snapshots (§9.4 records the reranker) lie.
 */
export const DEFAULT_RETRIEVAL_PROFILE: Readonly<RetrievalProfile> = Object.freeze({
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

/**
 * The profile a query runs with: the same numbers, with `rerank` true exactly
 * when a reranker is configured (chosen in the settings, or given to the core).
 * Search and "ask your notes" both go through it, so the flag can never say
 * "reranked" while none ran, nor leave a chosen reranker unused.
 */
export function profileForReranker(profile: RetrievalProfile, configured: boolean): RetrievalProfile {
  return profile.rerank === configured ? profile : { ...profile, rerank: configured };
}
