import { z } from 'zod';
import { AppError } from '../contracts';
import type { Embedder, RelevanceFloor } from './embedder';
import type { FullTextHit, FullTextIndex, HighlightRange } from './full-text-index';
import { relevanceFloorInUse, type RelevanceFloorInUse } from './relevance-calibration';
import type { RetrievalProfile } from './retrieval-profile';
import { taggedQuery } from './query-tags';
import type { SearchFilter } from './search-filter';
import type { VectorHit, VectorIndex } from './vector-index';

export const SEARCH_MODES = ['fts', 'vector', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];
/** For services validating a mode that arrives from the UI or a benchmark config. */
export const searchModeSchema = z.enum(SEARCH_MODES);

export interface FusedItem {
  id: string;
  score: number;
  /** 1-based rank of the id in each input list, null where it is absent. */
  ranks: Array<number | null>;
}

/**
 * Reciprocal rank fusion (Cormack et al., 2009): score(d) = Σ 1 / (k + rank(d)),
 * ranks starting at 1. It needs no calibration between BM25 and cosine scores,
 * which live on unrelated scales. An id repeated within one list counts at its
 * first (best) rank only. Ties go to the better best rank, then to the earlier
 * list, then to the smaller id, so the order is fully determined.
 */
export function rrf(lists: ReadonlyArray<readonly string[]>, k: number): FusedItem[] {
  const fused = new Map<string, FusedItem>();
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      let item = fused.get(id);
      if (!item) {
        item = { id, score: 0, ranks: lists.map(() => null) };
        fused.set(id, item);
      }
      if (item.ranks[listIndex] !== null) return;
      const rank = position + 1;
      item.ranks[listIndex] = rank;
      item.score += 1 / (k + rank);
    });
  });
  return [...fused.values()].sort((a, b) => {
    if (b.score !== a.score) return b.score - a.score;
    const [aRank, aList] = bestRank(a);
    const [bRank, bList] = bestRank(b);
    return aRank - bRank || aList - bList || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
}

function bestRank(item: FusedItem): [number, number] {
  let best: [number, number] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  item.ranks.forEach((rank, listIndex) => {
    if (rank !== null && rank < best[0]) best = [rank, listIndex];
  });
  return best;
}

/** A cross-encoder: scores (query, block) pairs jointly; higher is more relevant. */
export interface Reranker {
  readonly info: { model_id: string; model_version: string };
  score(query: string, texts: string[], options?: { signal?: AbortSignal }): Promise<number[]>;
}

export interface HybridSearchInput {
  query: string;
  /** Defaults to 'hybrid'. */
  mode?: SearchMode;
  profile: RetrievalProfile;
  fullText: FullTextIndex;
  /** Needed for 'vector' and 'hybrid'. */
  vectors?: VectorIndex;
  embedder?: Embedder;
  /** Used only when `profile.rerank` is on. */
  reranker?: Reranker;
  filter?: SearchFilter;
  /** How many hits to return; defaults to `profile.context_top_k`. */
  limit?: number;
  /** Match the query's last word as a prefix too (search as you type); see FullTextSearchOptions. */
  prefix?: boolean;
  /** false: hits come without highlights (the caller marks the ones it shows; see FullTextSearchOptions). */
  highlights?: boolean;
  signal?: AbortSignal;
}

export interface SearchHit {
  block_id: string;
  note_id: string;
  /** The mode's score: BM25 (fts), cosine (vector) or RRF (hybrid). */
  score: number;
  fts_rank: number | null;
  fts_score: number | null;
  vector_rank: number | null;
  vector_score: number | null;
  /** Set when a reranker reordered this hit. */
  rerank_score: number | null;
  /** Query terms in the block text, for the result list; may be empty for a vector-only hit. */
  highlights: HighlightRange[];
}

export interface HybridSearchResult {
  mode: SearchMode;
  profile_id: string;
  profile_version: number;
  /** False when the profile asks for reranking but no reranker is configured. */
  reranked: boolean;
  /** The floor vector hits had to reach (absent in fts mode): the model's, or measured on this notebook. */
  relevance_floor?: RelevanceFloorInUse;
  hits: SearchHit[];
}

/**
 * Search driven by a RetrievalProfile (§9.9). Vector and hybrid modes check the
 * embedder against the vector index before any work and fail with
 * INDEX_MODEL_MISMATCH, so the caller can fall back to 'fts' and offer a
 * rebuild; a query never mixes vectors of two models.
 */
export async function hybridSearch(input: HybridSearchInput): Promise<HybridSearchResult> {
  const { profile, fullText, signal } = input;
  const mode = input.mode ?? 'hybrid';
  const limit = input.limit ?? profile.context_top_k;
  signal?.throwIfAborted();
  // `#os` and `tag:os` ask for the notes tagged os (front matter or inline),
  // as the sidebar's tag does; the rest of the query is searched among them.
  const { tags, text: query } = taggedQuery(input.query);
  const filter: SearchFilter | undefined =
    tags.length === 0 ? input.filter : { ...input.filter, tags: [...(input.filter?.tags ?? []), ...tags] };
  if (tags.length > 0 && query === '') {
    // Nothing to rank: every mode lists the tagged notes, each by its first block.
    return {
      mode,
      profile_id: profile.profile_id,
      profile_version: profile.version,
      reranked: false,
      hits: fullText.firstBlocks(filter ?? {}, limit).map((hit, index) => ({
        block_id: hit.block_id,
        note_id: hit.note_id,
        score: hit.score,
        fts_rank: index + 1,
        fts_score: hit.score,
        vector_rank: null,
        vector_score: null,
        rerank_score: null,
        highlights: [],
      })),
    };
  }

  let vectors: VectorIndex | undefined;
  let embedder: Embedder | undefined;
  if (mode !== 'fts') {
    if (!input.embedder) {
      throw new AppError(
        'EMBEDDING_MODEL_UNAVAILABLE',
        'No embedding model is available for vector search.',
        {
          mode,
        },
      );
    }
    if (!input.vectors) {
      throw new AppError('VECTOR_INDEX_REBUILD_REQUIRED', 'There is no vector index yet; build it first.', {
        mode,
      });
    }
    input.vectors.assertCompatible(input.embedder.info);
    vectors = input.vectors;
    embedder = input.embedder;
  }

  const result: HybridSearchResult = {
    mode,
    profile_id: profile.profile_id,
    profile_version: profile.version,
    reranked: false,
    hits: [],
  };
  if (query.trim() === '' || limit <= 0) return result;

  const ftsHits: FullTextHit[] =
    mode === 'vector'
      ? []
      : fullText.search(query, {
          limit: profile.fts_recall,
          ...(filter ? { filter } : {}),
          ...(input.prefix ? { prefix: true } : {}),
          // Marked below, for the hits returned only: most of the recall is cut by `limit`.
          highlights: false,
        });
  let vectorHits: VectorHit[] = [];
  if (vectors && embedder) {
    const floor = await relevanceFloorInUse(vectors, embedder, signal ? { signal } : {});
    result.relevance_floor = floor;
    vectorHits = relevantOnly(
      await vectors.query(embedder, query, profile.vector_recall, {
        ...(filter ? { filter } : {}),
        ...(signal ? { signal } : {}),
      }),
      floor.floor ?? undefined,
      fullText.termSharer(query),
    );
  }
  signal?.throwIfAborted();

  const ftsById = new Map(ftsHits.map((hit, index) => [hit.block_id, { hit, rank: index + 1 }]));
  const vectorById = new Map(vectorHits.map((hit, index) => [hit.block_id, { hit, rank: index + 1 }]));
  const ranked: Array<{ id: string; score: number }> =
    mode === 'fts'
      ? ftsHits.map((hit) => ({ id: hit.block_id, score: hit.score }))
      : mode === 'vector'
        ? vectorHits.map((hit) => ({ id: hit.block_id, score: hit.score }))
        : rrf([ftsHits.map((hit) => hit.block_id), vectorHits.map((hit) => hit.block_id)], profile.rrf_k);

  let hits: SearchHit[] = ranked
    .filter((item) => item.score > profile.score_threshold)
    .map(({ id, score }) => {
      const fts = ftsById.get(id);
      const vector = vectorById.get(id);
      return {
        block_id: id,
        note_id: fts?.hit.note_id ?? vector?.hit.note_id ?? fullText.get(id)?.note_id ?? '',
        score,
        fts_rank: fts?.rank ?? null,
        fts_score: fts?.hit.score ?? null,
        vector_rank: vector?.rank ?? null,
        vector_score: vector?.hit.score ?? null,
        rerank_score: null,
        highlights: [],
      };
    });

  if (profile.rerank && input.reranker && hits.length > 0) {
    hits = await rerank(hits, query, profile.rerank_candidates, input.reranker, fullText, signal);
    result.reranked = true;
  }

  // Vector-only hits get highlights too, when the block also shares words with the query.
  const highlight =
    input.highlights === false ? undefined : fullText.highlighter(query, { prefix: input.prefix === true });
  result.hits = hits
    .slice(0, limit)
    .map((hit) => (highlight ? { ...hit, highlights: highlight(hit.block_id) } : hit));
  return result;
}

/** The vector candidates at or above the embedder's relevance floor. */
function relevantOnly(
  hits: VectorHit[],
  floor: RelevanceFloor | undefined,
  sharesTerm: (blockId: string) => boolean,
): VectorHit[] {
  if (!floor) return hits;
  return hits.filter(
    (hit) =>
      hit.score >= floor.min_cosine && (floor.require_shared_term !== true || sharesTerm(hit.block_id)),
  );
}

/** Reorders the first `candidates` hits by the cross-encoder; the rest keep their order behind them. */
async function rerank(
  hits: SearchHit[],
  query: string,
  candidates: number,
  reranker: Reranker,
  fullText: FullTextIndex,
  signal: AbortSignal | undefined,
): Promise<SearchHit[]> {
  const head = hits.slice(0, candidates);
  const texts = head.map((hit) => fullText.get(hit.block_id)?.text ?? '');
  const scores = await reranker.score(query, texts, signal ? { signal } : {});
  signal?.throwIfAborted();
  if (scores.length !== head.length) {
    throw new AppError('INTERNAL_ERROR', 'The reranker returned the wrong number of scores.', {
      expected: head.length,
      found: scores.length,
    });
  }
  const rescored = head
    .map((hit, index) => ({ hit: { ...hit, rerank_score: scores[index] ?? 0 }, index }))
    .sort((a, b) => (b.hit.rerank_score ?? 0) - (a.hit.rerank_score ?? 0) || a.index - b.index)
    .map(({ hit }) => hit);
  return [...rescored, ...hits.slice(candidates)];
}
