/**
 * What one tab tells the others after a write has committed: which notes or which job
 * changed, never the data itself. A tab that hears it reads the store again, so a
 * message that is late, repeated or forged can at worst cause a needless read.
 */
export type StoreChange =
  | { kind: 'notes'; source: string; change: 'upserted' | 'removed'; ids: string[] }
  | { kind: 'job'; source: string; ids: string[]; sequence: number };

/** The channel every tab of the app listens on (one origin, one notebook). */
export const STORE_CHANGES_CHANNEL = 'notesagent.store-changes';

/** At most this many ids are taken from one message: a batch import says "many notes" as a list. */
const MAX_IDS = 10_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function readIds(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const ids = value.slice(0, MAX_IDS).filter((id): id is string => typeof id === 'string' && id !== '');
  return ids.length === value.slice(0, MAX_IDS).length ? ids : null;
}

/** A message from the channel, or null when it is not one this version understands. */
export function parseStoreChange(data: unknown): StoreChange | null {
  if (!isRecord(data) || typeof data.source !== 'string' || data.source === '') return null;
  const ids = readIds(data.ids);
  if (ids === null) return null;
  if (data.kind === 'notes' && (data.change === 'upserted' || data.change === 'removed')) {
    return { kind: 'notes', source: data.source, change: data.change, ids };
  }
  if (
    data.kind === 'job' &&
    typeof data.sequence === 'number' &&
    Number.isInteger(data.sequence) &&
    data.sequence >= 0
  ) {
    return { kind: 'job', source: data.source, ids, sequence: data.sequence };
  }
  return null;
}

/** What the open note's editor knows when the stored note may have changed under it. */
export interface OpenNoteState {
  /** The stored version the editor's text builds on. */
  shownVersion: number;
  /** The stored note's version as just read. */
  storedVersion: number;
  /** The stored note is in the trash. */
  trashed: boolean;
  /** The editor holds text that is not stored. */
  unsaved: boolean;
  /** A save of this note is under way (it ends on its own: stored, or refused as a conflict). */
  saving: boolean;
  /** The editor is already in the conflict flow. */
  inConflict: boolean;
}

/**
 * - `keep`: nothing to do (not newer, a save or a conflict will settle it);
 * - `show`: no unsaved text here, so the stored note replaces what is shown;
 * - `conflict`: unsaved text here was typed on an older version: the conflict flow
 *   keeps it (banner, a history version) instead of letting either side be lost.
 */
export type OpenNoteFollow = 'keep' | 'show' | 'conflict';

/** How an editor follows a write to its note made elsewhere (another tab, an import, the agent). */
export function followStoredNote(state: OpenNoteState): OpenNoteFollow {
  if (state.inConflict || state.saving) return 'keep';
  if (state.storedVersion <= state.shownVersion) return 'keep';
  // Trashed elsewhere: a clean editor shows it in the trash. Unsaved text cannot be saved into a
  // trashed note (the save is refused), so it goes to the conflict flow like any text typed on an
  // older version: kept in the note's history, saved as a new note or dropped by the user.
  return state.unsaved ? 'conflict' : 'show';
}

/**
 * Coalesces work triggered by a burst of messages: `run` never overlaps itself, and
 * requests that arrive while it runs cause exactly one more run after it.
 */
export class CoalescedRun {
  readonly #run: () => Promise<void>;
  #running: Promise<void> | null = null;
  #again = false;

  constructor(run: () => Promise<void>) {
    this.#run = run;
  }

  request(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    const running = (async () => {
      do {
        this.#again = false;
        try {
          await this.#run();
        } catch {
          // The next message tries again; one failed read must not stop the following.
        }
      } while (this.#again);
    })().finally(() => {
      this.#running = null;
    });
    this.#running = running;
    return running;
  }
}
