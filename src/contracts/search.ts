import type { ErrorCode } from './error-codes';

/**
 * Search and index status DTOs (contract §9.9). Zod-free, so the page
 * can import them; the request schemas live in search-schemas.ts.
 */
export const SEARCH_MODES = ['fts', 'vector', 'hybrid'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * What a caller wants when vector search cannot answer (INDEX_MODEL_MISMATCH,
 * VECTOR_INDEX_REBUILD_REQUIRED, EMBEDDING_MODEL_UNAVAILABLE): `none` (the
 * default, as §9.9 specifies) rejects with that code; `fts` answers from the
 * full-text index and names the code in `fallback_reason`.
 */
export const SEARCH_FALLBACKS = ['none', 'fts'] as const;
export type SearchFallback = (typeof SEARCH_FALLBACKS)[number];

export const SEARCH_GROUP_BY = ['none', 'note'] as const;
export type SearchGroupBy = (typeof SEARCH_GROUP_BY)[number];

/** `all`: both indexes from the notes; `vectors`: the vectors only (§9.9, after a model switch). */
export const REBUILD_SCOPES = ['all', 'vectors'] as const;
export type RebuildScope = (typeof REBUILD_SCOPES)[number];

export const INDEX_UPDATE_JOB_KIND = 'index.update';
export const INDEX_REBUILD_JOB_KIND = 'index.rebuild';

/** UTF-16 offsets (what `String.prototype.slice` takes), end exclusive. */
export interface HighlightRangeDto {
  start: number;
  end: number;
}

export interface SearchHitDto {
  note_id: string;
  block_id: string;
  title: string;
  /** Matches inside `title`: sorted, not overlapping. Absent from an older core. */
  title_highlights?: HighlightRangeDto[];
  folder: string;
  tags: string[];
  block_type: string;
  /** 0-based lines of the block in the note body; the preview marks blocks with `data-source-line`. */
  start_line: number;
  end_line: number;
  /** A window of the block's readable text (no Markdown marks) around the first match. */
  snippet: string;
  /** Matches inside `snippet`: sorted, not overlapping. */
  highlights: HighlightRangeDto[];
  /** The snippet starts after the block's start / ends before its end. */
  snippet_cut_start: boolean;
  snippet_cut_end: boolean;
  /** The score of `mode_used`: BM25 (fts), cosine (vector) or RRF (hybrid). */
  score: number;
  fts_rank: number | null;
  vector_rank: number | null;
  /** The cross-encoder's score when a reranker reordered the hits, else null. */
  rerank_score: number | null;
}

export interface SearchResultDto {
  query: string;
  /** The mode asked for. */
  mode: SearchMode;
  /** The mode that answered: `fts` after a fallback. */
  mode_used: SearchMode;
  /** Why the answer fell back to full-text; null when it did not. */
  fallback_reason: ErrorCode | null;
  profile_id: string;
  profile_version: number;
  /** The reranker model that reordered the hits; null when none is configured or it failed. */
  reranked_by: string | null;
  /** Why the configured reranker could not reorder the hits (they keep the fused order); null otherwise. */
  rerank_error: ErrorCode | null;
  /** The page: with `group_by: 'note'`, every hit of the page's groups, group after group. */
  hits: SearchHitDto[];
  // Optional only so that stand-ins written before paging still type-check; SearchService always sets them.
  /** With `group_by: 'note'`: the page's notes, each with its hits best first; else empty. */
  groups?: SearchGroupDto[];
  /** Matching blocks over all pages, and the notes they are in. */
  total_hits?: number;
  total_notes?: number;
  /** More blocks match than were ranked (SEARCH_WINDOW): the totals are lower bounds. */
  total_capped?: boolean;
  offset?: number;
  /**
   * Answered while the stored index was still loading (search as you type
   * only): the hits come from the notes read so far and may be incomplete.
   */
  index_loading?: boolean;
  duration_ms: number;
}

/** One note's matches in a grouped search. */
export interface SearchGroupDto {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  /** Best first; the first is the one a result list shows. */
  hits: SearchHitDto[];
}

export const INDEX_STATES = ['loading', 'idle', 'updating', 'rebuilding', 'failed'] as const;
export type IndexState = (typeof INDEX_STATES)[number];

export interface EmbeddingInfoDto {
  model_id: string;
  model_version: string;
  dimension: number;
  normalization: 'l2' | 'none';
}

/** §9.9 `GET /api/index/status`, plus counts; `vector_index` is null until vectors exist. */
export interface IndexStatusDto {
  status: IndexState;
  pending_jobs: number;
  active_job_id: string | null;
  /** The embedder queries are embedded with now. */
  embedding: EmbeddingInfoDto;
  /** What the stored vectors were made with; `compatible` is false when any field differs. */
  vector_index: (EmbeddingInfoDto & { compatible: boolean; block_count: number }) | null;
  full_text: { block_count: number };
  /** Notes changed since the indexes were last saved. */
  pending_notes: number;
  last_completed_at: string | null;
  error_message: string | null;
  /** The code of `error_message`, so the UI says it in the reader's language. */
  error_code: ErrorCode | null;
}
