import { z } from 'zod';
import { AppError, MAX_TITLE_LENGTH, parseInput, type NoteDto } from '../contracts';
import { MAX_BODY_LENGTH, MAX_INDEXED_CHARS_PER_NOTE } from '../contracts/note-limits';
import { linkKey, renamedTarget, renamingTarget } from '../core/wikilinks';
import { LinkIndex, type Backlink, type LinkedNote, type LinkSuggestion } from '../core/wikilinks-index';
import { rewriteNoteLinkTargets } from '../core/wikilinks-markdown';
import { leftOnlyVaultReading, movedTargets, type NoteMove } from '../core/wikilinks-move';
import type { NoteChange, NoteChangeListener, NotesRepository, PagedNote } from '../db';
import type { NotesService } from './notes-service';

export type LinkedNoteDto = LinkedNote;
export type LinkSuggestionDto = LinkSuggestion;
export type BacklinkDto = Backlink;

/**
 * Characters of a note read for its links: the search indexer's cap, so a
 * note is read as far for links as for search, and one 100 MB note costs the
 * index a bounded read (its first blocks) instead of its whole body. Links
 * further on are not indexed; `coverage()` names the notes that applies to.
 */
export const LINK_SCAN_CHARS = MAX_INDEXED_CHARS_PER_NOTE;

/** A note whose links are read only up to `scanned_chars`. */
export interface PartlyScannedNoteDto {
  note_id: string;
  title: string;
  body_length: number;
}

/** How far notes are read for links, and the notes longer than that. */
export interface LinkCoverageDto {
  scanned_chars: number;
  partly_scanned: PartlyScannedNoteDto[];
}

/** What the index reads: pages of notes, a few notes, and which changed (all without whole bodies of huge notes). */
export type LinksReader = Pick<NotesRepository, 'noteIds' | 'forEachNotePage' | 'readPaged' | 'changedSince'>;

const noteIdSchema = z.string().min(1, 'note_id is required');
const titleSchema = z.string().trim().min(1, 'A link needs a title.').max(MAX_TITLE_LENGTH);
/** Titles one `missing` call may ask about (a note with more distinct links asks in parts). */
export const MAX_MISSING_QUERY = 1000;
const missingSchema = z.array(titleSchema).max(MAX_MISSING_QUERY);
const suggestSchema = z.object({
  query: z.string().max(MAX_TITLE_LENGTH),
  limit: z.number().int().min(1).max(50).default(8),
});

/**
 * `[[wikilinks]]` between notes: which note a title opens, backlinks, title
 * completion, and links that follow a rename. The index lives in memory and
 * is rebuilt from the notes on first use, a page of notes at a time: parsing
 * every note is quick next to opening the database, and a rebuilt index can
 * never disagree with the notes after a crash or a schema change. A note is
 * read up to LINK_SCAN_CHARS. Note changes mark notes dirty; each query
 * re-reads the dirty ones first, and the notes updated since the last one it
 * saw (changes made in another tab).
 */
export class LinksService implements NoteChangeListener {
  readonly #reader: LinksReader;
  readonly #notes: NotesService;
  readonly #scanChars: number;
  readonly #index = new LinkIndex();
  /** Live notes read only in part, by id. */
  readonly #partly = new Map<string, PartlyScannedNoteDto>();
  readonly #dirty = new Set<string>();
  #loaded: Promise<void> | null = null;
  /** The latest `updated_at` applied: later ones come from writes this index was not told about. */
  #seen = '';
  /**
   * Notes applied with `updated_at` equal to #seen. Changes are looked up from
   * #seen inclusive (another tab may write in the same millisecond), and these
   * are not read again for it: the latest note may be megabytes, and every
   * `[[` keystroke asks for titles.
   */
  readonly #atSeen = new Set<string>();

