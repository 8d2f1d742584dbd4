import type { BlockDto, NoteDto, NoteSummaryDto } from '../contracts';
import { deriveBlocks } from '../core/blocks';
import type { IndexSource, NotePageOptions, NotePageVisitor, PagedNote } from '../db';
import { DEFAULT_PAGE_ROWS, plannedNotePages } from '../db/note-pages';
import type { BlockRow } from '../db/schema';

/**
 * An in-memory stand-in for the page loops of `NotesRepository`, which
 * counts what a service asked for: pages handed out, the most rows and body
 * characters handed out at once, whether a page was asked for while the
 * previous one's visit was still running, and every whole-notebook read
 * (`all`), which a bounded pass must never make.
 */
export class PagedNotesFake {
  readonly notes = new Map<string, NoteDto>();
  pages = 0;
  peakRows = 0;
  peakChars = 0;
  /** The longest body handed out in full. */
  longestWholeBody = 0;
  /** How often each note was handed out with its whole body. */
  readonly wholeReads = new Map<string, number>();
  wholeNotebookReads = 0;
  /** The most block characters one `indexSources` call handed out for a note. */
  peakSourceChars = 0;
  /** Block rows handed out in all (`indexSources`, `firstBlocks`, `blocksById`). */
  blockRowsRead = 0;
  overlapping = false;
  /** Thrown instead of reading page `failOnPage` (1-based), to test failures mid-pass. */
  failOnPage: number | null = null;
  #visiting = false;
  readonly #blocks = new Map<string, { body: string; blocks: BlockRow[] }>();

  add(note: Partial<NoteDto> & { note_id: string; title: string; body: string }): NoteDto {
    const full: NoteDto = {
      folder: '',
      tags: [],
      version: 1,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      deleted_at: null,
      pinned: false,
      ...note,
    };
    this.notes.set(full.note_id, full);
    return full;
  }

  async all(options: { trashed: boolean }): Promise<NoteDto[]> {
    this.wholeNotebookReads += 1;
    return [...this.notes.values()].filter((note) => (note.deleted_at !== null) === options.trashed);
  }

  async noteIds(options: { trashed: boolean }): Promise<string[]> {
    return [...this.notes.values()]
      .filter((note) => (note.deleted_at !== null) === options.trashed)
      .map((note) => note.note_id);
  }

