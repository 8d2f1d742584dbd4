import { z } from 'zod';

/**
 * What a vector was made with (§9.9). Two vectors are only comparable when all
 * four fields agree; the vector index stores this beside its vectors.
 */
export const embeddingModelInfoSchema = z.object({
  model_id: z.string().min(1),
  model_version: z.string().min(1),
  dimension: z.number().int().min(1).max(65_536),
  normalization: z.enum(['l2', 'none']),
});
export type EmbeddingModelInfo = z.infer<typeof embeddingModelInfoSchema>;

/**
 * Turns texts into vectors. The same interface is implemented in-thread (tests,
 * hash-v1) and by the embed worker's proxy, so callers never know which runs.
 */
export interface Embedder {
  readonly info: EmbeddingModelInfo;
  /** Where its similarities stop meaning "related"; absent: calibrated on the notebook (relevance-calibration.ts). */
  readonly relevance_floor?: RelevanceFloor;
  /** One vector of `info.dimension` per text, in order. Rejects with an AbortError when aborted. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/**
 * What a vector hit must reach to be shown: vector and hybrid search drop the
 * candidates below it, so a query about nothing in the notes finds nothing
 * instead of the least unrelated blocks. Every model has its own similarity
 * scale, so a measured floor lives in its catalog entry (hash-v1: its module);
 * a model without one gets a floor calibrated on the notebook it indexes
 * (relevance-calibration.ts).
 */
export interface RelevanceFloor {
  /** Cosine similarity below which a block is unrelated. */
  min_cosine: number;
  /**
   * The cosine only means something where the block shares a term with the
   * query: hash-v1 sees nothing but shared terms, so any other similarity is a
   * hash collision, as likely for nonsense as for a real question.
   */
  require_shared_term?: boolean;
}

export function sameEmbeddingModel(a: EmbeddingModelInfo, b: EmbeddingModelInfo): boolean {
  return (
    a.model_id === b.model_id &&
    a.model_version === b.model_version &&
    a.dimension === b.dimension &&
    a.normalization === b.normalization
  );
}

/** The fields that differ, for error details and the index status view. */
export function embeddingModelDifferences(
  a: EmbeddingModelInfo,
  b: EmbeddingModelInfo,
): Array<keyof EmbeddingModelInfo> {
  return (['model_id', 'model_version', 'dimension', 'normalization'] as const).filter(
    (field) => a[field] !== b[field],
  );
}
