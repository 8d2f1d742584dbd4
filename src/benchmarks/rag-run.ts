import type {
  BenchmarkRetrievalSettings,
  BenchmarkSearchMode,
  RagCaseDto,
  RagCaseResult,
  RagMetrics,
} from '../contracts/benchmark';
import { MAX_SEARCH_LIMIT } from '../contracts/search-schemas';
import { DEFAULT_RETRIEVAL_PROFILE, type EmbeddingModelInfo, type RetrievalProfile } from '../retrieval';
import { runInOrder } from './case-queue';
import { withCitation, type CitationOutcome } from './citations';
import { ragMetrics } from './metrics';

/** Why `citation_hit_rate` is null when the run has no answer model. */
export const CITATION_SKIPPED_NO_MODEL = 'no answer model was chosen';

/** The request's retrieval settings with the shared profile's defaults filled in (§9.9). */
export function resolveRetrieval(requested: Partial<BenchmarkRetrievalSettings>): BenchmarkRetrievalSettings {
  return {
    top_k: Math.min(requested.top_k ?? 10, MAX_SEARCH_LIMIT),
    rrf_k: requested.rrf_k ?? DEFAULT_RETRIEVAL_PROFILE.rrf_k,
    rerank: requested.rerank ?? DEFAULT_RETRIEVAL_PROFILE.rerank,
    rerank_candidates: requested.rerank_candidates ?? DEFAULT_RETRIEVAL_PROFILE.rerank_candidates,
    score_threshold: requested.score_threshold ?? DEFAULT_RETRIEVAL_PROFILE.score_threshold,
  };
}

/** The retrieval profile a run searches with: the default one, overridden by the run's settings. */
export function benchmarkProfile(retrieval: BenchmarkRetrievalSettings): RetrievalProfile {
  return {
    ...DEFAULT_RETRIEVAL_PROFILE,
    rrf_k: retrieval.rrf_k,
    rerank_candidates: retrieval.rerank_candidates,
    score_threshold: retrieval.score_threshold,
    context_top_k: retrieval.top_k,
    // Recall at least what is ranked, or top_k above the default recall would be cut short.
    fts_recall: Math.max(DEFAULT_RETRIEVAL_PROFILE.fts_recall, retrieval.top_k),
    vector_recall: Math.max(DEFAULT_RETRIEVAL_PROFILE.vector_recall, retrieval.top_k),
  };
}

/** The embedding model a request names; unnamed parts match anything. */
export interface RequestedEmbedding {
  model_id: string;
  model_version?: string;
  dimension?: number;
}

/** True when the index's model is not the one the request asks for. */
export function embeddingDiffers(wanted: RequestedEmbedding, info: EmbeddingModelInfo): boolean {
  return (
    wanted.model_id !== info.model_id ||
    (wanted.model_version !== undefined && wanted.model_version !== info.model_version) ||
    (wanted.dimension !== undefined && wanted.dimension !== info.dimension)
  );
}

/** Same vectors: id, version, dimension and normalisation all equal. */
export function sameModel(
  a: Pick<EmbeddingModelInfo, 'model_id' | 'model_version' | 'dimension'> & { normalization: string },
  b: Pick<EmbeddingModelInfo, 'model_id' | 'model_version' | 'dimension'> & { normalization: string },
): boolean {
  return (
    a.model_id === b.model_id &&
    a.model_version === b.model_version &&
    a.dimension === b.dimension &&
    a.normalization === b.normalization
  );
}

/**
 * One case's result from its ranked hits: scored against the expected blocks,
 * or the expected notes when the case names no block.
 */
