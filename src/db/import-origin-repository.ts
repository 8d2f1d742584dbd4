// From the package, not ./database: the schema imports this file, and ./database imports the schema.
import type Dexie from 'dexie';
import { guardQuota } from './storage-errors';

/**
 * Where each imported note came from: its file's path in the vault, and the
 * note as that file had it then. A note renamed or moved here keeps its
 * path, so importing the vault again finds it by the file it came from; the
 * title, folder and body hash as imported tell a change made in the vault
 * from one made here. One row per note and one per path: a later import from
 * the same path takes it over. Rows of deleted notes are ignored (the import
 * drops those of notes gone for good), so the notes store is never touched.
 */
export const IMPORT_ORIGIN_STORES = {
  import_origins: '&note_id, &source_path',
} as const satisfies Record<string, string>;

export const IMPORT_ORIGIN_TABLE = 'import_origins';

export interface ImportOriginRow {
  note_id: string;
  /** The file's path in the vault (below its top folder), after the import's target folder. */
  source_path: string;
  /** The note's title and folder as the file gave them when last imported. */
  title: string;
  folder: string;
  /** `contentHash` of the body as the file gave it when last imported. */
  body_hash: string;
  imported_at: string;
}

export class ImportOriginRepository {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<ImportOriginRow, string>(IMPORT_ORIGIN_TABLE);
  }

  /** The rows of these paths, whichever notes they name (live, trashed or gone). */
  async byPaths(paths: readonly string[]): Promise<ImportOriginRow[]> {
    if (paths.length === 0) return [];
    return this.#table
      .where('source_path')
      .anyOf([...new Set(paths)])
      .toArray();
  }

  /** The rows of these notes. */
  async byNotes(noteIds: readonly string[]): Promise<ImportOriginRow[]> {
    if (noteIds.length === 0) return [];
    const rows = await this.#table.bulkGet([...new Set(noteIds)]);
    return rows.filter((row): row is ImportOriginRow => row !== undefined);
  }

  /**
   * Writes the rows of one import: each note's row is replaced, and a path
   * another note held passes to the note now imported from it.
   */
  async record(rows: readonly ImportOriginRow[]): Promise<void> {
    if (rows.length === 0) return;
    await guardQuota(() =>
      this.#db.transaction('rw', this.#table, async () => {
        await this.#table
          .where('source_path')
          .anyOf(rows.map((row) => row.source_path))
          .delete();
        await this.#table.bulkPut([...rows]);
      }),
    );
  }

  /** Forgets the rows of these notes (deleted for good). */
  async forget(noteIds: readonly string[]): Promise<void> {
    if (noteIds.length === 0) return;
    await guardQuota(() => this.#table.bulkDelete([...noteIds]));
  }
}