  constructor(reader: LinksReader, notes: NotesService, options: { scanChars?: number } = {}) {
    this.#reader = reader;
    this.#notes = notes;
    this.#scanChars = options.scanChars ?? LINK_SCAN_CHARS;
    notes.onRenamed((note, oldTitle) => this.#followRename(note, oldTitle).then(() => undefined));
    notes.onMoved((moves) => this.#followMoves(moves).then(() => undefined));
  }

  notesChanged(change: NoteChange): void {
    for (const id of change.note_ids) this.#dirty.add(id);
  }

  async #fresh(): Promise<LinkIndex> {
    if (!this.#loaded) {
      // Marks that come in during the load are applied after it, which re-reads those notes.
      this.#loaded = this.#load();
      this.#loaded.catch(() => {
        this.#loaded = null;
      });
    }
    await this.#loaded;
    const ids = new Set(this.#dirty);
    this.#dirty.clear();
    // Another tab's core writes to the same notes without telling this one.
    for (const { note_id, updated_at } of await this.#reader.changedSince(this.#seen)) {
      if (updated_at !== this.#seen || !this.#atSeen.has(note_id)) ids.add(note_id);
    }
    if (ids.size > 0) {
      // Paged too: an import marks hundreds of notes at once.
      const gone = new Set(ids);
      await this.#reader.forEachNotePage(
        [...ids],
        (page) => {
          for (const note of page) {
            gone.delete(note.note_id);
            this.#apply(note);
          }
        },
        { maxBodyChars: this.#scanChars },
      );
      for (const id of gone) this.#forget(id);
    }
    return this.#index;
  }

  async #load(): Promise<void> {
    // A load that failed part way left some notes applied; one of them may be gone since.
    this.#index.clear();
    this.#partly.clear();
    const ids = await this.#reader.noteIds({ trashed: false });
    await this.#reader.forEachNotePage(
      ids,
      (page) => {
        for (const note of page) this.#apply(note);
      },
      { maxBodyChars: this.#scanChars },
    );
  }

