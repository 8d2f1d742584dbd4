import type { Dexie } from './database';
import { guardQuota } from './storage-errors';

/**
 * Drafts: what a tab typed into a note and has not stored in it yet, one row
 * per tab and note, so two tabs typing in one note never overwrite each
 * other's text. Kept in IndexedDB rather than `localStorage`, whose quota
 * (about 5 Mi characters per origin) cannot hold a large note's draft.
 */
export const DRAFT_STORES = {
  drafts: '[tab_id+note_id], note_id',
} as const satisfies Record<string, string>;

export const DRAFTS_TABLE = 'drafts';

export interface DraftRow {
  tab_id: string;
  note_id: string;
  title: string;
  folder: string;
  tags: string[];
  body: string;
  /** The note version the text was typed on top of. */
  base_version: number;
  /** When the tab wrote the draft (UTC ISO 8601). */
  saved_at: string;
}

export class DraftRepository {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<DraftRow, [string, string]>(DRAFTS_TABLE);
  }

  /** Replaces the tab's draft of the note; STORAGE_QUOTA_EXCEEDED when there is no room (nothing written). */
  async put(row: DraftRow): Promise<void> {
    await guardQuota(() => this.#table.put(row));
  }

  get(tabId: string, noteId: string): Promise<DraftRow | undefined> {
    return this.#table.get([tabId, noteId]);
  }

  /** True when there was a draft to remove. */
  async delete(tabId: string, noteId: string): Promise<boolean> {
    return this.#db.transaction('rw', this.#table, async () => {
      const found = (await this.#table.where('[tab_id+note_id]').equals([tabId, noteId]).count()) > 0;
      if (found) await this.#table.delete([tabId, noteId]);
      return found;
    });
  }

  /** Every tab's drafts, in key order (tab, then note). */
  all(): Promise<DraftRow[]> {
    return this.#table.toArray();
  }

  /** The drafts of one note, whichever tab wrote them. */
  forNote(noteId: string): Promise<DraftRow[]> {
    return this.#table.where('note_id').equals(noteId).toArray();
  }
}
