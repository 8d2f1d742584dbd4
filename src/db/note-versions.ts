import type { Dexie } from './database';

/**
 * Earlier states of notes. Every agent write stores the note as it was just
 * before, so the change can be undone from the note; the notebook's history
 * feature can add its own origins (`user`, `restore`) to the same store.
 */
export const NOTE_VERSION_STORES = {
  note_versions: '&version_id, note_id, [note_id+created_at], run_id',
} as const satisfies Record<string, string>;

export const NOTE_VERSIONS_TABLE = 'note_versions';

export type NoteVersionOrigin = 'agent' | 'user' | 'restore';

export interface NoteVersionRow {
  version_id: string;
  note_id: string;
  /** Who made the change that followed this state. */
  origin: NoteVersionOrigin;
  /** The note as it was before the change. */
  title: string;
  body: string;
  /** The note's version counter before the change. */
  note_version: number;
  /** The counter the change produced; undo applies only while the note is still at it. */
  changed_to_version: number | null;
  /** The agent run and tool call that made the change (origin `agent`). */
  run_id: string | null;
  tool: string | null;
  created_at: string;
  /** Set once the change was undone. */
  undone_at: string | null;
}

export class NoteVersionRepository {
  readonly #db: Dexie;

  constructor(db: Dexie) {
    this.#db = db;
  }

  get #table() {
    return this.#db.table<NoteVersionRow, string>(NOTE_VERSIONS_TABLE);
  }

  async put(row: NoteVersionRow): Promise<void> {
    await this.#table.put(row);
  }

  get(versionId: string): Promise<NoteVersionRow | undefined> {
    return this.#table.get(versionId);
  }

  async update(versionId: string, patch: Partial<Omit<NoteVersionRow, 'version_id'>>): Promise<void> {
    await this.#table.update(versionId, patch);
  }

  async delete(versionId: string): Promise<void> {
    await this.#table.delete(versionId);
  }

  /** Newest first. */
  async forNote(noteId: string): Promise<NoteVersionRow[]> {
    const rows = await this.#table
      .where('[note_id+created_at]')
      .between([noteId, ''], [noteId, '\uffff'])
      .toArray();
    return rows.reverse();
  }
}
