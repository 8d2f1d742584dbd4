import Dexie from 'dexie';
import type { NotesAgentDatabase } from './database';
import type { IndexDirtyRow, SearchIndexRow, SearchSegmentRow } from './schema';

type Row<K extends SearchIndexRow['key']> = Omit<Extract<SearchIndexRow, { key: K }>, 'key'>;
export type FullTextIndexRow = Row<'full_text'>;
export type VectorIndexRow = Row<'vectors'>;
export type IndexMetaRow = Row<'meta'>;

/** Everything the search indexer keeps between sessions. */
export interface StoredIndexes {
  meta: IndexMetaRow | undefined;
  /** The rows of the live generation; none when the meta row names none. */
  segments: SearchSegmentRow[];
  dirty: IndexDirtyRow[];
  /** Every live (not trashed) note and its `updated_at`, read in the same transaction. */
  live: Map<string, string>;
  /** Rows of other generations: left by a rebuild that never finished. */
  stale_rows: number;
}

/** One transaction's worth of index writes. */
export interface SegmentsToSave {
  generation: number;
  /** Rows of notes (re-)indexed. */
  put: readonly SearchSegmentRow[];
  /** Notes that left the indexes (trashed, deleted). */
  remove: readonly string[];
  meta: IndexMetaRow;
  /** A rebuild's last write: the generation becomes the live one and every other goes. */
  replaceOthers?: boolean;
}

/**
 * The persisted search indexes, one row per note and generation, and the notes
 * waiting to be re-indexed. The indexes are derived from notes and blocks and
 * can always be rebuilt; this repository only keeps them so a start does not
 * have to, and so an edit writes only the note it changed.
 */
export class IndexRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  /** Everything kept, the live generation's rows included, read in one transaction. */
  async load(): Promise<StoredIndexes> {
    const db = this.#db;
    return db.transaction(
      'r',
      [db.search_index, db.search_index_dirty, db.search_segments, db.notes],
      async () => {
        const head = await this.loadHead();
        const generation = head.meta?.segments?.generation;
        const segments =
          generation === undefined
            ? []
            : await this.#rows().between([generation, Dexie.minKey], [generation, Dexie.maxKey]).toArray();
        return { ...head, segments };
      },
    );
  }

  /**
   * Everything but the rows, in one transaction; the rows follow in pages
   * (`segmentPages`), so a start can build the indexes a page at a time and
   * the notes list is answered between pages.
   */
  async loadHead(): Promise<Omit<StoredIndexes, 'segments'>> {
    const db = this.#db;
    return db.transaction(
      'r',
      [db.search_index, db.search_index_dirty, db.search_segments, db.notes],
      async () => {
        const meta = await db.search_index.get('meta');
        const generation = meta?.key === 'meta' ? meta.segments?.generation : undefined;
        const stale_rows =
          generation === undefined
            ? await db.search_segments.count()
            : (await this.#rows().below([generation, Dexie.minKey]).count()) +
              (await this.#rows().above([generation, Dexie.maxKey]).count());
        const dirty = await db.search_index_dirty.toArray();
        // Keys only: the notes' bodies are not read. `trashed` is 0 or 1, so
        // "below [0, max]" is exactly the live notes; a range open below also
        // keeps fake-indexeddb (tests, bench) from re-walking it per step.
        const live = new Map<string, string>();
        await db.notes
          .where('[trashed+updated_at]')
          .below([0, Dexie.maxKey])
          .eachKey((key, cursor) =>
            live.set(String(cursor.primaryKey), String((key as [number, string])[1])),
          );
        return { meta: meta?.key === 'meta' ? withoutKey(meta) : undefined, dirty, live, stale_rows };
      },
    );
  }

  /** The rows of `generation` in note order, `size` at a time, each page its own read. */
  async *segmentPages(generation: number, size: number): AsyncGenerator<SearchSegmentRow[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.#rows()
        .between([generation, after ?? Dexie.minKey], [generation, Dexie.maxKey], after === undefined, true)
        .limit(size)
        .toArray();
      if (page.length > 0) yield page;
      if (page.length < size) return;
      after = page[page.length - 1]!.note_id;
    }
  }

  #rows() {
    return this.#db.search_segments.where('[generation+note_id]');
  }

  async markDirty(rows: readonly IndexDirtyRow[]): Promise<void> {
    if (rows.length > 0) await this.#db.search_index_dirty.bulkPut([...rows]);
  }

  /**
   * Rows of a generation being built; not read until a `save` with
   * `replaceOthers` makes it the live one.
   */
  async putSegments(rows: readonly SearchSegmentRow[]): Promise<void> {
    if (rows.length > 0) await this.#db.search_segments.bulkPut([...rows]);
  }

  /**
   * Writes the changed notes' rows and the meta row and clears the dirty
   * marks they include, in one transaction: after a crash either the old rows
   * and their marks or the new rows remain. A mark whose token changed since
   * it was read belongs to a later edit and stays.
   */
  async save(save: SegmentsToSave, consumed: readonly IndexDirtyRow[]): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', db.search_index, db.search_index_dirty, db.search_segments, async () => {
      if (save.put.length > 0) await db.search_segments.bulkPut([...save.put]);
      if (save.remove.length > 0) {
        await db.search_segments.bulkDelete(save.remove.map((noteId) => [save.generation, noteId]));
      }
      if (save.replaceOthers) await this.#dropOthers(save.generation);
      await db.search_index.put({ key: 'meta', ...save.meta });
      if (consumed.length === 0) return;
      const current = await db.search_index_dirty.bulkGet(consumed.map((row) => row.note_id));
      const tokens = new Map(consumed.map((row) => [row.note_id, row.token]));
      const done = current
        .filter((row): row is IndexDirtyRow => row !== undefined && tokens.get(row.note_id) === row.token)
        .map((row) => row.note_id);
      await db.search_index_dirty.bulkDelete(done);
    });
  }

  /** Drops the rows of every generation but `generation` (left-overs of an interrupted rebuild). */
  async dropGenerationsExcept(generation: number): Promise<void> {
    await this.#db.transaction('rw', this.#db.search_segments, () => this.#dropOthers(generation));
  }

  async clear(): Promise<void> {
    const db = this.#db;
    await db.transaction('rw', db.search_index, db.search_index_dirty, db.search_segments, async () => {
      await db.search_index.clear();
      await db.search_index_dirty.clear();
      await db.search_segments.clear();
    });
  }

  async #dropOthers(generation: number): Promise<void> {
    const rows = this.#db.search_segments;
    await rows.where('[generation+note_id]').below([generation, Dexie.minKey]).delete();
    await rows.where('[generation+note_id]').above([generation, Dexie.maxKey]).delete();
  }
}

function withoutKey<T extends { key: unknown }>(row: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = row;
  return rest;
}
