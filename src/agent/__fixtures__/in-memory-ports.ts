import {
  AppError,
  toIsoUtc,
  type SearchHitDto,
  type SearchMode,
  type SearchResultDto,
} from '../../contracts';
import { deriveBlocks, type DerivedBlock } from '../../core/blocks';
import { newId, systemClock, type Clock } from '../../core/ids';
import { memoryTerms } from '../memory';
import type { NoteListItem, NoteRecord, NoteSearchHit, NotesPort, SearchPort } from '../tools/ports';

interface StoredNote {
  record: Omit<NoteRecord, 'blocks'>;
  blocks: DerivedBlock[];
}

function termScore(query: Set<string>, text: string): number {
  if (query.size === 0) return 0;
  const terms = memoryTerms(text);
  let shared = 0;
  for (const term of query) if (terms.has(term)) shared += 1;
  return shared / query.size;
}

function snippetOf(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** Notes in a Map with real block ids (core `deriveBlocks`) and versions: the tools' test double. */
export class InMemoryNotes implements NotesPort {
  readonly #notes = new Map<string, StoredNote>();
  readonly #clock: Clock;
  readonly #newId: (prefix: string) => string;

  constructor(options: { clock?: Clock; newId?: (prefix: string) => string } = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#newId = options.newId ?? newId;
  }

  #record(note: StoredNote): NoteRecord {
    return {
      ...note.record,
      tags: [...note.record.tags],
      blocks: note.blocks.map(({ block_id, type, text, start_line, end_line }) => ({
        block_id,
        type,
        text,
        start_line,
        end_line,
      })),
    };
  }

  async search(query: string, options: { limit: number }): Promise<NoteSearchHit[]> {
    const terms = memoryTerms(query);
    return [...this.#notes.values()]
      .map((note) => {
        const best = note.blocks
          .map((block) => ({ block, score: termScore(terms, block.text) }))
          .sort((a, b) => b.score - a.score)[0];
        const score = Math.max(termScore(terms, note.record.title) * 1.5, best?.score ?? 0);
        return {
          note_id: note.record.note_id,
          title: note.record.title,
          snippet: snippetOf(best?.block.text ?? note.record.body),
          score,
          ...(best && best.score > 0 && { block_id: best.block.block_id }),
        };
      })
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, options.limit);
  }

  async read(noteId: string): Promise<NoteRecord | undefined> {
    const note = this.#notes.get(noteId);
    return note && this.#record(note);
  }

  async list(options: {
    folder?: string;
    tag?: string;
    limit: number;
    offset: number;
  }): Promise<{ items: NoteListItem[]; total: number }> {
    const matching = [...this.#notes.values()]
      .map((note) => note.record)
      .filter((note) => options.folder === undefined || note.folder === options.folder)
      .filter((note) => options.tag === undefined || note.tags.includes(options.tag))
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.note_id.localeCompare(b.note_id));
    return {
      total: matching.length,
      items: matching.slice(options.offset, options.offset + options.limit).map((note) => ({
        note_id: note.note_id,
        title: note.title,
        folder: note.folder,
        tags: [...note.tags],
        updated_at: note.updated_at,
        excerpt: snippetOf(note.body),
      })),
    };
  }

  async create(input: { title: string; body: string; folder: string; tags: string[] }): Promise<NoteRecord> {
    const note: StoredNote = {
      record: {
        note_id: this.#newId('note'),
        title: input.title,
        folder: input.folder,
        tags: [...input.tags],
        body: input.body,
        version: 1,
        updated_at: toIsoUtc(this.#clock()),
      },
      blocks: deriveBlocks([], input.body, () => this.#newId('block')),
    };
    this.#notes.set(note.record.note_id, note);
    return this.#record(note);
  }

  async update(input: { note_id: string; body: string; expected_version: number }): Promise<NoteRecord> {
    const note = this.#at(input.note_id, input.expected_version);
    note.blocks = deriveBlocks(note.blocks, input.body, () => this.#newId('block'));
    note.record = {
      ...note.record,
      body: input.body,
      version: note.record.version + 1,
      updated_at: toIsoUtc(this.#clock()),
    };
    return this.#record(note);
  }

  async organise(input: {
    note_id: string;
    folder?: string;
    tags?: string[];
    expected_version: number;
  }): Promise<NoteRecord> {
    const note = this.#at(input.note_id, input.expected_version);
    note.record = {
      ...note.record,
      ...(input.folder !== undefined && { folder: input.folder }),
      ...(input.tags !== undefined && { tags: [...input.tags] }),
      version: note.record.version + 1,
      updated_at: toIsoUtc(this.#clock()),
    };
    return this.#record(note);
  }

  /** The stored note, when it is still at `expectedVersion` (the app's optimistic check). */
  #at(noteId: string, expectedVersion: number): StoredNote {
    const note = this.#notes.get(noteId);
    if (!note) throw new AppError('NOTE_NOT_FOUND', 'The note was not found.', { note_id: noteId });
    if (note.record.version !== expectedVersion) {
      throw new AppError('NOTE_VERSION_CONFLICT', 'The note was changed meanwhile.', {
        note_id: noteId,
        version: note.record.version,
      });
    }
    return note;
  }
}

/** Block-level term matching over `InMemoryNotes`, answering in the search service's DTO. */
export class InMemorySearch implements SearchPort {
  readonly #notes: InMemoryNotes;
  /** Every query asked, for tests. */
  readonly queries: string[] = [];

  constructor(notes: InMemoryNotes) {
    this.#notes = notes;
  }

  async search(input: { query: string; mode: SearchMode; limit: number }): Promise<SearchResultDto> {
    this.queries.push(input.query);
    const terms = memoryTerms(input.query);
    const { items } = await this.#notes.list({ limit: 10_000, offset: 0 });
    const hits: SearchHitDto[] = [];
    for (const item of items) {
      const note = await this.#notes.read(item.note_id);
      for (const block of note?.blocks ?? []) {
        const score = termScore(terms, block.text);
        if (!note || score === 0) continue;
        hits.push({
          note_id: note.note_id,
          block_id: block.block_id,
          title: note.title,
          folder: note.folder,
          tags: note.tags,
          block_type: block.type,
          start_line: block.start_line,
          end_line: block.end_line,
          snippet: snippetOf(block.text),
          highlights: [],
          snippet_cut_start: false,
          snippet_cut_end: block.text.length > 160,
          score,
          fts_rank: null,
          vector_rank: null,
          rerank_score: null,
        });
      }
    }
    hits.sort((a, b) => b.score - a.score || a.note_id.localeCompare(b.note_id));
    return {
      query: input.query,
      mode: input.mode,
      mode_used: input.mode,
      fallback_reason: null,
      profile_id: 'in-memory',
      profile_version: 1,
      reranked_by: null,
      rerank_error: null,
      hits: hits.slice(0, input.limit),
      duration_ms: 0,
    };
  }
}
