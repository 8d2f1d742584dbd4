import { isAppError, type NoteDto, type SearchMode, type SearchResultDto } from '../contracts';
import type { NoteChange, NoteListItem, NoteRecord, NoteSearchHit, NotesPort, SearchPort } from '../agent';
import type { SecretsVault } from '../db';
import type { NotesService } from './notes-service';
import type { SearchService } from './search-service';

/** Full-text hits fetched per note asked for: several blocks of one note collapse into one hit. */
const HITS_PER_NOTE = 3;
const MAX_SEARCH_HITS = 100;

function excerptOf(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * The agent's notes tools over the app's own services: every write goes through
 * NotesService (validation, version check, trash rule, index update), so an
 * agent edit is the same as a user edit; block ids are kept by the repository.
 */
export class AppNotesPort implements NotesPort {
  readonly #notes: NotesService;
  readonly #search: SearchService;

  constructor(notes: NotesService, search: SearchService) {
    this.#notes = notes;
    this.#search = search;
  }

  async search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<NoteSearchHit[]> {
    options.signal?.throwIfAborted();
    const answer = await this.#search.search({
      query,
      mode: 'fts',
      limit: Math.min(MAX_SEARCH_HITS, options.limit * HITS_PER_NOTE),
    });
    options.signal?.throwIfAborted();
    const byNote = new Map<string, NoteSearchHit>();
    for (const hit of answer.hits) {
      if (byNote.has(hit.note_id)) continue;
      byNote.set(hit.note_id, {
        note_id: hit.note_id,
        title: hit.title,
        snippet: hit.snippet,
        score: hit.score,
        block_id: hit.block_id,
      });
    }
    return [...byNote.values()].slice(0, options.limit);
  }

  async read(noteId: string, signal?: AbortSignal): Promise<NoteRecord | undefined> {
    signal?.throwIfAborted();
    let note: NoteDto;
    try {
      note = await this.#notes.get(noteId);
    } catch (error) {
      if (isAppError(error) && (error.code === 'NOTE_NOT_FOUND' || error.code === 'VALIDATION_FAILED')) {
        return undefined;
      }
      throw error;
    }
    // A note in the trash is out of the agent's reach, as it is out of the note list.
    if (note.deleted_at !== null) return undefined;
    return this.#record(note);
  }

  async list(
    options: { folder?: string; tag?: string; limit: number; offset: number },
    signal?: AbortSignal,
  ): Promise<{ items: NoteListItem[]; total: number }> {
    signal?.throwIfAborted();
    const page = await this.#notes.list({
      limit: options.limit,
      offset: options.offset,
      ...(options.folder !== undefined && { folder: options.folder }),
      ...(options.tag !== undefined && { tag: options.tag }),
    });
    return {
      total: page.page.total,
      items: page.items.map((note) => ({
        note_id: note.note_id,
        title: note.title,
        folder: note.folder,
        tags: [...note.tags],
        updated_at: note.updated_at,
        excerpt: excerptOf(note.excerpt),
      })),
    };
  }

  /**
   * Created with a version of the blank note marked `creation` (one transaction), so the note
   * view can undo the creation (to the trash) for as long as nothing else changed the note.
   */
  async create(
    input: { title: string; body: string; folder: string; tags: string[] },
    change?: NoteChange,
  ): Promise<NoteRecord> {
    return this.#record(
      await this.#notes.create(input, {
        origin: 'agent',
        run_id: change?.run_id ?? null,
        tool: change?.tool ?? null,
      }),
    );
  }

  /**
   * An agent's change keeps the note as it was in its own version (origin
   * `agent`, with the run and tool), written with the change in one
   * transaction, so the note view can undo it.
   */
  async update(
    input: { note_id: string; body: string; expected_version: number },
    change?: NoteChange,
  ): Promise<NoteRecord> {
    const source = change
      ? { origin: 'agent' as const, run_id: change.run_id, tool: change.tool }
      : { origin: 'agent' as const };
    return this.#record(await this.#notes.update(input, source));
  }

  /**
   * Folder and tags through the same update as a user's move or tag edit; as
   * an agent change it keeps the earlier folder and tags in a version of its
   * own, so the note view can undo it like a text change.
   */
  async organise(
    input: { note_id: string; folder?: string; tags?: string[]; expected_version: number },
    change?: NoteChange,
  ): Promise<NoteRecord> {
    const source = change
      ? { origin: 'agent' as const, run_id: change.run_id, tool: change.tool }
      : { origin: 'agent' as const };
    return this.#record(await this.#notes.update(input, source));
  }

  async #record(note: NoteDto): Promise<NoteRecord> {
    const blocks = await this.#notes.blocks(note.note_id);
    return {
      note_id: note.note_id,
      title: note.title,
      folder: note.folder,
      tags: [...note.tags],
      body: note.body,
      version: note.version,
      updated_at: note.updated_at,
      blocks: blocks.map(({ block_id, type, text, start_line, end_line }) => ({
        block_id,
        type,
        text,
        start_line,
        end_line,
      })),
    };
  }
}

/**
 * `rag.search` over the search service. Hybrid and vector queries fall back to
 * full text when the vectors cannot answer (no model, index being rebuilt), so
 * the agent still gets passages; the fallback reason reaches the model.
 */
export class AppSearchPort implements SearchPort {
  readonly #search: SearchService;

  constructor(search: SearchService) {
    this.#search = search;
  }

  async search(
    input: { query: string; mode: SearchMode; limit: number },
    signal?: AbortSignal,
  ): Promise<SearchResultDto> {
    signal?.throwIfAborted();
    const answer = await this.#search.search({ ...input, fallback: 'fts' });
    signal?.throwIfAborted();
    return answer;
  }
}

/**
 * The values stored in the vault (API keys, plugin secrets), for the trace
 * redactor. A secret that cannot be decrypted is skipped: the pattern layer
 * of the redactor still covers well-known key shapes.
 */
export function vaultSecretValues(vault: SecretsVault): () => Promise<string[]> {
  return async () => {
    const values: string[] = [];
    for (const { name } of await vault.list()) {
      try {
        const value = await vault.reveal(name);
        if (value) values.push(value);
      } catch {
        // Unreadable (key lost): nothing to scrub that the patterns would not.
      }
    }
    return values;
  };
}
