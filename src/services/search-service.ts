import {
  AppError,
  isAbortError,
  parseInput,
  rebuildIndexSchema,
  searchInputSchema,
  type ErrorCode,
  type IndexStatusDto,
  type JobDto,
  type RebuildIndexInput,
  type SearchHitDto,
  type SearchInput,
  type SearchMode,
  type SearchResultDto,
} from '../contracts';
import type { SearchGroupDto } from '../contracts/search';
import { MAX_SEARCH_LIMIT, MAX_SEARCH_QUERY_LENGTH, SEARCH_WINDOW } from '../contracts/search-schemas';
import type { NotesRepository } from '../db';
import {
  DEFAULT_RETRIEVAL_PROFILE,
  hybridSearch,
  makeSnippet,
  profileForReranker,
  taggedQuery,
  textHighlighter,
  type HybridSearchResult,
  type SearchHit,
  type Reranker,
  type RetrievalProfile,
} from '../retrieval';
import { readableText } from '../core/markdown/readable-text';
import { attachedFootnotes, titleDocumentId } from '../retrieval/index-documents';
import type { IndexView, SearchIndexer } from '../retrieval/search-indexer';
import type { NotesContextProvider, NotesContextSource } from './notes-context';

/** UTF-16 units of block text shown per hit. */
export const SNIPPET_LENGTH = 160;

/**
 * The codes that mean "vectors cannot answer this query". With `fallback: 'fts'`
 * the full-text index answers instead and the code is returned as
 * `fallback_reason`; without it the caller gets the error (§9.9). A fallback
 * query reads only the full-text index, so old and new vectors never meet.
 */
const FALLBACK_CODES: ReadonlySet<ErrorCode> = new Set([
  'INDEX_MODEL_MISMATCH',
  'VECTOR_INDEX_REBUILD_REQUIRED',
  'EMBEDDING_MODEL_UNAVAILABLE',
]);

/** Search over the notes and the index status and rebuild of §9.9. */
export class SearchService implements NotesContextProvider {
  readonly #notes: NotesRepository;
  readonly #indexer: SearchIndexer;
  readonly #profile: RetrievalProfile;

  readonly #reranker: (() => Reranker | undefined | Promise<Reranker | undefined>) | undefined;
  /** The search-as-you-type request in progress; the next one aborts it. */
  #typeahead: AbortController | null = null;

  /**
   * `reranker`: the cross-encoder in use, if one is configured (asked per
   * query, since the user can turn it on and off). With one, every query runs
   * with the profile's `rerank` on (`profileForReranker`) and the reranker
   * reorders the first `rerank_candidates` fused candidates; without one, off.
   */
  constructor(
    notes: NotesRepository,
    indexer: SearchIndexer,
    profile: RetrievalProfile = DEFAULT_RETRIEVAL_PROFILE,
    options: { reranker?: () => Reranker | undefined | Promise<Reranker | undefined> } = {},
  ) {
    this.#notes = notes;
    this.#indexer = indexer;
    this.#profile = profile;
    this.#reranker = options.reranker;
  }

  search(input: SearchInput): Promise<SearchResultDto> {
    return this.#search(input, { partial: false });
  }

