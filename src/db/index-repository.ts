import type { NotesAgentDatabase } from './database';
import type { IndexDirtyRow, SearchIndexRow } from './schema';

type Row<K extends SearchIndexRow['key']> = Omit<Extract<SearchIndexRow, { key: K }>, 'key'>;
export type FullTextIndexRow = Row<'full_text'>;
export type VectorIndexRow = Row<'vectors'>;
export type IndexMetaRow = Row<'meta'>;

/** Everything the search indexer keeps between sessions. */
export interface StoredIndexes {
  fullText: FullTextIndexRow | undefined;
  vectors: VectorIndexRow | undefined;
  meta: IndexMetaRow | undefined;
  dirty: IndexDirtyRow[];
}

export interface IndexesToSave {
  fullText: FullTextIndexRow;
  /** Omitted: the stored vectors stay as they are. */
  vectors?: VectorIndexRow;
  meta: IndexMetaRow;
}

/**
 * The persisted search indexes and the notes waiting to be re-indexed. The
 * indexes are derived from notes and blocks and can always be rebuilt; this
 * repository only keeps them so a start does not have to.
 */
export class IndexRepository {
  readonly #db: NotesAgentDatabase;

  constructor(db: NotesAgentDatabase) {
    this.#db = db;
  }

  async load(): Promise<StoredIndexes> {
    return this.#db.transaction('r', this.#db.search_index, this.#db.search_index_dirty, async () => {
      const [fullText, vectors, meta] = await this.#db.search_index.bulkGet(['full_text', 'vectors', 'meta']);
      const dirty = await this.#db.search_index_dirty.toArray();
      return {
        fullText: fullText?.key === 'full_text' ? withoutKey(fullText) : undefined,
        vectors: vectors?.key === 'vectors' ? withoutKey(vectors) : undefined,
        meta: meta?.key === 'meta' ? withoutKey(meta) : undefined,
        dirty,
      };
    });
  }

  async markDirty(rows: readonly IndexDirtyRow[]): Promise<void> {
    if (rows.length > 0) await this.#db.search_index_dirty.bulkPut([...rows]);
  }

  /**
   * Writes the indexes and clears the dirty marks they include, in one
   * transaction: after a crash either the old indexes and their marks or the
   * new indexes remain. A mark whose token changed since it was read belongs
   * to a later edit and stays.
   */
  async save(indexes: IndexesToSave, consumed: readonly IndexDirtyRow[]): Promise<void> {
    await this.#db.transaction('rw', this.#db.search_index, this.#db.search_index_dirty, async () => {
      const rows: SearchIndexRow[] = [
        { key: 'full_text', ...indexes.fullText },
        { key: 'meta', ...indexes.meta },
      ];
      if (indexes.vectors) rows.push({ key: 'vectors', ...indexes.vectors });
      await this.#db.search_index.bulkPut(rows);
      if (consumed.length === 0) return;
      const current = await this.#db.search_index_dirty.bulkGet(consumed.map((row) => row.note_id));
      const tokens = new Map(consumed.map((row) => [row.note_id, row.token]));
      const done = current
        .filter((row): row is IndexDirtyRow => row !== undefined && tokens.get(row.note_id) === row.token)
        .map((row) => row.note_id);
      await this.#db.search_index_dirty.bulkDelete(done);
    });
  }

  async clear(): Promise<void> {
    await this.#db.transaction('rw', this.#db.search_index, this.#db.search_index_dirty, async () => {
      await this.#db.search_index.clear();
      await this.#db.search_index_dirty.clear();
    });
  }
}

function withoutKey<T extends { key: unknown }>(row: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = row;
  return rest;
}
