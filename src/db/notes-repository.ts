import { deriveBlocks, type DerivedBlock } from '../core/blocks';
import { newId } from '../core/ids';
import type { BlockDto, FolderDto, NoteDto, NoteSummaryDto, TagDto } from '../contracts';
import { Dexie, type NotesAgentDatabase } from './database';
import type { BlockRow, NoteRow } from './schema';

export interface NoteDraft {
  title: string;
  folder: string;
  body: string;
  tags: string[];
  created_at?: string;
  updated_at?: string;
}

export interface NotePatch {
  title?: string;
  folder?: string;
  body?: string;
  tags?: string[];
}

export interface NoteQuery {
  trashed: boolean;
  folder?: string;
  recursive: boolean;
  tag?: string;
  title_query?: string;
  limit: number;
  offset: number;
}

const EXCERPT_LENGTH = 160;

export function toNoteDto(row: NoteRow): NoteDto {
  const { trashed: _trashed, ...dto } = row;
  return { ...dto, tags: [...dto.tags] };
}

function toSummary(row: NoteRow): NoteSummaryDto {
  const { body, ...rest } = toNoteDto(row);
  return { ...rest, excerpt: excerptOf(body) };
}

function excerptOf(body: string): string {
  const text = body
    .replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '')
    .replace(/[#>*_`~[\]()|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}

function toBlockRow(noteId: string, block: DerivedBlock): BlockRow {
  return { ...block, note_id: noteId };
}

function inFolder(rowFolder: string, folder: string, recursive: boolean): boolean {
  if (folder === '') return recursive || rowFolder === '';
  return rowFolder === folder || (recursive && rowFolder.startsWith(`${folder}/`));
}

/**
 * Notes and their blocks. A note's blocks are re-derived in the same
 * transaction as every body change, keeping the ids of unchanged blocks so
 * citations survive edits.
 */
export class NotesRepository {
  readonly #db: NotesAgentDatabase;
  readonly #now: () => string;

  constructor(db: NotesAgentDatabase, now: () => string = () => new Date().toISOString()) {
    this.#db = db;
    this.#now = now;
  }

  async create(draft: NoteDraft): Promise<NoteDto> {
    const [note] = await this.createMany([draft]);
    return note!;
  }

  /** One transaction for the whole batch: an import either lands a batch or nothing of it. */
  async createMany(drafts: readonly NoteDraft[]): Promise<NoteDto[]> {
    const now = this.#now();
    const rows: NoteRow[] = drafts.map((draft) => ({
      note_id: newId('note'),
      title: draft.title,
      folder: draft.folder,
      body: draft.body,
      tags: [...draft.tags],
      version: 1,
      created_at: draft.created_at ?? now,
      updated_at: draft.updated_at ?? draft.created_at ?? now,
      deleted_at: null,
      trashed: 0,
    }));
    const blocks = rows.flatMap((row) =>
      deriveBlocks([], row.body, () => newId('block')).map((block) => toBlockRow(row.note_id, block)),
    );
    await this.#db.transaction('rw', this.#db.notes, this.#db.blocks, async () => {
      await this.#db.notes.bulkAdd(rows);
      await this.#db.blocks.bulkAdd(blocks);
    });
    return rows.map(toNoteDto);
  }

  async get(noteId: string): Promise<NoteDto | undefined> {
    const row = await this.#db.notes.get(noteId);
    return row && toNoteDto(row);
  }

  /**
   * Applies a patch when `check` accepts the current row; returns undefined
   * for a missing note. `check` runs inside the transaction so version checks
   * cannot race another write.
   */
  async update(
    noteId: string,
    patch: NotePatch,
    check?: (current: NoteDto) => void,
  ): Promise<NoteDto | undefined> {
    return this.#db.transaction('rw', this.#db.notes, this.#db.blocks, async () => {
      const row = await this.#db.notes.get(noteId);
      if (!row) return undefined;
      check?.(toNoteDto(row));
      const next: NoteRow = {
        ...row,
        ...definedOnly(patch),
        version: row.version + 1,
        updated_at: this.#now(),
      };
      await this.#db.notes.put(next);
      if (patch.body !== undefined && patch.body !== row.body) await this.#replaceBlocks(noteId, patch.body);
      return toNoteDto(next);
    });
  }

  async #replaceBlocks(noteId: string, body: string): Promise<void> {
    const previous = await this.#db.blocks.where('note_id').equals(noteId).toArray();
    const next = deriveBlocks(previous, body, () => newId('block')).map((block) => toBlockRow(noteId, block));
    const keep = new Set(next.map((block) => block.block_id));
    await this.#db.blocks.bulkDelete(
      previous.filter((block) => !keep.has(block.block_id)).map((b) => b.block_id),
    );
    await this.#db.blocks.bulkPut(next);
  }

  async setTrashed(
    noteId: string,
    trashed: boolean,
    check?: (current: NoteDto) => void,
  ): Promise<NoteDto | undefined> {
    return this.#db.transaction('rw', this.#db.notes, async () => {
      const row = await this.#db.notes.get(noteId);
      if (!row) return undefined;
      check?.(toNoteDto(row));
      const now = this.#now();
      const next: NoteRow = {
        ...row,
        trashed: trashed ? 1 : 0,
        deleted_at: trashed ? now : null,
        updated_at: now,
        version: row.version + 1,
      };
      await this.#db.notes.put(next);
      return toNoteDto(next);
    });
  }

  /** Deletes the note and its blocks for good; returns false when it did not exist. */
  async purge(noteId: string, check?: (current: NoteDto) => void): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.notes, this.#db.blocks, async () => {
      const row = await this.#db.notes.get(noteId);
      if (!row) return false;
      check?.(toNoteDto(row));
      await this.#db.blocks.where('note_id').equals(noteId).delete();
      await this.#db.notes.delete(noteId);
      return true;
    });
  }

  async deleteMany(noteIds: readonly string[]): Promise<void> {
    await this.#db.transaction('rw', this.#db.notes, this.#db.blocks, async () => {
      await this.#db.blocks
        .where('note_id')
        .anyOf([...noteIds])
        .delete();
      await this.#db.notes.bulkDelete([...noteIds]);
    });
  }

  async list(query: NoteQuery): Promise<{ items: NoteSummaryDto[]; total: number }> {
    const flag = query.trashed ? 1 : 0;
    const titleQuery = query.title_query?.trim().toLocaleLowerCase();
    const collection = this.#db.notes
      .where('[trashed+updated_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .reverse()
      .filter(
        (row) =>
          (query.folder === undefined || inFolder(row.folder, query.folder, query.recursive)) &&
          (query.tag === undefined || row.tags.includes(query.tag)) &&
          (!titleQuery || row.title.toLocaleLowerCase().includes(titleQuery)),
      );
    const rows = await collection.toArray();
    return { items: rows.slice(query.offset, query.offset + query.limit).map(toSummary), total: rows.length };
  }

  async all(options: { trashed: boolean }): Promise<NoteDto[]> {
    const flag = options.trashed ? 1 : 0;
    const rows = await this.#db.notes
      .where('[trashed+updated_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .toArray();
    return rows.map(toNoteDto);
  }

  /** Every folder that holds a live note, plus its ancestors, with recursive counts. */
  async folders(): Promise<FolderDto[]> {
    const counts = new Map<string, number>();
    await this.#db.notes
      .where('[trashed+updated_at]')
      .between([0, Dexie.minKey], [0, Dexie.maxKey])
      .each((row) => {
        const parts = row.folder ? row.folder.split('/') : [];
        for (let depth = 1; depth <= parts.length; depth++) {
          const path = parts.slice(0, depth).join('/');
          counts.set(path, (counts.get(path) ?? 0) + 1);
        }
      });
    return [...counts]
      .map(([path, note_count]) => ({ path, note_count }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  async tags(): Promise<TagDto[]> {
    const counts = new Map<string, number>();
    await this.#db.notes
      .where('[trashed+updated_at]')
      .between([0, Dexie.minKey], [0, Dexie.maxKey])
      .each((row) => row.tags.forEach((tag) => counts.set(tag, (counts.get(tag) ?? 0) + 1)));
    return [...counts]
      .map(([tag, note_count]) => ({ tag, note_count }))
      .sort((a, b) => b.note_count - a.note_count || a.tag.localeCompare(b.tag));
  }

  async blocks(noteId: string): Promise<BlockDto[]> {
    const rows = await this.#db.blocks
      .where('[note_id+position]')
      .between([noteId, Dexie.minKey], [noteId, Dexie.maxKey])
      .toArray();
    return rows.map(({ level: _level, ...block }) => block);
  }
}

function definedOnly(patch: NotePatch): NotePatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as NotePatch;
}
