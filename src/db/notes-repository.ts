import { deriveBlocks, type DerivedBlock } from '../core/blocks';
import { newId } from '../core/ids';
import { DEFAULT_HISTORY_LIMITS, type HistoryLimits } from '../core/note-history';
import type { BlockDto, FolderDto, NoteDto, NoteSort, NoteSummaryDto, TagDto } from '../contracts';
import { MAX_INDEXED_CHARS_PER_NOTE } from '../contracts/notes';
import { Dexie, type NotesAgentDatabase } from './database';
import {
  DEFAULT_PAGE_ROWS,
  bodyFromBlocks,
  plannedNotePages,
  type NotePageOptions,
  type NotePageVisitor,
  type PagedNote,
} from './note-pages';
import { NOTE_VERSIONS_TABLE, NoteVersionRepository, type NoteChangeSource } from './note-versions';
import { noteMetaOf, type BlockRow, type NoteMetaRow, type NoteRow } from './schema';
import { guardQuota } from './storage-errors';
import { sameTags } from '../core/tag-lists';
import { tagKey } from '../core/tag-key';

export interface NoteDraft {
  title: string;
  folder: string;
  body: string;
  tags: string[];
  created_at?: string;
  updated_at?: string;
  /** Kept from an archive when free; the caller checks with `takenIds`. */
  note_id?: string;
  pinned?: boolean;
}

export interface NotePatch {
  title?: string;
  folder?: string;
  body?: string;
  tags?: string[];
}

export interface NoteQuery {
  trashed: boolean;
  sort?: NoteSort;
  folder?: string;
  recursive: boolean;
  tag?: string;
  title_query?: string;
  limit: number;
  offset: number;
}

/**
 * What changed for the search indexes: `upserted` notes have new or changed
 * blocks, title, folder or tags (created, edited, restored); `removed` notes
 * must leave the indexes (trashed, purged, an import rolled back).
 */
export interface NoteChange {
  kind: 'upserted' | 'removed';
  note_ids: string[];
}

/**
 * Told after a write has committed. It must return at once and never throw:
 * a note save does not wait for indexing (the search indexer debounces).
 */
export interface NoteChangeListener {
  notesChanged(change: NoteChange): void;
}

export interface NotesRepositoryOptions {
  now?: () => string;
  listener?: NoteChangeListener;
  /** Keep a version of every title or body change, in the same transaction as the change. */
  history?: { limits?: HistoryLimits };
}

/**
 * A live note (without its body) and its blocks in order: what the search
 * indexer reads. A note longer than the indexer's cap brings its first blocks
 * only: up to the cap and the one block that crosses it, so the indexer still
 * sees that the note goes on.
 */
export interface IndexSource {
  note: Omit<NoteDto, 'body'>;
  blocks: BlockRow[];
}

export function toNoteDto(row: NoteRow): NoteDto {
  const { trashed: _trashed, pinned, import_batch: _batch, ...dto } = row;
  return { ...dto, tags: [...dto.tags], pinned: pinned === 1 };
}

const titleCollator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** `a/b` renamed to `x`: `a/b` → `x`, `a/b/c` → `x/c`; other paths unchanged (null). */
export function renamedPath(path: string, from: string, to: string): string | null {
  if (path === from) return to;
  if (path.startsWith(`${from}/`)) return `${to}${path.slice(from.length)}`;
  return null;
}

function toSummary(meta: NoteMetaRow): NoteSummaryDto {
  const {
    trashed: _trashed,
    pinned,
    import_batch: _batch,
    body_bytes: _bytes,
    inline_tags: _inline,
    all_tags: all,
    ...rest
  } = meta;
  return { ...rest, tags: [...rest.tags], all_tags: [...(all ?? rest.tags)], pinned: pinned === 1 };
}

/** A meta row as the note it describes, without the body. */
function withoutBody(meta: NoteMetaRow): Omit<NoteDto, 'body'> {
  const { excerpt: _excerpt, body_length: _length, all_tags: _all, ...summary } = toSummary(meta);
  return summary;
}

function toBlockRow(noteId: string, block: DerivedBlock): BlockRow {
  return { ...block, note_id: noteId };
}

/**
 * Notes and their blocks. A note's blocks are re-derived in the same
 * transaction as every body change, keeping the ids of unchanged blocks so
 * citations survive edits.
 */
export class NotesRepository {
  readonly #db: NotesAgentDatabase;
  readonly #now: () => string;
  readonly #listener: NoteChangeListener | undefined;
  readonly #history: { versions: NoteVersionRepository; limits: HistoryLimits } | undefined;

