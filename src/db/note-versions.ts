import { keepsVersion, overflow, type HistoryLimits, type NoteChangeOrigin } from '../core/note-history';
import { newId } from '../core/ids';
import type { Dexie } from './database';
import { guardQuota } from './storage-errors';
import { sameTags } from '../core/tag-lists';

/**
 * Earlier states of notes. Every change to a note's title or body stores the
 * note as it was just before (typing coalesced into one version per burst),
 * so any change can be looked at and restored; agent writes (text, folder or
 * tags) are undone from their own version.
 */
export const NOTE_VERSION_STORES = {
  note_versions: '&version_id, note_id, [note_id+created_at], run_id',
} as const satisfies Record<string, string>;

/** Pruning the oldest versions across notes needs them ordered by time. */
export const NOTE_VERSION_STORES_V12 = {
  note_versions: '&version_id, note_id, [note_id+created_at], run_id, created_at',
} as const satisfies Record<string, string>;

export const NOTE_VERSIONS_TABLE = 'note_versions';

/**
 * `conflict` is not a change to the note: it keeps text that lost a save to a
 * newer write (another tab), so both texts stay reachable.
 */
export type NoteVersionOrigin = NoteChangeOrigin | 'conflict';

/** Who changed a note, and for agent writes which run and tool. */
export interface NoteChangeSource {
  origin: NoteChangeOrigin;
  run_id?: string | null;
  tool?: string | null;
  /**
   * The change created the note (its version keeps the blank note, written in
   * the creation's transaction): the note view can undo it by moving the note
   * to the trash.
   */
  creation?: boolean;
}

/** The note fields a version keeps. */
export interface VersionedNote {
  note_id: string;
  title: string;
  body: string;
  folder: string;
  tags: readonly string[];
  version: number;
}

export interface NoteVersionRow {
  version_id: string;
  note_id: string;
  /** Who made the change that followed this state. */
  origin: NoteVersionOrigin;
  /** The note as it was before the change. */
  title: string;
  body: string;
  /**
   * Where the note was and how it was tagged, kept only when the change moved
   * or re-tagged it (absent otherwise, and in versions stored before this), so
   * restoring the version puts back exactly what that change altered.
   */
  folder?: string;
  tags?: string[];
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
  /** The change filled a note its writer had just created (see `NoteChangeSource.creation`). */
  creation?: true;
}

/** Origins whose change of folder or tags alone is kept as a version of its own. */
const KEEPS_ORGANISING: ReadonlySet<NoteVersionOrigin> = new Set(['agent', 'plugin', 'import', 'restore']);

/** What restoring `row` writes: the note as that version keeps it. */
export function restoredState(row: NoteVersionRow): {
  note_id: string;
  title: string;
  body: string;
  folder?: string;
  tags?: string[];
} {
  return {
    note_id: row.note_id,
    title: row.title,
    body: row.body,
    ...(row.folder !== undefined && { folder: row.folder }),
    ...(row.tags !== undefined && { tags: [...row.tags] }),
  };
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
    await guardQuota(() => this.#table.put(row));
  }

  get(versionId: string): Promise<NoteVersionRow | undefined> {
    return this.#table.get(versionId);
  }

  async update(versionId: string, patch: Partial<Omit<NoteVersionRow, 'version_id'>>): Promise<void> {
    await guardQuota(() => this.#table.update(versionId, patch));
  }

  async delete(versionId: string): Promise<void> {
    await this.#table.delete(versionId);
  }

  /**
   * Called inside the transaction that writes the note (its scope must
   * include this store): keeps the state `before` unless the change belongs
   * to the burst the newest version started, then prunes oldest first.
   * Returns the new version's id, or null when the change was coalesced.
   */
  async recordChange(
    before: VersionedNote,
    after: VersionedNote,
    source: NoteChangeSource,
    now: string,
    limits: HistoryLimits,
  ): Promise<string | null> {
    const textChanged = before.title !== after.title || before.body !== after.body;
    const organised = before.folder !== after.folder || !sameTags(before.tags, after.tags);
    // A user's move or tag edit is undone by moving back; an agent's or a
    // plugin's must be undoable in one click, and a restore undoable in turn,
    // so those keep a version too.
    if (!textChanged && !(organised && KEEPS_ORGANISING.has(source.origin))) return null;
    const latest = await this.#table
      .where('[note_id+created_at]')
      .between([before.note_id, ''], [before.note_id, '\uffff'])
      .last();
    if (!keepsVersion(latest, source.origin, now, limits)) return null;
    const versionId = newId('note_version');
    await this.#table.add({
      version_id: versionId,
      note_id: before.note_id,
      origin: source.origin,
      title: before.title,
      body: before.body,
      ...(organised && { folder: before.folder, tags: [...before.tags] }),
      note_version: before.version,
      changed_to_version: after.version,
      run_id: source.run_id ?? null,
      tool: source.tool ?? null,
      created_at: now,
      undone_at: null,
      ...(source.creation === true && { creation: true as const }),
    });
    await this.#prune(before.note_id, limits);
    return versionId;
  }

  /** Adds a version that is not the before-state of a change (a conflict's losing text), within the limits. */
  async add(row: NoteVersionRow, limits: HistoryLimits): Promise<void> {
    await guardQuota(() =>
      this.#db.transaction('rw', this.#table, async () => {
        await this.#table.add(row);
        await this.#prune(row.note_id, limits);
      }),
    );
  }

  async #prune(noteId: string, limits: HistoryLimits): Promise<void> {
    const ofNote = this.#table.where('[note_id+created_at]').between([noteId, ''], [noteId, '\uffff']);
    const extra = overflow(await ofNote.count(), limits.perNote);
    if (extra > 0) await this.#table.bulkDelete(await ofNote.limit(extra).primaryKeys());
    const extraTotal = overflow(await this.#table.count(), limits.total);
    if (extraTotal > 0)
      await this.#table.bulkDelete(await this.#table.orderBy('created_at').limit(extraTotal).primaryKeys());
  }

  /** A purged note takes its history with it. */
  async deleteForNote(noteId: string): Promise<void> {
    await this.#table.where('note_id').equals(noteId).delete();
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