export function ragCaseResult(
  entry: RagCaseDto,
  mode: BenchmarkSearchMode,
  repeat: number,
  hits: ReadonlyArray<{ block_id: string; note_id: string }>,
  latency: number,
): RagCaseResult {
  const ranked = hits.map((hit) => hit.block_id);
  const rankedNotes = hits.map((hit) => hit.note_id);
  const expected = entry.expected_block_ids.length > 0 ? entry.expected_block_ids : entry.expected_note_ids;
  const list = entry.expected_block_ids.length > 0 ? ranked : rankedNotes;
  const index = list.findIndex((id) => expected.includes(id));
  const firstHit = index < 0 ? null : index + 1;
  return {
    kind: 'rag',
    case_id: entry.case_id,
    mode,
    repeat,
    query: entry.query,
    expected_block_ids: [...entry.expected_block_ids],
    expected_note_ids: [...entry.expected_note_ids],
    citation_required: entry.citation_required,
    ranked_block_ids: ranked,
    ranked_note_ids: rankedNotes,
    first_hit_rank: firstHit,
    passed: firstHit !== null,
    failure_reason:
      hits.length === 0 ? 'no results' : firstHit === null ? 'expected block not retrieved' : null,
    latency_ms: Math.round(latency * 100) / 100,
    cited_block_ids: null,
  };
}

/** The §9.7 metrics of each mode the run searched, in the run's mode order. */
export function ragMetricsByMode(
  results: readonly RagCaseResult[],
  modes: readonly BenchmarkSearchMode[],
  topK: number,
  citationSkipped: string | null,
): Partial<Record<BenchmarkSearchMode, RagMetrics>> {
  const byMode: Partial<Record<BenchmarkSearchMode, RagMetrics>> = {};
  for (const mode of modes) {
    byMode[mode] = ragMetrics(
      results.filter((result) => result.mode === mode),
      topK,
      citationSkipped,
    );
  }
  return byMode;
}

/** What a RAG run needs from the outside: its search, a latency clock, and where results go. */
export interface RagRunPorts<Hit extends { block_id: string; note_id: string }> {
  search(query: string, mode: BenchmarkSearchMode, limit: number): Promise<readonly Hit[]>;
  /** Latency clock in milliseconds; only the search is timed. */
  clock(): number;
  signal: AbortSignal;
  /**
   * Asks the answer model about a case that requires a citation, with the
   * mode's hits as its sources; absent when no answer model was chosen.
   */
  answer?(entry: RagCaseDto, hits: readonly Hit[]): Promise<CitationOutcome>;
  /** Called after each case, in case order (whatever finished first), with how many of `total` are done. */
  onResult(result: RagCaseResult, done: number, total: number): Promise<void>;
}

export interface RagRunPlan {
  modes: readonly BenchmarkSearchMode[];
  repeat: number;
  topK: number;
  /** Cases in flight at once (1 when absent); results still come in case order. */
  concurrency?: number;
}

/**
 * Every case in every mode and repeat (mode by mode), up to `concurrency` at
 * a time, stopping at the signal or the first failure. Only the search is
 * timed: an answer's time is the model's, not retrieval's.
 */
export async function runRagCases<Hit extends { block_id: string; note_id: string }>(
  cases: readonly RagCaseDto[],
  plan: RagRunPlan,
  ports: RagRunPorts<Hit>,
): Promise<RagCaseResult[]> {
  const work = plan.modes.flatMap((mode) =>
    Array.from({ length: plan.repeat }, (_, index) => index + 1).flatMap((round) =>
      cases.map((entry) => ({ mode, round, entry })),
    ),
  );
  let done = 0;
  return runInOrder(work, {
    concurrency: plan.concurrency ?? 1,
    signal: ports.signal,
    run: async ({ mode, round, entry }, _index, signal) => {
      signal.throwIfAborted();
      const started = ports.clock();
      const hits = await ports.search(entry.query, mode, plan.topK);
      const searched = ragCaseResult(entry, mode, round, hits, ports.clock() - started);
      return ports.answer && entry.citation_required
        ? withCitation(searched, await ports.answer(entry, hits))
        : searched;
    },
    onResult: async (result) => {
      done += 1;
      await ports.onResult(result, done, work.length);
    },
  });
}