  async noteIdsByCreation(options: { trashed: boolean }): Promise<string[]> {
    return [...this.notes.values()]
      .filter((note) => (note.deleted_at !== null) === options.trashed)
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.note_id.localeCompare(b.note_id))
      .map((note) => note.note_id);
  }

  async get(noteId: string): Promise<NoteDto | undefined> {
    const note = this.notes.get(noteId);
    if (note) this.#readWhole(note);
    return note;
  }

  async changedSince(): Promise<Array<{ note_id: string; updated_at: string }>> {
    return [];
  }

  async readPaged(
    noteIds: readonly string[],
    options: Pick<NotePageOptions, 'maxBodyChars'> = {},
  ): Promise<Array<PagedNote | undefined>> {
    return noteIds.map((id) => {
      const note = this.notes.get(id);
      if (!note) return undefined;
      const max = options.maxBodyChars;
      if (max !== undefined && note.body.length > max) {
        return {
          ...note,
          body: note.body.slice(0, max),
          body_length: note.body.length,
          body_complete: false,
        };
      }
      this.#readWhole(note);
      return { ...note, body_length: note.body.length, body_complete: true };
    });
  }

  async forEachSummaryPage(
    noteIds: readonly string[],
    visit: NotePageVisitor<NoteSummaryDto>,
    options: Pick<NotePageOptions, 'pageRows' | 'signal'> = {},
  ): Promise<void> {
    const rows = options.pageRows ?? DEFAULT_PAGE_ROWS;
    for (let start = 0; start < noteIds.length; start += rows) {
      options.signal?.throwIfAborted();
      const page = noteIds.slice(start, start + rows).flatMap((id) => {
        const note = this.notes.get(id);
        if (!note) return [];
        const { body, ...rest } = note;
        return [{ ...rest, excerpt: body.slice(0, 20), body_length: body.length }];
      });
      await this.#hand(page, 0, () => visit(page));
    }
  }

  async forEachNotePage(
    noteIds: readonly string[],
    visit: NotePageVisitor<PagedNote>,
    options: NotePageOptions = {},
  ): Promise<void> {
    const sizesOf = async (ids: string[]) =>
      ids.map((id) => {
        const note = this.notes.get(id);
        return note && { note_id: id, body_length: note.body.length };
      });
    for await (const planned of plannedNotePages(noteIds, sizesOf, options)) {
      if (this.failOnPage === this.pages + 1) throw new Error('the disk went away');
      const page = (await this.readPaged(planned, options)).filter(
        (note): note is PagedNote => note !== undefined,
      );
      const chars = page.reduce((sum, note) => sum + note.body.length, 0);
      await this.#hand(page, chars, () => visit(page));
    }
  }

  /**
   * The live notes among `noteIds` with their blocks (cut by the app's block
   * parser), a long body's only up to `maxChars` and the block that crosses
   * it, as the repository reads them. The block characters handed out count
   * towards `peakSourceChars`.
   */
  async indexSources(noteIds: readonly string[], maxChars: number): Promise<IndexSource[]> {
    return noteIds.flatMap((id) => {
      const note = this.notes.get(id);
      if (!note || note.deleted_at !== null) return [];
      const kept: BlockRow[] = [];
      let total = 0;
      for (const block of this.blocksOf(id)) {
        if (total > maxChars) break;
        kept.push(block);
        total += block.text.length;
      }
      this.peakSourceChars = Math.max(this.peakSourceChars, total);
      this.blockRowsRead += kept.length;
      const { body: _body, ...rest } = note;
      return [{ note: rest, blocks: kept }];
    });
  }

  async blocksById(blockIds: readonly string[]): Promise<Array<BlockDto | undefined>> {
    const all = new Map<string, BlockDto>();
    for (const id of this.notes.keys()) for (const block of this.blocksOf(id)) all.set(block.block_id, block);
    const found = blockIds.map((id) => all.get(id));
    this.blockRowsRead += found.filter((block) => block !== undefined).length;
    return found;
  }

  async firstBlocks(noteId: string, limit: number): Promise<BlockDto[]> {
    const first = this.blocksOf(noteId).slice(0, limit);
    this.blockRowsRead += first.length;
    return first;
  }

  async blockCount(noteId: string): Promise<number> {
    return this.blocksOf(noteId).length;
  }

  /** A note's blocks, ids `<note_id>-b<position>`. */
  blocksOf(noteId: string): BlockRow[] {
    const note = this.notes.get(noteId);
    if (!note) return [];
    const known = this.#blocks.get(noteId);
    if (known?.body === note.body) return known.blocks;
    let position = 0;
    const blocks = deriveBlocks([], note.body, () => `${noteId}-b${position++}`).map((block) => ({
      ...block,
      note_id: noteId,
    }));
    this.#blocks.set(noteId, { body: note.body, blocks });
    return blocks;
  }

  #readWhole(note: NoteDto): void {
    this.longestWholeBody = Math.max(this.longestWholeBody, note.body.length);
    this.wholeReads.set(note.note_id, (this.wholeReads.get(note.note_id) ?? 0) + 1);
  }

  async #hand(page: readonly unknown[], chars: number, visit: () => unknown): Promise<void> {
    if (this.#visiting) this.overlapping = true;
    this.pages += 1;
    this.peakRows = Math.max(this.peakRows, page.length);
    this.peakChars = Math.max(this.peakChars, chars);
    this.#visiting = true;
    try {
      await visit();
    } finally {
      this.#visiting = false;
    }
  }
}
