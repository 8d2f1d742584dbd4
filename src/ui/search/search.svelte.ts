import { SvelteSet } from 'svelte/reactivity';
import type { IndexStatusDto, SearchMode, SearchResultDto } from '../../contracts/search';

/** The search box and its results in the note-list column. */
export class SearchState {
  #query = $state('');
  #mode = $state<SearchMode>('fts');
  #result = $state.raw<SearchResultDto | null>(null);
  #loading = $state(false);
  #page = $state(0);
  /** Notes whose other matches are shown. */
  readonly #expanded = new SvelteSet<string>();

  /** A query is typed: the results replace the note list. */
  readonly active: boolean = $derived(this.#query.trim() !== '');

  get query(): string {
    return this.#query;
  }
  get mode(): SearchMode {
    return this.#mode;
  }
  get result(): SearchResultDto | null {
    return this.#result;
  }
  get loading(): boolean {
    return this.#loading;
  }
  /** 0-based page of notes. */
  get page(): number {
    return this.#page;
  }
  isExpanded(noteId: string): boolean {
    return this.#expanded.has(noteId);
  }
  toggleExpanded(noteId: string): void {
    if (!this.#expanded.delete(noteId)) this.#expanded.add(noteId);
  }
  setPage(page: number): void {
    this.#page = page;
    this.#expanded.clear();
  }

  setQuery(query: string): void {
    this.#query = query;
  }
  setMode(mode: SearchMode): void {
    this.#mode = mode;
  }
  setResult(result: SearchResultDto | null): void {
    this.#result = result;
  }
  setLoading(loading: boolean): void {
    this.#loading = loading;
  }

  reset(): void {
    this.#query = '';
    this.#mode = 'fts';
    this.#result = null;
    this.#loading = false;
    this.#page = 0;
    this.#expanded.clear();
  }
}

export const search = new SearchState();

/** The §9.9 index status shown in Settings, and the rebuild job it follows. */
export class IndexStatusState {
  #status = $state.raw<IndexStatusDto | null>(null);
  #rebuildJobId = $state<string | null>(null);

  /** The stored vectors were made by another model: vector and hybrid search need a rebuild. */
  readonly incompatible: boolean = $derived(this.#status?.vector_index?.compatible === false);

  get status(): IndexStatusDto | null {
    return this.#status;
  }
  get rebuildJobId(): string | null {
    return this.#rebuildJobId;
  }

  setStatus(status: IndexStatusDto): void {
    this.#status = status;
  }
  setRebuildJobId(jobId: string | null): void {
    this.#rebuildJobId = jobId;
  }

  reset(): void {
    this.#status = null;
    this.#rebuildJobId = null;
  }
}

export const indexStatus = new IndexStatusState();
