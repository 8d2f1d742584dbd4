import type { NoteDto } from '../../contracts/notes';
import { sameContent, type NoteContent } from './note-fields';

export const DRAFT_KEY_PREFIX = 'notesagent.draft.';

/** The crash-safety copy of what the user typed, written synchronously on every input. */
export interface NoteDraft extends NoteContent {
  note_id: string;
  /** The note version the text was typed on top of. */
  base_version: number;
  /** When the draft was written (UTC ISO 8601). */
  saved_at: string;
}

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

/**
 * Drafts in `localStorage` under `notesagent.draft.<note_id>`. Storage errors
 * (quota, private mode) are reported by `write` returning false, never thrown:
 * the editor must keep working even when the safety net cannot be written.
 * Such a draft is held in memory instead, so this tab still has the text to
 * save once there is room (it does not survive closing the tab).
 */
export class DraftStore {
  readonly #storage: DraftStorage | null;
  readonly #memory = new Map<string, NoteDraft>();

  constructor(storage: DraftStorage | null) {
    this.#storage = storage;
  }

  write(draft: NoteDraft): boolean {
    try {
      if (!this.#storage) throw new Error('no local storage');
      this.#storage.setItem(DRAFT_KEY_PREFIX + draft.note_id, JSON.stringify(draft));
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

  read(noteId: string): NoteDraft | null {
    const held = this.#memory.get(noteId);
    if (held) return held;
    if (!this.#storage) return null;
    try {
      return parseDraft(this.#storage.getItem(DRAFT_KEY_PREFIX + noteId));
    } catch {
      return null;
    }
  }

  remove(noteId: string): void {
    this.#memory.delete(noteId);
    try {
      this.#storage?.removeItem(DRAFT_KEY_PREFIX + noteId);
    } catch {
      // Nothing to do: a stale draft is resolved (and discarded) at the next start.
    }
  }

  /** Every readable draft; unreadable entries are removed. */
  list(): NoteDraft[] {
    const storage = this.#storage;
    if (!storage) return [];
    const keys: string[] = [];
    for (let index = 0; index < storage.length; index += 1) {
      const key = storage.key(index);
      if (key?.startsWith(DRAFT_KEY_PREFIX)) keys.push(key);
    }
    const drafts: NoteDraft[] = [];
    for (const key of keys) {
      const draft = parseDraft(storage.getItem(key));
      if (draft && key === DRAFT_KEY_PREFIX + draft.note_id) drafts.push(draft);
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
