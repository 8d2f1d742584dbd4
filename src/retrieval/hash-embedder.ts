import type { Embedder, EmbeddingModelInfo, RelevanceFloor } from './embedder';
import { analyze } from './tokenizer';

/**
 * hash-v1: feature hashing of the full-text tokens. It needs no download, runs
 * anywhere and is the default embedder, so vector and hybrid search work on a
 * fresh offline install. It only captures shared words and character bigrams,
 * not meaning; a real model replaces it when the user downloads one.
 *
 * The vectors depend on the tokenizer, the hash and the weights below: change
 * any of them and `model_version` must change, or stored vectors are misread.
 */
export const HASH_EMBEDDER_INFO: Readonly<EmbeddingModelInfo> = Object.freeze({
  model_id: 'hash-v1',
  model_version: '1',
  dimension: 256,
  normalization: 'l2',
});

/**
 * hash-v1's relevance floor, measured on the evaluation corpus. Collisions
 * give nonsense queries cosines of 0.17 to 0.51, as high as real matches
 * (the expected blocks start at 0.16), so no cosine alone separates them: a
 * hit must share a term with the query, and the cosine floor sits below every
 * expected block, so hit@1, hit@5 and MRR stay as they were.
 */
export const HASH_EMBEDDER_RELEVANCE_FLOOR: Readonly<RelevanceFloor> = Object.freeze({
  min_cosine: 0.1,
  require_shared_term: true,
});

/**
 * Adjacent English word pairs count half a word: they add some word order (as
 * bigrams do for Chinese) without drowning the words themselves. Every other
 * feature counts 1; down-weighting Chinese unigrams was measured to hurt.
 */
const WORD_PAIR_WEIGHT = 0.5;

export class HashEmbedder implements Embedder {
  readonly info: EmbeddingModelInfo = HASH_EMBEDDER_INFO;
  readonly relevance_floor: RelevanceFloor = HASH_EMBEDDER_RELEVANCE_FLOOR;

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (const text of texts) {
      options.signal?.throwIfAborted();
      vectors.push(hashEmbed(text, this.info.dimension));
    }
    return vectors;
  }
}

/**
 * Signed feature hashing: each feature adds ±weight to one dimension chosen by
 * its hash, so collisions cancel out on average instead of piling up. Counts
 * are damped (1 + ln tf) so one repeated word cannot fill the vector. The result
 * is l2-normalised; an empty text gives the zero vector (it matches nothing).
 */
export function hashEmbed(text: string, dimension: number = HASH_EMBEDDER_INFO.dimension): Float32Array {
  const features = new Map<string, { count: number; weight: number }>();
  const add = (feature: string, weight: number): void => {
    const seen = features.get(feature);
    if (seen) seen.count += 1;
    else features.set(feature, { count: 1, weight });
  };
  let previousWord: string | undefined;
  for (const token of analyze(text)) {
    switch (token.kind) {
      case 'word':
        add(`w:${token.term}`, 1);
        // Adjacent word pairs give English some of the order that bigrams give Chinese.
        if (previousWord !== undefined) add(`p:${previousWord} ${token.term}`, WORD_PAIR_WEIGHT);
        previousWord = token.term;
        break;
      case 'cjk_unigram':
      case 'cjk_bigram':
      case 'cjk_word':
        add(`c:${token.term}`, 1);
        // Chinese text between two English words breaks the pair.
        previousWord = undefined;
        break;
      default: {
        const unknown: never = token.kind;
        throw new Error(`unknown token kind ${String(unknown)}`);
      }
    }
  }

  const vector = new Float32Array(dimension);
  for (const [feature, { count, weight: kindWeight }] of features) {
    const weight = kindWeight * (1 + Math.log(count));
    const hash = fnv1a(feature);
    const slot = (hash >>> 1) % dimension;
    vector[slot] = (vector[slot] ?? 0) + (hash & 1 ? -weight : weight);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let index = 0; index < dimension; index++) vector[index] = (vector[index] ?? 0) * scale;
  }
  return vector;
}

/** 32-bit FNV-1a over UTF-16 units, then a murmur3 finaliser so low bits mix well. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