  #forget(noteId: string): void {
    this.#index.remove(noteId);
    this.#partly.delete(noteId);
  }

  #apply(note: PagedNote): void {
    if (note.deleted_at === null) {
      this.#index.set(note);
      if (note.body_complete) this.#partly.delete(note.note_id);
      else
        this.#partly.set(note.note_id, {
          note_id: note.note_id,
          title: note.title,
          body_length: note.body_length,
        });
    } else {
      this.#forget(note.note_id);
    }
    if (note.updated_at > this.#seen) {
      this.#seen = note.updated_at;
      this.#atSeen.clear();
    }
    if (note.updated_at === this.#seen) this.#atSeen.add(note.note_id);
  }

  /** Notes linking to this one; NOTE_NOT_FOUND for an unknown note. */
  async backlinks(noteId: string): Promise<BacklinkDto[]> {
    const id = parseInput(noteIdSchema, noteId);
    const index = await this.#fresh();
    // A live note is in the index: no need to read its body (which may be megabytes) to know it.
    if (index.has(id)) return index.backlinks(id);
    // A trashed or new note: whether it exists needs no more of its body than a line.
    const [note] = await this.#reader.readPaged([id], { maxBodyChars: 0 });
    if (!note) throw new AppError('NOTE_NOT_FOUND', 'This note does not exist.', { note_id: id });
    if (note.deleted_at !== null) return [];
    return (await this.#fresh()).backlinks(note.note_id);
  }

  /**
   * How far notes are read for links, and the live notes longer than that,
   * longest first: a link past that point in one of them is not in the
   * backlinks, and the backlinks panel says so.
   */
  async coverage(): Promise<LinkCoverageDto> {
    await this.#fresh();
    const partly = [...this.#partly.values()].sort(
      (a, b) => b.body_length - a.body_length || a.note_id.localeCompare(b.note_id),
    );
    return { scanned_chars: this.#scanChars, partly_scanned: partly };
  }

  /** The live note `[[title]]` opens, or null when none has that title. */
  async resolve(title: string): Promise<LinkedNoteDto | null> {
    const wanted = parseInput(titleSchema, title);
    return (await this.#fresh()).resolve(wanted) ?? null;
  }

  /**
   * Of these link titles, those no live note has (a preview shows such links as
   * missing). At most MAX_MISSING_QUERY titles a call: one note's links.
   */
  async missing(titles: readonly string[]): Promise<string[]> {
    const wanted = parseInput(missingSchema, titles);
    const index = await this.#fresh();
    return [...new Set(wanted)].filter((title) => !index.resolve(title.trim()));
  }

  /** Titles and aliases for `[[` completion. */
  async suggest(input: z.input<typeof suggestSchema>): Promise<LinkSuggestionDto[]> {
    const { query, limit } = parseInput(suggestSchema, input);
    return (await this.#fresh()).suggest(query, limit);
  }

  /**
   * After `note` was renamed from `oldTitle`, links to the old title in other
   * notes point at the new one (one `rename` version each), paths
   * (`[[folder/Old]]`) keeping their folders, Markdown links
   * (`[text](folder/Old.md)`) their style as well. A link stays while it still
   * opens a note (another note has the old title, in the folder a path names)
   * or when its new form would open another one (a title typed on the way to
   * an older note's). A note that changed meanwhile is skipped, not overwritten.
   */
  async #followRename(note: NoteDto, oldTitle: string): Promise<number> {
    if (linkKey(oldTitle) === '' || linkKey(note.title) === '' || linkKey(oldTitle) === linkKey(note.title))
      return 0;
    const index = await this.#fresh();
    const follows = (before: string, after: string) =>
      !index.resolve(before) && index.resolve(after)?.note_id === note.note_id;
    const oldKey = linkKey(oldTitle);
    let rewritten = 0;
    for (const source of index.linkingTo(oldTitle)) {
      if (source.note_id === note.note_id) continue;
      // Links are indexed by key, which resolves as the link does: a note none of whose links follow is not read.
      const anyFollows = [...source.links.keys()].some((key) => {
        const after = renamedTarget(key, oldKey, note.title);
        return after !== null && follows(key, after);
      });
      if (!anyFollows) continue;
      if (
        await this.#rewrite(
          source.note_id,
          (body) => rewriteNoteLinkTargets(body, renamingTarget(oldTitle, note.title, follows)),
          'rename',
        )
      )
        rewritten++;
    }
    return rewritten;
  }

  /**
   * After notes changed folder (moved one by one or with their folder), path
   * links that opened one of them in its old place (`[[old folder/Title]]`)
   * and open it no more point at its new one, in the style they were written
   * (see movedTargets; one `move` version per linking note), Markdown links
   * to `.md` notes alike. A link that
   * still opens it, names no folder, opened another note, or whose new form
   * would open another one, stays. A note that changed meanwhile is skipped.
   *
   * A link that still opens it only by reading its first folder as the vault's
   * name named the folder the note left, and follows it (leftOnlyVaultReading)
   * unless it is truly ambiguous: another note with the title sits in a folder
   * the link names, read either way, so the vault reading may be the one its
   * writer meant. Then it stays, opening what it opens.
   */
  async #followMoves(moves: readonly NoteMove[]): Promise<number> {
    const index = await this.#fresh();
    // Where the moved notes were: what links opened before the move.
    const before = new Map(moves.map((move) => [move.note_id, move.from]));
    const byId = new Map(moves.map((move) => [move.note_id, move]));
    const decided = new Map<string, string | null>();
    const next = (target: string): string | null => {
      if (decided.has(target)) return decided.get(target)!;
      let found: string | null = null;
      const opened = index.resolve(target, before);
      const move = opened && byId.get(opened.note_id);
      // Still opened now, but only with the first folder read as the vault's name: it named the folder
      // the note left, unless another note with the title is where the link points read either way.
      const leftFolder =
        move &&
        leftOnlyVaultReading(target, move.from, move.to) &&
        !index.pathNamesAnother(target, move.note_id);
      if (move && (leftFolder || index.resolve(target)?.note_id !== move.note_id)) {
        found =
          movedTargets(target, move.from, move.to).find(
            (candidate) => index.resolve(candidate)?.note_id === move.note_id,
          ) ?? null;
      }
      decided.set(target, found);
      return found;
    };
    // Links are indexed by key, which resolves as the link does: a note none of whose links follow is not read.
    const sources = new Set<string>();
    for (const move of moves) {
      if (linkKey(move.title) === '') continue;
      for (const source of index.linkingTo(move.title)) {
        if ([...source.links.keys()].some((key) => next(key) !== null)) sources.add(source.note_id);
      }
    }
    let rewritten = 0;
    for (const sourceId of sources) {
      // A link from a note to itself is its user's to edit (the note being moved may be open).
      const nextHere = (target: string) =>
        index.resolve(target, before)?.note_id === sourceId ? null : next(target);
      if (await this.#rewrite(sourceId, (body) => rewriteNoteLinkTargets(body, nextHere), 'move'))
        rewritten++;
    }
    return rewritten;
  }

  /**
   * Saves `change` of a linking note's body, its history naming what the link
   * followed (`rename` or `move`), guarded by its version; false when nothing
   * changed or it could not be saved.
   */
  async #rewrite(
    noteId: string,
    change: (body: string) => { body: string; count: number },
    origin: 'rename' | 'move',
  ): Promise<boolean> {
    // Longer than a note may be saved: reading it whole could not end in a save.
    if ((this.#partly.get(noteId)?.body_length ?? 0) > MAX_BODY_LENGTH) return false;
    try {
      const current = await this.#notes.get(noteId);
      const { body, count } = change(current.body);
      if (count === 0) return false;
      await this.#notes.update(
        { note_id: current.note_id, body, expected_version: current.version },
        { origin },
      );
      return true;
    } catch (error) {
      console.error('a link could not follow the rename or move', error);
      return false;
    }
  }
}
