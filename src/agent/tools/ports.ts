import type { SearchMode, SearchResultDto } from '../../contracts';
import type { Clock } from '../../core/ids';
import type { MemoryStore } from '../memory';

/**
 * What the built-in tools need from the rest of the app. The services
 * implement these over the repositories and the search index; tests use the
 * in-memory versions in `../__fixtures__/in-memory-ports.ts`.
 */

export interface NoteBlockRef {
  block_id: string;
  type: string;
  text: string;
  /** 0-based, inclusive. */
  start_line: number;
  end_line: number;
}

export interface NoteRecord {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  body: string;
  version: number;
  updated_at: string;
  /** The note's blocks with their stable ids (what citations and edits point at). */
  blocks: NoteBlockRef[];
}

export interface NoteListItem {
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  updated_at: string;
  excerpt: string;
}

export interface NoteSearchHit {
  note_id: string;
  title: string;
  snippet: string;
  score: number;
  block_id?: string;
}

export interface NotesPort {
  /** Full-text search over titles and bodies. */
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<NoteSearchHit[]>;
  read(noteId: string, signal?: AbortSignal): Promise<NoteRecord | undefined>;
  list(
    options: { folder?: string; tag?: string; limit: number; offset: number },
    signal?: AbortSignal,
  ): Promise<{ items: NoteListItem[]; total: number }>;
  /** `change` says which run and tool created it, for the note's history (the creation can be undone). */
  create(
    input: { title: string; body: string; folder: string; tags: string[] },
    change?: NoteChange,
  ): Promise<NoteRecord>;
  /**
   * Replaces the body. `expected_version` guards against a concurrent edit
   * (NOTE_VERSION_CONFLICT); block edits (append / replace a block) are
   * computed by the tool, so every implementation gets them for free.
   */
  update(
    input: { note_id: string; body: string; expected_version: number },
    change?: NoteChange,
  ): Promise<NoteRecord>;
  /**
   * Sets the folder and/or the whole tag list, leaving title and body alone
   * (`notes.organise`); guarded by `expected_version` like `update`.
   */
  organise(
    input: { note_id: string; folder?: string; tags?: string[]; expected_version: number },
    change?: NoteChange,
  ): Promise<NoteRecord>;
}

/** Who changes a note: the app keeps the state before an agent's change so it can be undone. */
export interface NoteChange {
  run_id: string;
  tool: string;
}

/** `rag.search`: the retrieval service (hybrid by default). */
export interface SearchPort {
  search(
    input: { query: string; mode: SearchMode; limit: number },
    signal?: AbortSignal,
  ): Promise<SearchResultDto>;
}

export interface BuiltInToolPorts {
  notes: NotesPort;
  search: SearchPort;
  memory: MemoryStore;
  clock: Clock;
  newId?: (prefix: string) => string;
}
