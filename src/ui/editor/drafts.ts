import type { NoteDto } from '../../contracts/notes';
import { sameContent, type NoteContent } from './note-fields';

export const DRAFT_KEY_PREFIX = 'notesagent.draft.';
/** sessionStorage key of this tab's id: it survives a reload, and a new tab gets its own. */
export const TAB_ID_KEY = 'notesagent.tab-id';

/** Where a tab keeps its draft of a note. Drafts of older versions lack the tab part. */
export function draftKey(tabId: string, noteId: string): string {
  return `${DRAFT_KEY_PREFIX}${tabId}.${noteId}`;
}

/** This tab's id from `storage` (sessionStorage), made and stored on first use. */
export function tabIdFrom(storage: Pick<Storage, 'getItem' | 'setItem'> | null, make: () => string): string {
  try {
    const known = storage?.getItem(TAB_ID_KEY);
    if (known && /^[\w-]+$/.test(known)) return known;
  } catch {
    // Blocked storage: the id lives for this page only.
  }
  const id = make();
  try {
    storage?.setItem(TAB_ID_KEY, id);
  } catch {
    // As above.
  }
  return id;
}

/** The crash-safety copy of what the user typed, written synchronously on every input. */
export interface NoteDraft extends NoteContent {
  note_id: string;
  /** The note version the text was typed on top of. */
  base_version: number;
  /** When the draft was written (UTC ISO 8601). */
  saved_at: string;
}

/**
 * Drafts whose text is longer than this are held in memory without trying
 * `localStorage`: its quota (about 5 Mi characters per origin in Chromium)
 * refuses them anyway, and serialising a body that size on every keystroke
 * only to have it refused stalls typing.
 */
export const MAX_STORED_DRAFT_CHARS = 5 * 1024 * 1024;

/** The part of the Web Storage API the store needs; `localStorage` fits, and so does a test fake. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function parseDraft(text: string | null): NoteDraft | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const draft = value as Record<string, unknown>;
  if (
    typeof draft.note_id !== 'string' ||
    typeof draft.title !== 'string' ||
    typeof draft.folder !== 'string' ||
    !isStringArray(draft.tags) ||
    typeof draft.body !== 'string' ||
    typeof draft.base_version !== 'number' ||
    typeof draft.saved_at !== 'string'
  ) {
    return null;
  }
  return {
    note_id: draft.note_id,
    title: draft.title,
    folder: draft.folder,
    tags: draft.tags,
    body: draft.body,
    base_version: draft.base_version,
    saved_at: draft.saved_at,
  };
}

/** A draft as found in storage, with the key to remove it by once its text is saved. */
export interface StoredDraft {
  key: string;
  draft: NoteDraft;
}

/**
 * Drafts in `localStorage` under `notesagent.draft.<tab_id>.<note_id>`: two tabs
 * typing in one note keep a draft each, and neither overwrites the other's.
 * Drafts written before tabs had ids (`notesagent.draft.<note_id>`) are still
 * read, listed and removed. Storage errors
 * (quota, private mode) are reported by `write` returning false, never thrown:
 * the editor must keep working even when the safety net cannot be written.
 * Such a draft is held in memory instead, so this tab still has the text to
 * save once there is room (it does not survive closing the tab).
 */
export class DraftStore {
  readonly #storage: DraftStorage | null;
  readonly #tabId: string;
  readonly #memory = new Map<string, NoteDraft>();

  constructor(storage: DraftStorage | null, tabId: string) {
    this.#storage = storage;
    this.#tabId = tabId;
  }

  get tabId(): string {
    return this.#tabId;
  }

  write(draft: NoteDraft): boolean {
    try {
      if (!this.#storage) throw new Error('no local storage');
      if (draft.body.length + draft.title.length > MAX_STORED_DRAFT_CHARS) {
        this.#memory.set(draft.note_id, draft);
        return false;
      }
      this.#storage.setItem(draftKey(this.#tabId, draft.note_id), JSON.stringify(draft));
      this.#memory.delete(draft.note_id);
      return true;
    } catch (error) {
      console.warn('NotesAgent: could not write the local draft', error);
      this.#memory.set(draft.note_id, draft);
      return false;
    }
  }

  /** True while a note's draft lives only in this tab's memory. */
  inMemoryOnly(noteId: string): boolean {
    return this.#memory.has(noteId);
  }

  /** This tab's draft of the note (or one written before tabs had ids). */
  read(noteId: string): NoteDraft | null {
    const held = this.#memory.get(noteId);
    if (held) return held;
    if (!this.#storage) return null;
    try {
      const own = parseDraft(this.#storage.getItem(draftKey(this.#tabId, noteId)));
      return own?.note_id === noteId ? own : parseDraft(this.#storage.getItem(DRAFT_KEY_PREFIX + noteId));
    } catch {
      return null;
    }
  }

  /** Removes this tab's draft of the note (its text is saved); other tabs' drafts stay. */
  remove(noteId: string): void {
    this.#memory.delete(noteId);
    this.removeKey(draftKey(this.#tabId, noteId));
    this.removeKey(DRAFT_KEY_PREFIX + noteId);
  }

  removeKey(key: string): void {
    try {
      this.#storage?.removeItem(key);
    } catch {
      // Nothing to do: a stale draft is resolved (and discarded) at the next start.
    }
  }

  /** Every readable draft of every tab; unreadable entries are removed. */
  list(): StoredDraft[] {
    const storage = this.#storage;
    if (!storage) return [];
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(DRAFT_KEY_PREFIX)) keys.push(key);
    }
    const drafts: StoredDraft[] = [];
    for (const key of keys) {
      const draft = parseDraft(storage.getItem(key));
      const rest = key.slice(DRAFT_KEY_PREFIX.length);
      const keyed =
        draft !== null &&
        (rest === draft.note_id ||
          (rest.endsWith(`.${draft.note_id}`) && !rest.slice(0, -draft.note_id.length - 1).includes('.')));
      if (keyed) drafts.push({ key, draft });
      else storage.removeItem(key);
    }
    return drafts;
  }
}

/**
 * What to do with a draft found for a note:
 * - `discard`: the note already holds this text;
 * - `restore`: the draft is newer than the stored note, save it over the note;
 * - `copy`: the note changed elsewhere after the draft was typed, is gone or
 *   is in the trash (which refuses edits); keep the user's text without
 *   overwriting anyone, as a separate note.
 */
export type DraftResolution = 'discard' | 'restore' | 'copy';

export function resolveDraft(
  draft: NoteDraft,
  note: Pick<NoteDto, 'title' | 'folder' | 'tags' | 'body' | 'version' | 'updated_at' | 'deleted_at'> | null,
): DraftResolution {
  if (note === null) return 'copy';
  if (sameContent(draft, note)) return 'discard';
  if (note.deleted_at !== null) return 'copy';
  if (draft.base_version >= note.version) return 'restore';
  const draftTime = Date.parse(draft.saved_at);
  const noteTime = Date.parse(note.updated_at);
  if (!Number.isNaN(draftTime) && !Number.isNaN(noteTime) && draftTime > noteTime) return 'restore';
  return 'copy';
}