  /**
   * Search as you type. Each call supersedes the one before: that one resolves
   * null (its embedding and reranking are aborted, its blocks not read), so a
   * burst of keys never queues obsolete searches in the worker. While the
   * stored index is still loading after a start, a full-text search answers
   * from the notes read so far with `index_loading: true` rather than waiting
   * for all of them; the caller searches again when `loaded()` resolves.
   */
  async typeahead(input: SearchInput): Promise<SearchResultDto | null> {
    this.#typeahead?.abort();
    const controller = new AbortController();
    this.#typeahead = controller;
    try {
      return await this.#search(input, { partial: true, signal: controller.signal });
    } catch (error) {
      if (controller.signal.aborted) return null;
      throw error;
    } finally {
      if (this.#typeahead === controller) this.#typeahead = null;
    }
  }

  /** Resolves when the stored indexes have loaded (or a first build has started). */
  loaded(): Promise<void> {
    return this.#indexer.start();
  }

  async #search(
    input: SearchInput,
    options: { partial: boolean; signal?: AbortSignal },
  ): Promise<SearchResultDto> {
    const started = performance.now();
    const { signal } = options;
    const request = parseInput(searchInputSchema, input, 'This search is not valid.');
    // Only full text can answer from a part of the notes; vectors load last.
    const view = await this.#indexer.view({ partial: options.partial && request.mode === 'fts' });
    signal?.throwIfAborted();
    const configured = await this.#reranker?.();
    signal?.throwIfAborted();
    // A reranker that fails (its cached files gone, the worker out of memory)
    // must not take search down with it: the hits keep the fused order and the
    // result says why they were not reranked.
    let rerankError: ErrorCode | null = null;
    const reranker = configured
      ? failSoft(configured, (error) => {
          rerankError = error instanceof AppError ? error.code : 'EMBEDDING_MODEL_UNAVAILABLE';
          console.warn('reranking failed; results keep the fused order', error);
        })
      : undefined;
    let modeUsed: SearchMode = request.mode;
    let fallbackReason: ErrorCode | null = null;
    let result: HybridSearchResult;
    try {
      result = await this.#query(view, reranker, request.query, request.mode, request, signal);
    } catch (error) {
      if (
        signal?.aborted ||
        request.fallback !== 'fts' ||
        request.mode === 'fts' ||
        !(error instanceof AppError) ||
        !FALLBACK_CODES.has(error.code)
      ) {
        throw error;
      }
      modeUsed = 'fts';
      fallbackReason = error.code;
      result = await this.#query(view, reranker, request.query, 'fts', request, signal);
    }
    const paged = pageOf(result.hits, request, this.#windowed(request));
    const shown = await this.#hits(view, paged.hits, request);
    signal?.throwIfAborted();
    const hits = shown.map((hit) => (rerankError === null ? hit : { ...hit, rerank_score: null }));
    return {
      query: request.query,
      mode: request.mode,
      mode_used: modeUsed,
      fallback_reason: fallbackReason,
      profile_id: result.profile_id,
      profile_version: result.profile_version,
      reranked_by: result.reranked && reranker && rerankError === null ? reranker.info.model_id : null,
      rerank_error: rerankError,
      hits,
      groups: request.group_by === 'note' ? groupsOf(hits) : [],
      total_hits: paged.total_hits,
      total_notes: paged.total_notes,
      total_capped: paged.total_capped,
      offset: request.offset,
      index_loading: view.loading,
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  /**
   * The profile's `context_top_k` blocks for a chat message, with their full
   * text ("Ask your notes"). Hybrid when the vectors can answer, else full-text.
   */
  async contextSources(query: string): Promise<NotesContextSource[]> {
    // Full text only for now: with hash-v1 vectors hybrid ranks worse (hit@1
    // 0.878 vs 0.928 on the test corpus) and always returns some block, so an
    // unrelated question would get sources. Revisit when a real embedder is wired.
    const result = await this.search({
      query: query.slice(0, MAX_SEARCH_QUERY_LENGTH),
      mode: 'fts',
      limit: Math.min(this.#profile.context_top_k, MAX_SEARCH_LIMIT),
    });
    const view = await this.#indexer.view();
    return result.hits.map((hit) => ({
      note_id: hit.note_id,
      block_id: hit.block_id,
      title: hit.title,
      snippet: hit.snippet,
      start_line: hit.start_line,
      // The indexed text: the block's heading path, then its text (see searchedText).
      text: view.fullText.get(hit.block_id)?.text ?? hit.snippet,
    }));
  }

  status(): Promise<IndexStatusDto> {
    return this.#indexer.status();
  }

  /** A cancellable job (cancel it with `jobs.cancel`); the old indexes answer until it completes. */
  async rebuild(input: RebuildIndexInput = {}): Promise<JobDto> {
    const { scope } = parseInput(rebuildIndexSchema, input, 'This rebuild request is not valid.');
    return this.#indexer.rebuild(scope);
  }

  /** A grouped or paged search ranks SEARCH_WINDOW blocks, so later pages and the total exist. */
  #windowed(request: { group_by: string; offset: number }): boolean {
    return request.group_by === 'note' || request.offset > 0;
  }

  #query(
    view: IndexView,
    reranker: Reranker | undefined,
    query: string,
    mode: SearchMode,
    filters: {
      folder?: string | undefined;
      tags: string[];
      limit: number;
      prefix: boolean;
      group_by: string;
      offset: number;
    },
    signal?: AbortSignal,
  ): Promise<HybridSearchResult> {
    const profile = profileForReranker(this.#profile, reranker !== undefined);
    const windowed = this.#windowed(filters);
    return hybridSearch({
      ...(reranker ? { reranker } : {}),
      ...(signal ? { signal } : {}),
      query,
      mode,
      // Deeper recall for the pages after the first; the fused order of the
      // first page's blocks stays the profile's (RRF ranks only gain entries).
      profile: windowed
        ? {
            ...profile,
            fts_recall: Math.max(profile.fts_recall, SEARCH_WINDOW),
            vector_recall: Math.max(profile.vector_recall, SEARCH_WINDOW),
          }
        : profile,
      fullText: view.fullText,
      ...(view.vectors ? { vectors: view.vectors } : {}),
      embedder: view.embedder,
      filter: { ...(filters.folder !== undefined ? { folder: filters.folder } : {}), tags: filters.tags },
      limit: windowed ? SEARCH_WINDOW : filters.limit,
      prefix: filters.prefix,
      // A grouped search ranks SEARCH_WINDOW blocks and shows a page of them: only those are marked (#hits).
      highlights: false,
    });
  }

  /**
   * Hits with what the result list shows. Block positions come from the blocks
   * table (the preview scrolls by line); a block that no longer exists (its
   * note was edited a moment ago) is left out rather than opened at a wrong place.
   */
  async #hits(
    view: IndexView,
    hits: readonly SearchHit[],
    request: { query: string; prefix: boolean },
  ): Promise<SearchHitDto[]> {
    const blocks = await this.#notes.blocksById(hits.map((hit) => hit.block_id));
    // Tag words (`#os`) chose the notes; only the words searched as text are marked.
    const highlight = textHighlighter(taggedQuery(request.query).text, { prefix: request.prefix });
    return hits.flatMap((hit, index): SearchHitDto[] => {
      const document = view.fullText.get(hit.block_id);
      // A title-only note's one document points at the top of the note.
      const block =
        blocks[index] ??
        (hit.block_id === titleDocumentId(hit.note_id)
          ? { type: 'title', start_line: 0, end_line: 0 }
          : undefined);
      if (!block || !document) return [];
      // The index holds the searched text, heading path first; a reader sees the block's own
      // (no longer than what was indexed: a huge block is indexed only in part).
      const own = 'text' in block ? block.text.slice(0, document.text.length) : document.text;
      // A block that cites footnotes was found with them: they are shown after it, as on a page.
      const footnotes = attachedFootnotes(document.text, block.type);
      // Marked on the text a reader sees: the ranges of the typed Markdown would not fit it.
      const text = readableText(footnotes === '' ? own : `${own}\n\n${footnotes}`);
      const snippet = makeSnippet(text, highlight(text), SNIPPET_LENGTH);
      const title = document.title ?? '';
      return [
        {
          note_id: hit.note_id,
          block_id: hit.block_id,
          title,
          title_highlights: title === '' ? [] : highlight(title),
          folder: document.folder ?? '',
          tags: [...(document.tags ?? [])],
          block_type: block.type,
          start_line: block.start_line,
          end_line: block.end_line,
          snippet: snippet.text,
          highlights: snippet.highlights,
          snippet_cut_start: snippet.cut_start,
          snippet_cut_end: snippet.cut_end,
          score: hit.score,
          fts_rank: hit.fts_rank,
          vector_rank: hit.vector_rank,
          rerank_score: hit.rerank_score,
        },
      ];
    });
  }
}

/**
 * The page of ranked hits the request asks for, and the totals. Grouped, the
 * notes are ordered by their best block and a page holds `limit` notes with
 * all their blocks; otherwise a page holds `limit` blocks.
 */
function pageOf(
  ranked: readonly SearchHit[],
  request: { group_by: string; offset: number; limit: number },
  windowed: boolean,
): { hits: SearchHit[]; total_hits: number; total_notes: number; total_capped: boolean } {
  const byNote = new Map<string, SearchHit[]>();
  for (const hit of ranked) {
    const group = byNote.get(hit.note_id);
    if (group) group.push(hit);
    else byNote.set(hit.note_id, [hit]);
  }
  const totals = {
    total_hits: ranked.length,
    total_notes: byNote.size,
    total_capped: ranked.length >= (windowed ? SEARCH_WINDOW : request.limit),
  };
  const end = request.offset + request.limit;
  const hits =
    request.group_by === 'note'
      ? [...byNote.values()].slice(request.offset, end).flat()
      : ranked.slice(request.offset, end);
  return { hits, ...totals };
}

/** Consecutive hits of one note as its group (pageOf keeps a note's hits together). */
function groupsOf(hits: readonly SearchHitDto[]): SearchGroupDto[] {
  const groups: SearchGroupDto[] = [];
  for (const hit of hits) {
    const last = groups.at(-1);
    if (last?.note_id === hit.note_id) last.hits.push(hit);
    else
      groups.push({
        note_id: hit.note_id,
        title: hit.title,
        folder: hit.folder,
        tags: [...hit.tags],
        hits: [hit],
      });
  }
  for (const group of groups) group.hits = inReadingOrderWhenTied(group.hits);
  return groups;
}

/**
 * Blocks that score the same keep the note's order. A match in the title alone
 * scores every block of the note the same, and the index breaks ties by block
 * id, which would show an arbitrary block first instead of the note's beginning.
 */
function inReadingOrderWhenTied(hits: readonly SearchHitDto[]): SearchHitDto[] {
  const ordered: SearchHitDto[] = [];
  let run: SearchHitDto[] = [];
  const flush = (): void => {
    ordered.push(...run.sort((a, b) => a.start_line - b.start_line));
    run = [];
  };
  for (const hit of hits) {
    const first = run[0];
    if (first && (first.score !== hit.score || first.rerank_score !== hit.rerank_score)) flush();
    run.push(hit);
  }
  flush();
  return ordered;
}

/**
 * The reranker, except that a failure is reported to `onError` and answered
 * with scores that keep the candidates in the order they came (descending by
 * position), so the search still returns its fused ranking.
 */
function failSoft(reranker: Reranker, onError: (error: unknown) => void): Reranker {
  return {
    info: reranker.info,
    score: async (query, texts, options) => {
      try {
        return await reranker.score(query, texts, options);
      } catch (error) {
        if (isAbortError(error)) throw error;
        onError(error);
        return texts.map((_, index) => -index);
      }
    },
  };
}
