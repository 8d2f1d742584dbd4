// From the package, not ./database: the schema imports this file, and ./database imports the schema.
import Dexie from 'dexie';
import { guardQuota } from './storage-errors';

/**
 * What an `update` import overwrote: each note as it was before the import
 * first wrote over it, so an import a closed tab interrupted can put it back
 * at the next start (a cancel or failure in the running tab does it at once).
 * The rows of an import go when it ends, whichever way.
 */
export const IMPORT_STAGING_STORES = {
  import_staging: '[job_id+note_id], job_id',
} as const satisfies Record<string, string>;

export const IMPORT_STAGING_TABLE = 'import_staging';

export interface StagedNoteRow {
  job_id: string;
  note_id: string;
  /** The note before the import wrote over it. */
  title: string;
  folder: string;
  body: string;
  tags: string[];
  pinned: boolean;
  version: number;
  /**
   * The version the import's write produced, once it landed: the note is put
   * back only while it still holds the import's text (a later edit is kept).
   * Null while the write may not have happened.
   */
  import_version: number | null;
}

export class ImportStagingRepository {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<StagedNoteRow, [string, string]>(IMPORT_STAGING_TABLE);
  }

  /**
   * Keeps the note's state before the import's first write over it; a second
   * write by the same import keeps the first state (the one to go back to).
   */
  async stage(row: Omit<StagedNoteRow, 'import_version'>): Promise<void> {
    await guardQuota(() =>
      this.#db.transaction('rw', this.#table, async () => {
        const known = await this.#table.get([row.job_id, row.note_id]);
        if (!known) await this.#table.add({ ...row, import_version: null });
      }),
    );
  }

  /** The import's write of the note landed at `version`. */
  async landed(jobId: string, noteId: string, version: number): Promise<void> {
    await guardQuota(() => this.#table.update([jobId, noteId], { import_version: version }));
  }

  forJob(jobId: string): Promise<StagedNoteRow[]> {
    return this.#table.where('job_id').equals(jobId).toArray();
  }

  /**
   * The staged notes of a job in note id order, `pageRows` at a time: an
   * `update` import may have overwritten hundreds of notes, each kept whole.
   * The next page is read once `visit` has settled.
   */
  async forEachOfJob(
    jobId: string,
    visit: (page: StagedNoteRow[]) => Promise<unknown> | unknown,
    pageRows = 50,
  ): Promise<void> {
    let after: string | null = null;
    for (;;) {
      const page: StagedNoteRow[] = await this.#table
        .where('[job_id+note_id]')
        .between([jobId, after ?? Dexie.minKey], [jobId, Dexie.maxKey], after === null, true)
        .limit(pageRows)
        .toArray();
      const last = page.at(-1);
      if (!last) return;
      after = last.note_id;
      await visit(page);
    }
  }

  /** The import ended (committed or rolled back): its staged states are no longer needed. */
  async clear(jobId: string): Promise<void> {
    await this.#table.where('job_id').equals(jobId).delete();
  }
}