  constructor(db: NotesAgentDatabase, options: NotesRepositoryOptions = {}) {
    this.#db = db;
    this.#now = options.now ?? (() => new Date().toISOString());
    this.#listener = options.listener;
    this.#history = options.history && {
      versions: new NoteVersionRepository(db),
      limits: options.history.limits ?? DEFAULT_HISTORY_LIMITS,
    };
  }

  /** The stores a note write touches: with history, its versions too. */
  #writeTables(): string[] {
    return this.#history
      ? ['notes', 'note_meta', 'blocks', NOTE_VERSIONS_TABLE]
      : ['notes', 'note_meta', 'blocks'];
  }

  #notify(kind: NoteChange['kind'], noteIds: readonly string[]): void {
    if (!this.#listener || noteIds.length === 0) return;
    try {
      // Outside any caller's transaction (a transcript note is written with its
      // citations in one): the listener's own writes go to other stores.
      const listener = this.#listener;
      Dexie.ignoreTransaction(() => listener.notesChanged({ kind, note_ids: [...noteIds] }));
    } catch (error) {
      // The write has committed; a failing listener must not turn it into an error.
      console.error('note change listener failed', error);
    }
  }

  /**
   * `source` (with history) keeps the blank note the change started from as a version marked
   * `creation`, in the same transaction: what lets the note view undo an agent's new note.
   */
  async create(draft: NoteDraft, source?: NoteChangeSource): Promise<NoteDto> {
    const [note] = await this.createMany([draft], source ? { source } : {});
    return note!;
  }

  /** One transaction for the whole batch: an import either lands a batch or nothing of it. */
  async createMany(
    drafts: readonly NoteDraft[],
    options: { importBatch?: string; source?: NoteChangeSource } = {},
  ): Promise<NoteDto[]> {
    const now = this.#now();
    const rows: NoteRow[] = drafts.map((draft) => ({
      note_id: draft.note_id ?? newId('note'),
      title: draft.title,
      folder: draft.folder,
      body: draft.body,
      tags: [...draft.tags],
      version: 1,
      created_at: draft.created_at ?? now,
      updated_at: draft.updated_at ?? draft.created_at ?? now,
      deleted_at: null,
      trashed: 0,
      ...(draft.pinned === true ? { pinned: 1 as const } : {}),
      ...(options.importBatch === undefined ? {} : { import_batch: options.importBatch }),
    }));
    const blocks = rows.flatMap((row) =>
      deriveBlocks([], row.body, () => newId('block')).map((block) => toBlockRow(row.note_id, block)),
    );
    const history = options.source && this.#history;
    const source = options.source;
    await guardQuota(() =>
      this.#db.transaction(
        'rw',
        history ? this.#writeTables() : ['notes', 'note_meta', 'blocks'],
        async () => {
          await this.#db.notes.bulkAdd(rows);
          await this.#db.note_meta.bulkPut(rows.map((row) => noteMetaOf(row)));
          await this.#db.blocks.bulkAdd(blocks);
          if (!history || !source) return;
          for (const row of rows) {
            const blank: NoteRow = { ...row, title: '', body: '', version: 0 };
            await history.versions.recordChange(
              blank,
              row,
              { ...source, creation: true },
              now,
              history.limits,
            );
          }
        },
      ),
    );
    this.#notify(
      'upserted',
      rows.map((row) => row.note_id),
    );
    return rows.map(toNoteDto);
  }

  /** Which of `noteIds` a note (live or trashed) already has, reading keys only. */
  async takenIds(noteIds: readonly string[]): Promise<Set<string>> {
    if (noteIds.length === 0) return new Set();
    const keys = await this.#db.notes
      .where(':id')
      .anyOf([...noteIds])
      .primaryKeys();
    return new Set(keys);
  }

  async get(noteId: string): Promise<NoteDto | undefined> {
    const row = await this.#db.notes.get(noteId);
    return row && toNoteDto(row);
  }

  /**
   * Applies a patch when `check` accepts the current row; returns undefined
   * for a missing note. `check` runs inside the transaction so version checks
   * cannot race another write. With history, a title or body change keeps a
   * version of the note as it was (origin `user` unless `source` says).
   */
  async update(
    noteId: string,
    patch: NotePatch,
    check?: (current: NoteDto) => void,
    source: NoteChangeSource = { origin: 'user' },
  ): Promise<NoteDto | undefined> {
    let indexable = false;
    const updated = await guardQuota(() =>
      this.#db.transaction('rw', this.#writeTables(), async () => {
        const row = await this.#db.notes.get(noteId);
        if (!row) return undefined;
        check?.(toNoteDto(row));
        const now = this.#now();
        const next: NoteRow = {
          ...row,
          ...definedOnly(patch),
          version: row.version + 1,
          updated_at: now,
        };
        await this.#putNote(next, next.body === row.body);
        if (this.#history) {
          await this.#history.versions.recordChange(row, next, source, now, this.#history.limits);
        }
        if (patch.body !== undefined && patch.body !== row.body)
          await this.#replaceBlocks(noteId, patch.body);
        // Title, folder and tags are indexed with every block; a trashed note is not indexed at all.
        indexable = next.trashed === 0 && changesIndexedFields(row, next);
        return toNoteDto(next);
      }),
    );
    if (indexable) this.#notify('upserted', [noteId]);
    return updated;
  }

  /**
   * Writes a note's row and its meta row; the caller's transaction holds both
   * stores. `sameBody`: the stored body is this one, so its inline tags are
   * taken from the meta row instead of parsing it again.
   */
  async #putNote(row: NoteRow, sameBody: boolean): Promise<void> {
    const inline = sameBody ? await this.#storedInlineTags(row.note_id) : undefined;
    await this.#db.notes.put(row);
    await this.#db.note_meta.put(noteMetaOf(row, inline));
  }

  /** The inline tags a note's meta row holds; undefined without a meta row (then the body is read). */
  async #storedInlineTags(noteId: string): Promise<string[] | undefined> {
    const meta = await this.#db.note_meta.get(noteId);
    return meta && (meta.inline_tags ?? []);
  }

  /**
   * The meta rows of these notes, in order (undefined for a missing note). A
   * note without one (an older version wrote it) is read once and gets it, in
   * a transaction of its own that writes only where none was written meanwhile.
   */
  async #metaOf(noteIds: readonly string[]): Promise<Array<NoteMetaRow | undefined>> {
    const { notes, note_meta } = this.#db;
    const metas = await note_meta.bulkGet([...noteIds]);
    const missing = noteIds.filter((_, index) => metas[index] === undefined);
    if (missing.length === 0) return metas;
    const made = new Map<string, NoteMetaRow>();
    for (const id of missing) {
      // One row at a time: a page of huge notes is never in memory at once.
      const row = await notes.get(id);
      if (row) made.set(id, noteMetaOf(row));
    }
    if (made.size > 0) {
      await Dexie.ignoreTransaction(() => this.#storeMissingMeta([...made.values()])).catch(
        (error: unknown) =>
          // Derived data: the next read makes it again.
          console.warn('could not store note meta rows', error),
      );
    }
    return noteIds.map((id, index) => metas[index] ?? made.get(id));
  }

  async #storeMissingMeta(rows: readonly NoteMetaRow[]): Promise<void> {
    const { notes, note_meta } = this.#db;
    await this.#db.transaction('rw', notes, note_meta, async () => {
      const ids = rows.map((row) => row.note_id);
      const present = new Set(await note_meta.where(':id').anyOf(ids).primaryKeys());
      const live = new Set(await notes.where(':id').anyOf(ids).primaryKeys());
      // A write since the read made its own (newer) meta row; a purge left none to describe.
      await note_meta.bulkPut(rows.filter((row) => !present.has(row.note_id) && live.has(row.note_id)));
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
    const note = await guardQuota(() =>
      this.#db.transaction('rw', this.#db.notes, this.#db.note_meta, async () => {
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
        await this.#putNote(next, true);
        return toNoteDto(next);
      }),
    );
    if (note) this.#notify(trashed ? 'removed' : 'upserted', [noteId]);
    return note;
  }

  /** Deletes the note and its blocks for good; returns false when it did not exist. */
  async purge(noteId: string, check?: (current: NoteDto) => void): Promise<boolean> {
    const existed = await this.#db.transaction('rw', this.#writeTables(), async () => {
      const row = await this.#db.notes.get(noteId);
      if (!row) return false;
      check?.(toNoteDto(row));
      await this.#history?.versions.deleteForNote(noteId);
      await this.#db.blocks.where('note_id').equals(noteId).delete();
      await this.#db.notes.delete(noteId);
      await this.#db.note_meta.delete(noteId);
      return true;
    });
    if (existed) this.#notify('removed', [noteId]);
    return existed;
  }

  async deleteMany(noteIds: readonly string[]): Promise<void> {
    await this.#db.transaction('rw', this.#db.notes, this.#db.note_meta, this.#db.blocks, async () => {
      await this.#db.blocks
        .where('note_id')
        .anyOf([...noteIds])
        .delete();
      await this.#db.notes.bulkDelete([...noteIds]);
      await this.#db.note_meta.bulkDelete([...noteIds]);
    });
    this.#notify('removed', noteIds);
  }

  /** Deletes every note an import batch wrote (live or trashed); returns how many. */
  async deleteImportBatch(batchId: string): Promise<number> {
    // The meta rows carry the batch in an index: no note's body is read to find them.
    const ids = await this.#db.note_meta.where('import_batch').equals(batchId).primaryKeys();
    if (ids.length > 0) await this.deleteMany(ids);
    return ids.length;
  }

  /**
   * One page of summaries. The order and the filters are worked out from index
   * keys alone (ids, update and creation times, titles, folders, tags, pins);
   * only the rows on the page are read, so a page costs its own bodies, not the
   * notebook's. Same order as sorting the rows: newest change first (ties by
   * id, descending), then a stable sort by the chosen key, pinned first.
   */
  async list(query: NoteQuery): Promise<{ items: NoteSummaryDto[]; total: number }> {
    const flag = query.trashed ? 1 : 0;
    const sort = query.sort ?? 'updated_at';
    const titleQuery = query.title_query?.trim().toLocaleLowerCase();
    const { notes, note_meta } = this.#db;
    const { items, total } = await this.#db.transaction('r', notes, note_meta, async () => {
      let ids = (await notes
        .where('[trashed+updated_at]')
        .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
        .reverse()
        .primaryKeys()) as string[];
      if (query.folder !== undefined && !(query.folder === '' && query.recursive)) {
        const folder = query.folder;
        const keep = new Set(await notes.where('folder').equals(folder).primaryKeys());
        if (query.recursive && folder !== '') {
          for (const id of await notes.where('folder').startsWith(`${folder}/`).primaryKeys()) keep.add(id);
        }
        ids = ids.filter((id) => keep.has(id));
      }
      if (query.tag !== undefined) {
        // The note's own tags and its inline `#tags` (see NoteMetaRow.all_tags),
        // in every spelling of the tag: `#Project` and `project` are one tag.
        const key = tagKey(query.tag);
        const spellings = (await note_meta.orderBy('all_tags').uniqueKeys())
          .map(String)
          .filter((spelling) => tagKey(spelling) === key);
        const keep = new Set(await note_meta.where('all_tags').anyOf(spellings).primaryKeys());
        ids = ids.filter((id) => keep.has(id));
      }
      const titles =
        titleQuery || sort === 'title' ? await this.#indexKeys<string>('title') : new Map<string, string>();
      if (titleQuery)
        ids = ids.filter((id) => (titles.get(id) ?? '').toLocaleLowerCase().includes(titleQuery));
      const pinned = new Set(await notes.where('pinned').equals(1).primaryKeys());
      const byKey: (a: string, b: string) => number =
        sort === 'title'
          ? (a, b) => titleCollator.compare(titles.get(a) ?? '', titles.get(b) ?? '')
          : sort === 'created_at'
            ? await this.#createdOrder(flag)
            : () => 0;
      const pin = (id: string) => (pinned.has(id) ? 1 : 0);
      ids.sort((a, b) => pin(b) - pin(a) || byKey(a, b));
      return { items: ids.slice(query.offset, query.offset + query.limit), total: ids.length };
    });
    // Only meta rows: a page never reads a body, however large.
    const metas = await this.#metaOf(items);
    return {
      items: metas.filter((meta): meta is NoteMetaRow => meta !== undefined).map(toSummary),
      total,
    };
  }

  /** Each note's key in a plain index, read from the index alone. */
  async #indexKeys<K>(index: string): Promise<Map<string, K>> {
    const keys = new Map<string, K>();
    await this.#db.notes
      .orderBy(index)
      .eachKey((key, cursor) => keys.set(cursor.primaryKey as string, key as K));
    return keys;
  }

  /** Compares ids by creation time, newest first, from the index keys alone. */
  async #createdOrder(flag: 0 | 1): Promise<(a: string, b: string) => number> {
    const created = new Map<string, string>();
    await this.#db.notes
      .where('[trashed+created_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .eachKey((key, cursor) => created.set(cursor.primaryKey as string, (key as [number, string])[1]));
    return (a, b) => (created.get(b) ?? '').localeCompare(created.get(a) ?? '');
  }

  /** Pins or unpins; the note's version and updated_at stay, so an open editor's next save still fits. */
  async setPinned(
    noteId: string,
    pinned: boolean,
    check?: (current: NoteDto) => void,
  ): Promise<NoteDto | undefined> {
    return this.#db.transaction('rw', this.#db.notes, this.#db.note_meta, async () => {
      const row = await this.#db.notes.get(noteId);
      if (!row) return undefined;
      check?.(toNoteDto(row));
      const next: NoteRow = { ...row, pinned: pinned ? 1 : 0 };
      await this.#putNote(next, true);
      return toNoteDto(next);
    });
  }

  /** Deletes every note in the trash, with its blocks and history, in one transaction; returns how many. */
  async purgeTrashed(): Promise<number> {
    const ids = await this.#db.transaction('rw', this.#writeTables(), async () => {
      const trashed = await this.#db.notes
        .where('[trashed+updated_at]')
        .between([1, Dexie.minKey], [1, Dexie.maxKey])
        .primaryKeys();
      for (const noteId of trashed) await this.#history?.versions.deleteForNote(noteId);
      await this.#db.blocks.where('note_id').anyOf(trashed).delete();
      await this.#db.notes.bulkDelete(trashed);
      await this.#db.note_meta.bulkDelete(trashed);
      return trashed;
    });
    this.#notify('removed', ids);
    return ids.length;
  }

  /**
   * Adds a folder; false when a folder with that path exists already (made, or holding live
   * notes). One whose notes are all in the trash is not in the tree, so it can be made again.
   */
  async createFolder(path: string): Promise<boolean> {
    return this.#db.transaction('rw', this.#db.notes, this.#db.folders, async () => {
      if (await this.#folderShown(path)) return false;
      await this.#db.folders.add({ path, created_at: this.#now() });
      return true;
    });
  }

  async #folderExists(path: string): Promise<boolean> {
    if (
      (await this.#db.folders
        .where('path')
        .startsWith(path)
        .filter((row) => renamedPath(row.path, path, path) !== null)
        .count()) > 0
    ) {
      return true;
    }
    // Index keys only: no note's row (body) is read.
    const inside = await this.#db.notes.where('folder').startsWith(path).keys();
    return inside.some((folder) => renamedPath(String(folder), path, path) !== null);
  }

  /** A folder the tree shows: made by the user, or holding a live note (index keys only). */
  async #folderShown(path: string): Promise<boolean> {
    if ((await this.#madeFoldersIn(path)).length > 0) return true;
    const trashed = await this.#trashedIds();
    let shown = false;
    await this.#db.notes
      .where('folder')
      .startsWith(path)
      .eachKey((folder, cursor) => {
        if (!trashed.has(String(cursor.primaryKey)) && renamedPath(String(folder), path, path) !== null)
          shown = true;
      });
    return shown;
  }

  /** The paths of the made folders at `path` and below it. */
  async #madeFoldersIn(path: string): Promise<string[]> {
    const rows = await this.#db.folders.where('path').startsWith(path).primaryKeys();
    return rows.filter((row) => renamedPath(row, path, path) !== null);
  }

  /**
   * Deletes a folder with every folder below it, in one transaction: the made
   * folders' rows go and the live notes in them go to the trash, keeping their
   * folder so a restore puts each back where it was (notes already in the
   * trash stay as they are). `check` hears how many live notes would go before
   * anything is written, and may throw to stop it. Undefined when no made
   * folder or live note has the path: the tree shows no such folder.
   */
  async deleteFolder(
    path: string,
    check?: (liveNotes: number) => void,
  ): Promise<{ note_ids: string[]; folders: string[]; deleted_at: string } | undefined> {
    const { notes, note_meta, folders } = this.#db;
    const deleted = await guardQuota(() =>
      this.#db.transaction('rw', notes, note_meta, folders, async () => {
        const made = await this.#madeFoldersIn(path);
        const live = (await notes.where('folder').startsWith(path).toArray()).filter(
          (row) => row.trashed === 0 && renamedPath(row.folder, path, path) !== null,
        );
        if (made.length === 0 && live.length === 0) return undefined;
        check?.(live.length);
        const now = this.#now();
        const next = live.map((row): NoteRow => ({
          ...row,
          trashed: 1,
          deleted_at: now,
          updated_at: now,
          version: row.version + 1,
        }));
        await this.#putKeepingInlineTags(next);
        await folders.bulkDelete(made);
        return { note_ids: next.map((row) => row.note_id), folders: made, deleted_at: now };
      }),
    );
    if (deleted) this.#notify('removed', deleted.note_ids);
    return deleted;
  }

  /**
   * Takes back `deleteFolder`, in one transaction: the notes it trashed that are
   * still in the trash from then come back, and the made folders come back
   * where no folder has that path now. Returns how many notes came back.
   */
  async restoreDeletedFolder(
    noteIds: readonly string[],
    madeFolders: readonly string[],
    deletedAt: string,
  ): Promise<number> {
    const { notes, note_meta, folders } = this.#db;
    const restored = await guardQuota(() =>
      this.#db.transaction('rw', notes, note_meta, folders, async () => {
        const now = this.#now();
        const rows = (await notes.bulkGet([...noteIds])).filter(
          (row): row is NoteRow => row !== undefined && row.trashed === 1 && row.deleted_at === deletedAt,
        );
        const next = rows.map((row): NoteRow => ({
          ...row,
          trashed: 0,
          deleted_at: null,
          updated_at: now,
          version: row.version + 1,
        }));
        await this.#putKeepingInlineTags(next);
        const present = new Set(
          await folders
            .where('path')
            .anyOf([...madeFolders])
            .primaryKeys(),
        );
        await folders.bulkAdd(
          madeFolders.filter((path) => !present.has(path)).map((path) => ({ path, created_at: now })),
        );
        return next.map((row) => row.note_id);
      }),
    );
    this.#notify('upserted', restored);
    return restored.length;
  }

  /** Writes notes whose body did not change, with meta rows that keep their inline tags. */
  async #putKeepingInlineTags(rows: readonly NoteRow[]): Promise<void> {
    const kept = await this.#db.note_meta.bulkGet(rows.map((row) => row.note_id));
    await this.#db.notes.bulkPut([...rows]);
    await this.#db.note_meta.bulkPut(
      rows.map((row, index) => {
        const meta = kept[index];
        return noteMetaOf(row, meta && (meta.inline_tags ?? []));
      }),
    );
  }

  /**
   * Renames or moves a folder with everything below it: made folders and the
   * notes (trashed ones too, so a restore lands in the new place), in one
   * transaction. Each moved note gets a new version. Returns the notes moved,
   * or undefined when no folder has the path `from`.
   */
  async renameFolder(from: string, to: string): Promise<number | undefined> {
    const moved: string[] = [];
    let live: string[] = [];
    const { notes: noteTable, note_meta, folders } = this.#db;
    const found = await this.#db.transaction('rw', noteTable, note_meta, folders, async () => {
      if (!(await this.#folderExists(from))) return false;
      const now = this.#now();
      const folders = await this.#db.folders.where('path').startsWith(from).toArray();
      for (const row of folders) {
        const path = renamedPath(row.path, from, to);
        if (path === null) continue;
        await this.#db.folders.delete(row.path);
        await this.#db.folders.put({ ...row, path });
      }
      const notes = await this.#db.notes.where('folder').startsWith(from).toArray();
      const next: NoteRow[] = [];
      for (const row of notes) {
        const folder = renamedPath(row.folder, from, to);
        if (folder === null) continue;
        next.push({ ...row, folder, version: row.version + 1, updated_at: now });
      }
      const kept = await this.#db.note_meta.bulkGet(next.map((row) => row.note_id));
      await this.#db.notes.bulkPut(next);
      await this.#db.note_meta.bulkPut(
        next.map((row, index) => {
          const meta = kept[index];
          return noteMetaOf(row, meta && (meta.inline_tags ?? []));
        }),
      );
      moved.push(...next.map((row) => row.note_id));
      live = next.filter((row) => row.trashed === 0).map((row) => row.note_id);
      return true;
    });
    if (!found) return undefined;
    // The folder is indexed with every block of the note.
    this.#notify('upserted', live);
    return moved.length;
  }

  /**
   * Every note of the notebook with its body, in one array: only for small
   * notebooks (tests, benchmark sandboxes). A pass over the user's notebook
   * uses `forEachNotePage`, which holds a page at a time.
   */
  async all(options: { trashed: boolean }): Promise<NoteDto[]> {
    const flag = options.trashed ? 1 : 0;
    const rows = await this.#db.notes
      .where('[trashed+updated_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .toArray();
    return rows.map(toNoteDto);
  }

  /**
   * Every folder that holds a live note or was made by the user, plus their
   * ancestors, with recursive counts of live notes.
   */
  /**
   * Folders with their live note counts, from index keys alone: one list of
   * note ids per folder, less the trashed notes. No note's row is read, so the
   * sidebar at start costs the same whatever the notes hold.
   */
  async folders(): Promise<FolderDto[]> {
    const counts = new Map<string, number>();
    await this.#db.folders.each((row) => {
      const parts = row.path.split('/');
      for (let depth = 1; depth <= parts.length; depth++) {
        const path = parts.slice(0, depth).join('/');
        if (!counts.has(path)) counts.set(path, 0);
      }
    });
    for (const [folder, live] of await this.#liveCountsBy('folder')) {
      const parts = folder ? folder.split('/') : [];
      for (let depth = 1; depth <= parts.length; depth++) {
        const path = parts.slice(0, depth).join('/');
        counts.set(path, (counts.get(path) ?? 0) + live);
      }
    }
    return [...counts]
      .map(([path, note_count]) => ({ path, note_count }))
      .sort((a, b) => a.path.localeCompare(b.path));
  }

  /**
   * Tags with their live note counts, from the meta rows' `all_tags` index
   * alone (see `folders`): a note's own tags and its inline `#tags`. Spellings
   * that differ only in case are one tag (`tagKey`), counted once per note and
   * shown as most of its notes spell it (ties: the first in code-unit order).
   */
  async tags(): Promise<TagDto[]> {
    const { notes, note_meta } = this.#db;
    const spellings = await this.#db.transaction('r', notes, note_meta, async () => {
      const trashed = await this.#trashedIds();
      const live = new Map<string, string[]>();
      for (const spelling of await note_meta.orderBy('all_tags').uniqueKeys()) {
        const ids = await note_meta.where('all_tags').equals(spelling).primaryKeys();
        const kept = trashed.size === 0 ? ids : ids.filter((id) => !trashed.has(id));
        if (kept.length > 0) live.set(String(spelling), kept);
      }
      return live;
    });
    const byKey = new Map<string, { tag: string; most: number; ids: Set<string> }>();
    for (const [spelling, ids] of spellings) {
      const key = tagKey(spelling);
      const entry = byKey.get(key);
      if (!entry) {
        byKey.set(key, { tag: spelling, most: ids.length, ids: new Set(ids) });
        continue;
      }
      for (const id of ids) entry.ids.add(id);
      if (ids.length > entry.most) Object.assign(entry, { tag: spelling, most: ids.length });
    }
    return [...byKey.values()]
      .map(({ tag, ids }) => ({ tag, note_count: ids.size }))
      .sort((a, b) => b.note_count - a.note_count || a.tag.localeCompare(b.tag));
  }

  /** Ids of the notes in the trash, from the index alone. */
  async #trashedIds(): Promise<Set<string>> {
    return new Set(
      (await this.#db.notes.where('[trashed+updated_at]').above([0, Dexie.maxKey]).primaryKeys()) as string[],
    );
  }

  /**
   * Live notes per distinct key of `index` (the notes' folders); keys held
   * only by trashed notes are left out.
   */
  async #liveCountsBy(index: 'folder'): Promise<Map<string, number>> {
    const { notes, note_meta } = this.#db;
    return this.#db.transaction('r', notes, note_meta, async () => {
      const trashed = await this.#trashedIds();
      const counts = new Map<string, number>();
      for (const key of await notes.orderBy(index).uniqueKeys()) {
        const ids = await notes.where(index).equals(key).primaryKeys();
        const live = trashed.size === 0 ? ids.length : ids.filter((id) => !trashed.has(id)).length;
        if (live > 0) counts.set(String(key), live);
      }
      return counts;
    });
  }

  /**
   * Notes, live or trashed, updated at or after `since`, as ids and times only
   * (no bodies are read): how a reader in one tab follows changes another tab
   * made (those are not reported to it).
   */
  async changedSince(since: string): Promise<Array<{ note_id: string; updated_at: string }>> {
    const changed: Array<{ note_id: string; updated_at: string }> = [];
    for (const flag of [0, 1]) {
      await this.#db.notes
        .where('[trashed+updated_at]')
        .between([flag, since], [flag, Dexie.maxKey])
        .eachKey((key, cursor) => {
          changed.push({
            note_id: String(cursor.primaryKey),
            updated_at: String((key as [number, string])[1]),
          });
        });
    }
    return changed;
  }

  /** These notes, in order; a missing one is undefined. */
  async getMany(noteIds: readonly string[]): Promise<Array<NoteDto | undefined>> {
    const rows = await this.#db.notes.bulkGet([...noteIds]);
    return rows.map((row) => row && toNoteDto(row));
  }

  /**
   * The tags the tag list counts for this note (its own, then its inline
   * `#tags`), from its meta row; undefined for a missing note.
   */
  async tagsOf(noteId: string): Promise<string[] | undefined> {
    const [meta] = await this.#metaOf([noteId]);
    return meta && [...(meta.all_tags ?? [])];
  }

  /** Ids of every note not in the trash; keys only, no bodies are read. */
  async liveNoteIds(): Promise<string[]> {
    return this.noteIds({ trashed: false });
  }

  /** Ids of the live (or trashed) notes, least recently changed first; keys only. */
  async noteIds(options: { trashed: boolean }): Promise<string[]> {
    const flag = options.trashed ? 1 : 0;
    return this.#db.notes
      .where('[trashed+updated_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .primaryKeys();
  }

  /**
   * Ids of the live (or trashed) notes, oldest first, ties by id as
   * `localeCompare` orders them (the order exports have always used, which
   * decides which of two same-named notes gets the ` (2)`); keys only.
   */
  async noteIdsByCreation(options: { trashed: boolean }): Promise<string[]> {
    const flag = options.trashed ? 1 : 0;
    const keyed: Array<{ id: string; created: string }> = [];
    await this.#db.notes
      .where('[trashed+created_at]')
      .between([flag, Dexie.minKey], [flag, Dexie.maxKey])
      .eachKey((key, cursor) =>
        keyed.push({ id: String(cursor.primaryKey), created: String((key as [number, string])[1]) }),
      );
    keyed.sort((a, b) => a.created.localeCompare(b.created) || a.id.localeCompare(b.id));
    return keyed.map((entry) => entry.id);
  }

  /**
   * The summaries (meta rows: title, lengths, no body) of these notes, in
   * order, `pageRows` at a time; missing notes are left out.
   */
  async forEachSummaryPage(
    noteIds: readonly string[],
    visit: NotePageVisitor<NoteSummaryDto>,
    options: Pick<NotePageOptions, 'pageRows' | 'signal'> = {},
  ): Promise<void> {
    const rows = options.pageRows ?? DEFAULT_PAGE_ROWS;
    for (let start = 0; start < noteIds.length; start += rows) {
      options.signal?.throwIfAborted();
      const metas = await this.#metaOf(noteIds.slice(start, start + rows));
      const page = metas.filter((meta): meta is NoteMetaRow => meta !== undefined).map(toSummary);
      if (page.length > 0) await visit(page);
    }
  }

  /**
   * These notes with their bodies, in order, a page at a time: a page holds at
   * most `pageRows` notes and `pageChars` body characters, or one note longer
   * than that. The next page is read once `visit` has settled, so the caller
   * holds a page (and what it keeps of it) plus the largest single note.
   * Missing notes are left out; trashed ones come with `deleted_at` set.
   * Each page is read in one transaction (a note and its blocks agree); the
   * pass as a whole is not one: a note changed meanwhile comes as it is when
   * its page is read.
   */
  async forEachNotePage(
    noteIds: readonly string[],
    visit: NotePageVisitor<PagedNote>,
    options: NotePageOptions = {},
  ): Promise<void> {
    for await (const planned of plannedNotePages(noteIds, (ids) => this.#metaOf(ids), options)) {
      const page = (await this.readPaged(planned, options)).filter(
        (note): note is PagedNote => note !== undefined,
      );
      if (page.length > 0) await visit(page);
    }
  }

  /**
   * A few notes as a page loop reads them (see `forEachNotePage`), in order;
   * undefined for a missing note. Bodies over `maxBodyChars` come as their
   * first blocks: the rest is never read.
   */
  async readPaged(
    noteIds: readonly string[],
    options: Pick<NotePageOptions, 'maxBodyChars'> = {},
  ): Promise<Array<PagedNote | undefined>> {
    if (noteIds.length === 0) return [];
    const max = options.maxBodyChars;
    // Meta rows missing (an older version's note) are made first, outside the read below.
    if (max !== undefined) await this.#metaOf(noteIds);
    const { notes, note_meta, blocks } = this.#db;
    return this.#db.transaction('r', notes, note_meta, blocks, async () => {
      const metas = max === undefined ? [] : await note_meta.bulkGet([...noteIds]);
      const long = new Map<string, NoteMetaRow>();
      for (const meta of metas) if (meta && meta.body_length > max!) long.set(meta.note_id, meta);
      const whole = noteIds.filter((id) => !long.has(id));
      const rows = new Map<string, NoteRow>();
      for (const row of await notes.bulkGet(whole)) if (row) rows.set(row.note_id, row);
      const parts = new Map<string, PagedNote>();
      for (const meta of long.values()) {
        const body = bodyFromBlocks(await this.#blocksUpTo(meta, max!));
        parts.set(meta.note_id, {
          ...withoutBody(meta),
          body,
          body_length: meta.body_length,
          body_complete: false,
        });
      }
      return noteIds.map((id): PagedNote | undefined => {
        const row = rows.get(id);
        if (row) return { ...toNoteDto(row), body_length: row.body.length, body_complete: true };
        return parts.get(id);
      });
    });
  }

  /**
   * How many blocks these notes have. One bounded count per note, or for most
   * of the notebook the store's count less the notes left out: an `anyOf` over
   * thousands of ids walks the index once per id in some IndexedDB engines.
   */
  async countBlocks(noteIds: readonly string[]): Promise<number> {
    const wanted = new Set(noteIds);
    if (wanted.size === 0) return 0;
    const { notes, blocks } = this.#db;
    return this.#db.transaction('r', notes, blocks, async () => {
      const countOf = async (ids: Iterable<string>) =>
        sum(await Promise.all([...ids].map((id) => blocks.where('note_id').equals(id).count())));
      if (wanted.size < 64) return countOf(wanted);
      const others = (await notes.toCollection().primaryKeys()).filter((id) => !wanted.has(id));
      if (others.length >= wanted.size) return countOf(wanted);
      return (await blocks.count()) - (await countOf(others));
    });
  }

  /**
   * The live notes among `noteIds` with their blocks, read in one transaction
   * so a note and its blocks agree. Missing and trashed notes are left out:
   * for the indexer both mean "not searchable". Each note's blocks are one
   * range of `[note_id+position]`, so they come in order and no read walks
   * other notes' keys.
   */
  async indexSources(
    noteIds: readonly string[],
    maxChars: number = MAX_INDEXED_CHARS_PER_NOTE,
  ): Promise<IndexSource[]> {
    if (noteIds.length === 0) return [];
    const { notes, note_meta, blocks } = this.#db;
    // Meta rows missing (an older version's note) are made first, outside the read below.
    await this.#metaOf(noteIds);
    return this.#db.transaction('r', notes, note_meta, blocks, async () => {
      const metas = (await note_meta.bulkGet([...noteIds])).filter(
        (meta): meta is NoteMetaRow => meta !== undefined && meta.trashed === 0,
      );
      return Promise.all(
        metas.map(async (meta) => ({
          // Search filters by the tags the tag list shows: inline `#tags` too.
          note: { ...withoutBody(meta), tags: [...(meta.all_tags ?? [])] },
          blocks: await this.#blocksUpTo(meta, maxChars),
        })),
      );
    });
  }

  /**
   * The note's blocks in order; for a body over `maxChars`, only those up to
   * it and the one that crosses it, read one at a time.
   */
  async #blocksUpTo(meta: NoteMetaRow, maxChars: number): Promise<BlockRow[]> {
    const range = this.#db.blocks
      .where('[note_id+position]')
      .between([meta.note_id, Dexie.minKey], [meta.note_id, Dexie.maxKey]);
    if (meta.body_length <= maxChars) return range.toArray();
    const kept: BlockRow[] = [];
    let total = 0;
    await range
      .until(() => total > maxChars)
      .each((block) => {
        kept.push(block);
        total += block.text.length;
      });
    return kept;
  }

  /** Blocks by id, in the order asked; undefined where a block no longer exists. */
  async blocksById(blockIds: readonly string[]): Promise<Array<BlockDto | undefined>> {
    if (blockIds.length === 0) return [];
    const rows = await this.#db.blocks.bulkGet([...blockIds]);
    return rows.map((row) => {
      if (!row) return undefined;
      const { level: _level, ...block } = row;
      return block;
    });
  }

  /** How many blocks the note has, counted from index keys: no block is read. */
  async blockCount(noteId: string): Promise<number> {
    return this.#db.blocks
      .where('[note_id+position]')
      .between([noteId, Dexie.minKey], [noteId, Dexie.maxKey])
      .count();
  }

  /**
   * The note's first `limit` blocks in order: one range of `[note_id+position]`
   * read with a limit, so a note of thousands of blocks costs only those.
   */
  async firstBlocks(noteId: string, limit: number): Promise<BlockDto[]> {
    const rows = await this.#db.blocks
      .where('[note_id+position]')
      .between([noteId, Dexie.minKey], [noteId, Dexie.maxKey])
      .limit(limit)
      .toArray();
    return rows.map(({ level: _level, ...block }) => block);
  }

  async blocks(noteId: string): Promise<BlockDto[]> {
    const rows = await this.#db.blocks
      .where('[note_id+position]')
      .between([noteId, Dexie.minKey], [noteId, Dexie.maxKey])
      .toArray();
    return rows.map(({ level: _level, ...block }) => block);
  }
}

function changesIndexedFields(before: NoteRow, after: NoteRow): boolean {
  return (
    before.body !== after.body ||
    before.title !== after.title ||
    before.folder !== after.folder ||
    !sameTags(before.tags, after.tags)
  );
}

function definedOnly(patch: NotePatch): NotePatch {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as NotePatch;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}
