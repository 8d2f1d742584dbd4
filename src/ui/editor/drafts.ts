import { MAX_DRAFT_CHARS } from '../../contracts/note-limits';
import type { NoteDto } from '../../contracts/notes';
import {
  JOURNAL_KEY_PREFIX,
  changeWeight,
  journalKey,
  lengthDelta,
  parseJournal,
  readStoredJson,
  replayJournal,
  textId,
  type JournalFields,
  type StoredJournal,
  type TextId,
} from './edit-journal';
import { sameContent, type NoteContent } from './note-fields';
import { textChange, type TextChange } from './text-change';

export const DRAFT_KEY_PREFIX = 'notesagent.draft.';
/** sessionStorage key of this tab's id: it survives a reload, and a new tab gets its own. */
export const TAB_ID_KEY = 'notesagent.tab-id';

/** Where a tab spills its draft of a note at unload (and older versions kept drafts); some lack the tab part. */
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

/** The crash-safety copy of what the user typed. */
export interface NoteDraft extends NoteContent {
  note_id: string;
  /** The note version the text was typed on top of. */
  base_version: number;
  /** When the draft was written (UTC ISO 8601). */
  saved_at: string;
}

/**
 * Drafts whose text is longer than this are not spilled to `localStorage` when
 * the page goes away: its quota (about 5 Mi characters per origin in Chromium)
 * refuses them anyway, and serialising a body that size only to have it
 * refused would hold up the unload.
 */
export const MAX_STORED_DRAFT_CHARS = 5 * 1024 * 1024;

/**
 * Drafts up to this size are mirrored to `localStorage` shortly after each
 * change (a synchronous write of a quarter of a megabyte stays well inside a
 * frame); larger ones reach the core after the pause only.
 */
export const MAX_MIRRORED_DRAFT_CHARS = 256 * 1024;

/**
 * How long after a change the mirror is written. Serialising the whole text
 * on the keystroke itself delayed the frame that shows the key; a little
 * later, once that frame is out, it costs the typist nothing. Continuous
 * typing does not push it back, so a killed tab loses at most this much.
 */
export const DEFAULT_MIRROR_DELAY_MS = 50;

/**
 * Drafts up to this size are mirrored on the keystroke itself: serialising
 * and storing a few thousand characters costs microseconds, and a killed tab
 * then loses nothing it had shown. Larger ones wait `mirrorDelayMs`.
 */
export const MAX_SYNC_MIRRORED_DRAFT_CHARS = 16 * 1024;

/**
 * A note typed in the textarea whose text is longer than this journals its
 * changes (`typed`) instead of having the whole text mirrored after each
 * key: the cost of a key then stays what was typed, however long the note.
 * Up to this size the whole text is mirrored on the key itself.
 */
export const JOURNALED_TEXT_CHARS = MAX_SYNC_MIRRORED_DRAFT_CHARS;

/**
 * An edit journal this heavy (about what it would insert) asks the editor to
 * hand its text over, so that it is written to the core and the journal
 * starts again from there: what `localStorage` holds per note stays small.
 */
export const JOURNAL_FOLD_WEIGHT = 64 * 1024;

/**
 * Past this weight (one paste of megabytes, or a core that refuses the
 * write that would fold it) a journal is no longer written to
 * `localStorage`; the text is in memory and goes to the core as a draft.
 */
export const MAX_JOURNAL_WEIGHT = 1024 * 1024;

/** How many texts handed to writes not yet confirmed a journal remembers the place of. */
const MAX_WRITTEN_MARKS = 3;

/** Drafts written before tabs had ids (`notesagent.draft.<note_id>`) move to this tab id. */
export const LEGACY_TAB_ID = 'legacy';

/** The part of the Web Storage API the store needs; `localStorage` fits, and so does a test fake. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function parseDraft(text: string | null): NoteDraft | null {
  const value = readStoredJson(text);
  return value === undefined ? null : draftFrom(value);
}

function draftFrom(value: unknown): NoteDraft | null {
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

/** A draft as the core stores it: keyed by the tab that typed it and the note. */
export interface TabDraft extends NoteDraft {
  tab_id: string;
}

/** The core's drafts service (`core.drafts`), or a test double. */
export interface DraftBackend {
  save(draft: TabDraft): Promise<void>;
  get(key: { tab_id: string; note_id: string }): Promise<TabDraft | null>;
  remove(key: { tab_id: string; note_id: string }): Promise<{ removed: boolean }>;
  list(): Promise<TabDraft[]>;
}

/** Timers, injected so tests decide when the pause is over. */
export interface DraftTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTimers: DraftTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface DraftStoreOptions {
  backend: DraftBackend;
  tabId: string;
  /** `localStorage`: where drafts of older versions wait to move, and where unwritten ones go at unload. */
  local: DraftStorage | null;
  /**
   * Quiet time after the last change before the draft is written; `mirrored`: the whole text is
   * in `localStorage` already (see `defaultDraftDelay`).
   */
  delayMs?: (draft: NoteDraft, mirrored: boolean) => number;
  /** Continuous typing still writes at least this often, unless the text is journaled (see `typed`) or mirrored. */
  maxWaitMs?: number;
  /** The most a change waits before it is mirrored to `localStorage` (default `DEFAULT_MIRROR_DELAY_MS`). */
  mirrorDelayMs?: number;
  timers?: DraftTimers;
  /** A write failed (storage full): the draft is held in memory and written again on the next change or flush. */
  onWriteFailed?: (noteId: string, error: unknown) => void;
  /** A draft held in memory was written after all. */
  onWritten?: (noteId: string) => void;
}

/** A text whose place in the journal is known; its id is worked out once a write depends on it. */
interface LiveMark {
  at: number;
  text: string;
  id: TextId | null;
}

/** The edit journal of one note in memory (see `edit-journal.ts`). */
interface LiveJournal {
  noteId: string;
  /** In order of `at`; the first is where the changes start. */
  marks: LiveMark[];
  changes: TextChange[];
  weight: number;
  /** The length of the newest text: a text handed over of another length is not this journal's. */
  length: number;
  fields: JournalFields | null;
  /** Fed by `typed` (the textarea) rather than by `edit` (the large-note editor). */
  typed: boolean;
  /**
   * Where the journal's start is kept beyond the note itself (which another
   * tab may save over): mirrored to `localStorage`, written to the core as
   * this tab's draft, or not yet (null). Kept once when something is typed
   * on it, by either editor; the newest text then needs no whole copy.
   */
  baseKept: 'mirror' | 'core' | null;
}

/** Where a journal found in `localStorage` at start-up is replayed: the stored note, and whether to leave it. */
export interface JournalRecovery {
  /** The note as stored, or null when it is gone. */
  note(noteId: string): Promise<(NoteContent & { version: number }) | null>;
  /** True while a live tab has the note open: its journal is still being written. */
  skip(noteId: string): Promise<boolean>;
}

/**
 * A draft goes to the core a second after typing stops, unless only memory holds it. Posting
 * the whole text to the core worker costs the page milliseconds (and the worker and
 * IndexedDB more); written 100 ms after each key it landed between a brisk typist's keys
 * (README, editor typing), and a pause of that length comes between most keys. What is typed
 * meanwhile is not at risk: the tab mirrors a short text to `localStorage` on the key
 * (`mirrored`), and journals a longer one's changes, or mirrors it, within `mirrorDelayMs`.
 * A short text the mirror could not take (no `localStorage`, or it is full) goes to the core
 * a moment after typing stops.
 */
export function defaultDraftDelay(draft: NoteDraft, mirrored = false): number {
  return mirrored || draftSize(draft) > JOURNALED_TEXT_CHARS ? 1000 : 100;
}

/**
 * The crash-safety copy of what a tab typed, kept by the core (IndexedDB)
 * per tab and note: two tabs typing in one note keep a draft each, and
 * neither overwrites the other's. The keystroke path only records the newest
 * text in memory; it is written after a short pause (and at least every
 * `maxWaitMs` while typing goes on, unless its text is journaled or mirrored), one
 * write at a time in order, so a removal after a save never races a write.
 * A write the storage refuses
 * (quota) leaves the text in memory, said so through `onWriteFailed`, and is
 * tried again on the next change or flush. When the page goes away, text
 * not yet written is spilled to `localStorage` synchronously (if it fits);
 * the next start moves it, and any draft of older versions, into the core.
 */
export class DraftStore {
  readonly #backend: DraftBackend;
  readonly #tabId: string;
  readonly #local: DraftStorage | null;
  readonly #delayMs: (draft: NoteDraft, mirrored: boolean) => number;
  readonly #maxWaitMs: number;
  readonly #mirrorDelayMs: number;
  readonly #timers: DraftTimers;
  readonly #onWriteFailed: (noteId: string, error: unknown) => void;
  readonly #onWritten: (noteId: string) => void;
  /** The newest text of each note not yet written (or refused). */
  readonly #pending = new Map<string, NoteDraft>();
  readonly #failed = new Set<string>();
  /** Notes whose newest pending text is not in the mirror yet. */
  readonly #unmirrored = new Set<string>();
  /** Edit journals of large notes, fed by the editor change by change. */
  readonly #journals = new Map<string, LiveJournal>();
  /** Notes whose journal changed since it was last written to `localStorage`. */
  readonly #unjournaled = new Set<string>();
  /** How many times this tab's draft of each note was asked to go: a write landing after such a request does not stay. */
  readonly #removals = new Map<string, number>();
  /** Notes whose text the last `spill` wrote to `localStorage` and no mirror would hold (taken back by `unspill`). */
  readonly #spilled = new Set<string>();
  /**
   * Notes this tab has a draft of in the core, once known (from `list()` at
   * start-up, then kept up to date by this tab's own writes and removals: no
   * other tab writes under this tab's id). Opening a note then needs no
   * round trip to the core to learn that there is no draft.
   */
  #stored: Set<string> | null = null;
  #queue: Promise<void> = Promise.resolve();
  #pause: unknown = null;
  #maxWait: unknown = null;
  #mirrorTimer: unknown = null;

  constructor(options: DraftStoreOptions) {
    this.#backend = options.backend;
    this.#tabId = options.tabId;
    this.#local = options.local;
    this.#delayMs = options.delayMs ?? defaultDraftDelay;
    this.#maxWaitMs = options.maxWaitMs ?? 2000;
    this.#mirrorDelayMs = options.mirrorDelayMs ?? DEFAULT_MIRROR_DELAY_MS;
    this.#timers = options.timers ?? browserTimers;
    this.#onWriteFailed =
      options.onWriteFailed ??
      ((_noteId, error) => console.warn('NotesAgent: could not write the draft', error));
    this.#onWritten = options.onWritten ?? (() => {});
  }

  get tabId(): string {
    return this.#tabId;
  }

  /**
   * Records the newest text of a note. A small text (up to
   * `MAX_SYNC_MIRRORED_DRAFT_CHARS`) is mirrored to `localStorage` at once, a
   * medium one within `mirrorDelayMs`: a tab that is killed (no unload
   * event) before the pause is over then loses nothing, or at most that
   * moment of typing, and the next start moves the mirror into the core. A
   * large text is not mirrored whole (serialising it so often would cost
   * more than the typing; an older mirror of it is dropped rather than left
   * to overwrite the newer text later): the large-note editor journals its
   * changes (`edit`), and a large text typed elsewhere goes to the core when
   * the mirror is due.
   */
  write(draft: NoteDraft): void {
    this.#pending.set(draft.note_id, draft);
    const journal = this.#journals.get(draft.note_id);
    /** The journal, and the start it keeps, lead to this text: no whole copy of it is needed. */
    let journaled = false;
    if (journal) {
      if (this.#markOf(journal, draft.body)) {
        journal.fields = fieldsOf(draft);
        this.#unjournaled.add(draft.note_id);
        this.#keepBaseOnce(journal);
        journaled = journal.baseKept !== null;
      } else {
        // Text the journal did not see come about (another editor took the note over): it no longer applies.
        this.#dropJournal(draft.note_id);
      }
    }
    /** The whole text is in `localStorage` now: a killed tab loses none of it, written to the core or not. */
    let mirrored = false;
    if (draftSize(draft) <= MAX_SYNC_MIRRORED_DRAFT_CHARS) {
      mirrored = this.#mirror(draft);
      this.#unmirrored.delete(draft.note_id);
    } else if (journaled) {
      this.#unmirrored.delete(draft.note_id);
    } else {
      this.#unmirrored.add(draft.note_id);
    }
    if (this.#unmirrored.size > 0 || this.#unjournaled.size > 0) this.#scheduleMirror();
    if (this.#pause !== null) this.#timers.clear(this.#pause);
    if (journal && journal.weight > JOURNAL_FOLD_WEIGHT && this.#journals.get(draft.note_id) === journal) {
      // The journal is heavy: write the text it leads to now, and start it again from there.
      void this.flush();
      return;
    }
    this.#pause = this.#timers.set(
      () => {
        this.#pause = null;
        void this.flush();
      },
      this.#delayMs(draft, mirrored),
    );
    // A journaled text is safe without the core: its journal is in `localStorage` within
    // `mirrorDelayMs`, and folds into a write once heavy; a mirrored one is there already.
    // Posting the whole text every `maxWaitMs` while typing went on only landed between a
    // brisk typist's keys.
    if (journaled || mirrored) return;
    this.#maxWait ??= this.#timers.set(() => {
      this.#maxWait = null;
      void this.flush();
    }, this.#maxWaitMs);
  }

  /**
   * The editor of a large note changed its text by `changes` (in order, each
   * in the text the previous one left). They are journaled and written to
   * `localStorage` within `mirrorDelayMs`, as a small note's text is, at the
   * cost of what was typed rather than of the whole text. `before` gives the
   * text they apply to when no journal is open yet; null when a journal is
   * not worth starting (a change from outside, not typing). `fields` gives
   * the note's other fields as they are now (asked for only while the start
   * is still to be kept). As the textarea's, the text the journal starts
   * from is kept once where the next start finds it (see `typed`), when the
   * journal starts and again after each save of the note: mirrored with the
   * journal's first write, or, too long for the mirror, written to the core
   * when the text is first handed over (a pause in typing). True when the
   * journal has grown heavy: the editor should hand its text over now.
   */
  edit(
    noteId: string,
    changes: readonly TextChange[],
    before: (() => string) | null,
    fields: (() => JournalFields | null) | null = null,
  ): boolean {
    if (changes.length === 0) return false;
    let journal = this.#journals.get(noteId);
    if (!journal) {
      if (before === null) return false;
      const text = before();
      const held = this.#pending.get(noteId);
      journal = {
        noteId,
        marks: [{ at: 0, text, id: null }],
        changes: [],
        weight: 0,
        length: text.length,
        fields: held ? fieldsOf(held) : null,
        typed: false,
        baseKept: null,
      };
      this.#journals.set(noteId, journal);
    }
    for (const change of changes) appendChange(journal, change);
    // The start is kept (see `#mirrorPending`, `write`) as typed on now: a save since moved the version on.
    if (journal.baseKept === null && fields) journal.fields = fields() ?? journal.fields;
    this.#unjournaled.add(noteId);
    this.#scheduleMirror();
    return journal.weight > JOURNAL_FOLD_WEIGHT;
  }

  /**
   * The textarea changed a note's text from `before` to `draft.body` (a key,
   * a paste, a cut). Up to `JOURNALED_TEXT_CHARS` this is `write`: the whole
   * text is mirrored on the key. A longer text is journaled instead, at the
   * cost of what changed rather than of the note: the one span that differs
   * (common start and end kept, one pass) joins the note's edit journal,
   * written to `localStorage` on the key (within `mirrorDelayMs` once it
   * weighs over `MAX_SYNC_MIRRORED_DRAFT_CHARS`), and folded into the
   * draft as the large-note editor's is. The text the journal starts from is
   * kept once where the next start finds it — mirrored whole, or over
   * `MAX_MIRRORED_DRAFT_CHARS` written to the core as this tab's draft —
   * when the journal starts and again after each save of the note (another
   * tab may save over the note): a crash then replays the journal on it and
   * gives back exactly the text typed.
   */
  typed(before: string, draft: NoteDraft): void {
    const noteId = draft.note_id;
    // A change with no note to belong to: nothing is recorded (nor half of it).
    if (noteId === '') return;
    let journal = this.#journals.get(noteId);
    if (draftSize(draft) <= JOURNALED_TEXT_CHARS) {
      // Small (again): the whole text is mirrored on the key; a journal would only add to it.
      if (journal?.typed) this.#dropJournal(noteId);
      this.write(draft);
      return;
    }
    if (journal && !endsAt(journal, before)) {
      // The text changed where the journal did not see it (a reload, another editor): start again from here.
      this.#dropJournal(noteId);
      journal = undefined;
    }
    if (!journal) {
      journal = {
        noteId,
        marks: [{ at: 0, text: before, id: null }],
        changes: [],
        weight: 0,
        length: before.length,
        fields: fieldsOf(draft),
        typed: true,
        baseKept: null,
      };
      this.#journals.set(noteId, journal);
    }
    journal.typed = true;
    const change = textChange(before, draft.body);
    if (change) {
      const last = journal.marks.at(-1)!;
      // No write depends on the text the previous key left (it has no id): this key may join its change.
      if (journal.marks.length > 1 && last.at === journal.changes.length && last.id === null)
        journal.marks.pop();
      appendChange(journal, change);
      this.#unjournaled.add(noteId);
    }
    this.mark(noteId, draft.body);
    this.write(draft);
    // As a small text is mirrored: a light journal goes out on the key itself (a killed tab then
    // loses nothing it showed), a heavier one within `mirrorDelayMs`.
    if (this.#unjournaled.has(noteId) && this.#journals.get(noteId) === journal) {
      if (journal.weight <= MAX_SYNC_MIRRORED_DRAFT_CHARS) this.#writeJournal(journal);
    }
  }

  /** The editor is handing `text` over: the newest text of the note's journal, should a write need its place. */
  mark(noteId: string, text: string): void {
    const journal = this.#journals.get(noteId);
    if (!journal) return;
    if (text.length !== journal.length) {
      this.#dropJournal(noteId);
      return;
    }
    const last = journal.marks.at(-1)!;
    if (last.at === journal.changes.length) {
      if (last.text !== text) {
        last.text = text;
        last.id = null;
      }
    } else {
      journal.marks.push({ at: journal.changes.length, text, id: null });
    }
    // Only the first, the newest and the last few a write depends on (with an id) can be needed;
    // more of those pile up only while writes are refused, and each holds a whole text.
    const newest = journal.marks.length - 1;
    const written = journal.marks.filter((mark, index) => index > 0 && index < newest && mark.id !== null);
    const kept = new Set(written.slice(-MAX_WRITTEN_MARKS));
    journal.marks = journal.marks.filter((mark, index) => index === 0 || index === newest || kept.has(mark));
  }

  /**
   * `text` is about to be stored in the note: its place in the journal is
   * written down first, so that after a crash the journal still finds a
   * text to start from, whichever of the save and the removal of the draft
   * that follows landed.
   */
  checkpoint(noteId: string, text: string): void {
    const journal = this.#journals.get(noteId);
    const mark = journal && this.#markOf(journal, text);
    if (!journal || !mark) return;
    mark.id ??= textId(mark.text);
    this.#writeJournal(journal);
  }

  /** `text` is stored in the note: the journal starts from it now (and goes when nothing was typed since). */
  saved(noteId: string, text: string): void {
    const journal = this.#journals.get(noteId);
    const mark = journal && this.#markOf(journal, text);
    if (journal && mark && this.#fold(journal, mark)) this.#startsFromNote(journal);
  }

  /** True while a note's draft lives only in this tab's memory (its last write was refused). */
  inMemoryOnly(noteId: string): boolean {
    return this.#failed.has(noteId);
  }

  /** True while a note's newest text is not written yet. */
  pending(noteId: string): boolean {
    return this.#pending.has(noteId);
  }

  /** Writes every pending draft now; resolves once they are written or refused. Never rejects. */
  flush(): Promise<void> {
    this.#clearTimers();
    const batch = [...this.#pending.values()];
    return this.#enqueue(async () => {
      for (const draft of batch) {
        // Superseded by newer text (written by a later flush) or removed meanwhile.
        if (this.#pending.get(draft.note_id) !== draft) continue;
        // Before the write can land: the journal must know this text by then, or lose its start.
        const journal = this.#journals.get(draft.note_id);
        const removals = this.#removals.get(draft.note_id) ?? 0;
        const mark = journal && this.#markOf(journal, draft.body);
        if (journal && mark) {
          mark.id ??= textId(mark.text);
          this.#writeJournal(journal);
        }
        try {
          await this.#backend.save({ tab_id: this.#tabId, ...draft });
        } catch (error) {
          if (this.#pending.get(draft.note_id) === draft) {
            this.#failed.add(draft.note_id);
            this.#onWriteFailed(draft.note_id, error);
          }
          continue;
        }
        this.#stored?.add(draft.note_id);
        if (journal && mark && this.#journals.get(draft.note_id) === journal && this.#fold(journal, mark)) {
          // The journal starts from the text the core now holds (unless a removal of the draft, asked
          // for meanwhile, follows): the start mirrored before is older, and moved over the core's at
          // the next start it would leave the journal nothing to fit.
          if ((this.#removals.get(draft.note_id) ?? 0) === removals) {
            this.#dropMirror(draft.note_id);
            journal.baseKept = 'core';
          }
        }
        if (this.#pending.get(draft.note_id) === draft) {
          this.#pending.delete(draft.note_id);
          // The core holds the newest text: the mirror would only be moved over it again.
          this.#dropMirror(draft.note_id);
        }
        if (this.#failed.delete(draft.note_id)) this.#onWritten(draft.note_id);
      }
    });
  }

  /**
   * This tab's draft of the note when it is known without asking the core:
   * the text not yet written, or null when the core holds none; undefined
   * when only `read()` can tell.
   */
  known(noteId: string): NoteDraft | null | undefined {
    const held = this.#pending.get(noteId);
    if (held) return held;
    return this.#stored && !this.#stored.has(noteId) ? null : undefined;
  }

  /** This tab's draft of the note: the text not yet written, else what the core holds. */
  async read(noteId: string): Promise<NoteDraft | null> {
    const known = this.known(noteId);
    if (known !== undefined) return known;
    await this.#queue;
    const again = this.#pending.get(noteId);
    if (again) return again;
    try {
      const stored = await this.#backend.get({ tab_id: this.#tabId, note_id: noteId });
      return stored && draftFrom(stored);
    } catch (error) {
      console.warn('NotesAgent: could not read the draft', error);
      return null;
    }
  }

  /**
   * Removes this tab's draft of the note; other tabs' drafts stay. With
   * `savedText` (what the note now holds), the note's journal starts from it
   * and keeps what was typed since; without, the text is dropped on purpose
   * and the journal goes as well.
   */
  remove(noteId: string, savedText?: string): Promise<void> {
    this.#removals.set(noteId, (this.#removals.get(noteId) ?? 0) + 1);
    this.#pending.delete(noteId);
    this.#failed.delete(noteId);
    this.#unmirrored.delete(noteId);
    this.#dropMirror(noteId);
    const journal = this.#journals.get(noteId);
    const mark = journal && savedText !== undefined ? this.#markOf(journal, savedText) : null;
    if (journal && mark && this.#fold(journal, mark)) this.#startsFromNote(journal);
    else if (!journal || !mark) this.#dropJournal(noteId);
    return this.removeDraft(this.#tabId, noteId);
  }

  /** Removes one tab's draft of a note (start-up recovery resolves other tabs' drafts). */
  removeDraft(tabId: string, noteId: string): Promise<void> {
    return this.#enqueue(async () => {
      try {
        await this.#backend.remove({ tab_id: tabId, note_id: noteId });
        if (tabId === this.#tabId) this.#stored?.delete(noteId);
      } catch (error) {
        // A stale draft is resolved (and discarded) at the next start.
        console.warn('NotesAgent: could not remove the draft', error);
      }
    });
  }

  /** Every tab's stored drafts (start-up recovery). */
  async list(): Promise<TabDraft[]> {
    await this.#queue;
    const stored = await this.#backend.list();
    this.#stored = new Set(stored.filter((row) => row.tab_id === this.#tabId).map((row) => row.note_id));
    return stored.flatMap((row) => {
      const draft = draftFrom(row);
      return draft ? [{ ...draft, tab_id: row.tab_id }] : [];
    });
  }

  /**
   * The page is going away: text not yet written goes to `localStorage`
   * synchronously (an asynchronous write would not outlive the page).
   */
  spill(): void {
    if (!this.#local) return;
    for (const noteId of this.#unjournaled) {
      const journal = this.#journals.get(noteId);
      if (journal) this.#writeJournal(journal);
    }
    this.#unjournaled.clear();
    for (const draft of this.#pending.values()) {
      if (draft.body.length + draft.title.length > MAX_STORED_DRAFT_CHARS) continue;
      // The journal, written just now, and its mirrored start hold this text already.
      if (this.#journaledWithMirror(draft)) continue;
      try {
        this.#local.setItem(draftKey(this.#tabId, draft.note_id), JSON.stringify(draft));
        const journal = this.#journals.get(draft.note_id);
        if (draftSize(draft) > MAX_MIRRORED_DRAFT_CHARS || journal) this.#spilled.add(draft.note_id);
        // The spill took the place of a mirrored start: it is kept again on the next change.
        if (journal?.baseKept === 'mirror') journal.baseKept = null;
      } catch {
        // Full: nothing more can be done while the page unloads.
      }
    }
  }

  /**
   * The page is back (from the back-forward cache): its drafts are written
   * from memory again. A spilled text the mirror would hold stays, as the
   * mirror (taking it away would leave a killed tab only the older text in
   * the core); a larger one goes, lest it come back over newer text, and so
   * does one a journal goes on from (moved into the core at the
   * next start, it would take the place of the text the journal starts from).
   */
  unspill(): void {
    if (!this.#local) return;
    for (const noteId of this.#spilled) {
      try {
        this.#local.removeItem(draftKey(this.#tabId, noteId));
      } catch {
        // A spill left behind is moved at the next start; the text in memory is newer and written after it.
      }
    }
    this.#spilled.clear();
  }

  /**
   * Moves drafts found in `localStorage` — spilled at an unload, or written by
   * versions that kept drafts there — into the core, removing each once it is
   * stored (one refused by a full storage waits for the next start).
   * Unreadable entries are removed. Returns how many moved.
   */
  async moveLocalDrafts(): Promise<number> {
    const local = this.#local;
    if (!local) return 0;
    const found: { key: string; tabId: string; draft: NoteDraft | null }[] = [];
    try {
      for (let index = 0; index < local.length; index += 1) {
        const key = local.key(index);
        if (key?.startsWith(DRAFT_KEY_PREFIX)) found.push({ key, ...localEntry(key, local.getItem(key)) });
      }
    } catch {
      return 0;
    }
    let moved = 0;
    for (const { key, tabId, draft } of found) {
      if (draft) {
        try {
          await this.#enqueue(() => this.#backend.save({ tab_id: tabId, ...draft }), true);
        } catch (error) {
          console.warn('NotesAgent: could not move a draft out of localStorage', error);
          continue;
        }
        moved += 1;
      }
      try {
        local.removeItem(key);
      } catch {
        // Moved already; a second move at the next start writes the same draft again.
      }
    }
    return moved;
  }

  /**
   * Replays the edit journals found in `localStorage` (a tab killed while
   * typing in a large note) into their tab's draft in the core: the changes
   * applied to whichever stored text the journal starts from, the tab's
   * draft or the note. Each leaves once its text is in the draft; one the
   * core refuses (full) waits for the next start. A journal that fits no
   * stored text, or cannot be read, is removed. Returns how many were replayed.
   */
  async recoverJournals(recovery: JournalRecovery): Promise<number> {
    const local = this.#local;
    if (!local) return 0;
    const found: { key: string; tabId: string; journal: StoredJournal | null }[] = [];
    try {
      for (let index = 0; index < local.length; index += 1) {
        const key = local.key(index);
        if (!key?.startsWith(JOURNAL_KEY_PREFIX)) continue;
        const journal = parseJournal(local.getItem(key));
        const rest = key.slice(JOURNAL_KEY_PREFIX.length);
        const tabId =
          journal && rest.endsWith(`.${journal.note_id}`) ? rest.slice(0, -journal.note_id.length - 1) : '';
        found.push({ key, tabId, journal: /^[\w-]{1,64}$/.test(tabId) ? journal : null });
      }
    } catch {
      return 0;
    }
    let replayed = 0;
    for (const { key, tabId, journal } of found) {
      if (journal) {
        const noteId = journal.note_id;
        // This tab's own journal is in memory and newer; another live tab is still writing its.
        if (tabId === this.#tabId && this.#journals.has(noteId)) continue;
        try {
          if (await recovery.skip(noteId)) continue;
          const held = await this.#backend.get({ tab_id: tabId, note_id: noteId });
          const note = await recovery.note(noteId);
          const stored = [held?.body, note?.body].filter((text): text is string => text !== undefined);
          const text = replayJournal(journal, stored);
          const fields = journal.fields ?? held ?? (note && { ...note, base_version: note.version });
          if (text === null || !fields) {
            console.warn(
              'NotesAgent: an edit journal fits no stored text; its draft stays as it was',
              noteId,
            );
          } else {
            const draft: TabDraft = {
              tab_id: tabId,
              note_id: noteId,
              title: fields.title,
              folder: fields.folder,
              tags: fields.tags,
              body: text,
              base_version: fields.base_version,
              saved_at: journal.saved_at,
            };
            await this.#enqueue(() => this.#backend.save(draft), true);
            replayed += 1;
          }
        } catch (error) {
          console.warn('NotesAgent: could not replay an edit journal', error);
          continue;
        }
      }
      try {
        local.removeItem(key);
      } catch {
        // Replayed already; replaying it again at the next start gives the same text.
      }
    }
    return replayed;
  }

  #scheduleMirror(): void {
    if (this.#mirrorTimer !== null) return;
    this.#mirrorTimer = this.#timers.set(() => {
      this.#mirrorTimer = null;
      this.#mirrorPending();
    }, this.#mirrorDelayMs);
  }

  /**
   * Mirrors the newest text of every note changed since the last mirror (text
   * already in the core needs none), and writes the journals changed since.
   * A large text without a journal (typed where no change list comes, like a
   * pasted-into textarea) goes to the core at once instead, one write at a time.
   */
  #mirrorPending(): void {
    for (const noteId of this.#unjournaled) {
      const journal = this.#journals.get(noteId);
      if (!journal) continue;
      // A start the mirror holds is kept with the journal's first write (not on the key: naming it
      // means hashing it). A longer one goes to the core once the text is handed over (`write`), in a
      // pause of typing: a write of megabytes while keys come would hold them up.
      if (fitsMirror(journal)) this.#keepBaseOnce(journal);
      this.#writeJournal(journal);
    }
    this.#unjournaled.clear();
    let unjournaledLarge = false;
    for (const noteId of this.#unmirrored) {
      const draft = this.#pending.get(noteId);
      if (!draft) continue;
      this.#mirror(draft);
      if (draftSize(draft) > MAX_MIRRORED_DRAFT_CHARS && !this.#journals.has(noteId)) unjournaledLarge = true;
    }
    this.#unmirrored.clear();
    if (unjournaledLarge) void this.flush();
  }

  /** Mirrors the draft to `localStorage`; false when it is not there (none, too large, or refused). */
  #mirror(draft: NoteDraft): boolean {
    if (!this.#local) return false;
    if (draftSize(draft) > MAX_MIRRORED_DRAFT_CHARS) {
      this.#dropMirror(draft.note_id);
      return false;
    }
    try {
      this.#local.setItem(draftKey(this.#tabId, draft.note_id), JSON.stringify(draft));
      return true;
    } catch {
      // Full or blocked: the text is still in memory and goes to the core after the pause.
      this.#dropMirror(draft.note_id);
      return false;
    }
  }

  /** Whether a journal in `localStorage` and its mirrored start lead to this draft's text. */
  #journaledWithMirror(draft: NoteDraft): boolean {
    const journal = this.#journals.get(draft.note_id);
    if (journal?.baseKept !== 'mirror' || !this.#markOf(journal, draft.body)) return false;
    try {
      return this.#local?.getItem(journalKey(this.#tabId, draft.note_id)) != null;
    } catch {
      return false;
    }
  }

  /** The place of `text` among the journal's marks (the newest first: the likeliest). */
  #markOf(journal: LiveJournal, text: string): LiveMark | null {
    for (let index = journal.marks.length - 1; index >= 0; index -= 1) {
      const mark = journal.marks[index]!;
      if (mark.text === text) return mark;
    }
    return null;
  }

  /**
   * `mark`'s text is stored (as the draft or the note): the journal starts
   * from it. With nothing typed since, it has nothing to add and leaves
   * `localStorage`; it stays in memory, its start known, for the next key.
   */
  #fold(journal: LiveJournal, mark: LiveMark): boolean {
    const index = journal.marks.indexOf(mark);
    if (index < 0) return false;
    const shift = mark.at;
    journal.marks = journal.marks.slice(index);
    for (const kept of journal.marks) kept.at -= shift;
    journal.changes = journal.changes.slice(shift);
    journal.weight = journal.changes.reduce((sum, change) => sum + changeWeight(change), 0);
    if (journal.changes.length === 0) {
      journal.marks = [mark];
      this.#unjournaled.delete(journal.noteId);
      this.#removeJournalKey(journal.noteId);
    } else {
      mark.id ??= textId(mark.text);
      this.#writeJournal(journal);
    }
    return true;
  }

  /**
   * The journal now starts from the text the note holds. Another tab may
   * save over the note, so that start is kept apart once more when
   * something is typed on it (at once if something was); with nothing typed
   * since, an older start kept before is stale and goes.
   */
  #startsFromNote(journal: LiveJournal): void {
    journal.baseKept = null;
    this.#dropMirror(journal.noteId);
    this.#keepBaseOnce(journal);
  }

  /** Keeps the journal's start (see `#keepBase`) if something is typed on it and it is not kept yet. */
  #keepBaseOnce(journal: LiveJournal): void {
    if (journal.baseKept === null && journal.changes.length > 0 && journal.fields)
      this.#keepBase(journal, journal.fields);
  }

  /**
   * Keeps the text a journal starts from where the next start
   * finds it: mirrored whole to `localStorage` (the journal written with
   * it, so the first key is as safe as its start), or, too long for that or
   * refused, written once to the core as this tab's draft — unless the
   * journal has moved on to a text the core holds by the time it is the
   * write's turn. A start over the core's bound on a draft is not written
   * (it would only be refused): such a journal fits the note only.
   */
  #keepBase(journal: LiveJournal, fields: JournalFields): void {
    const base = journal.marks[0]!;
    const kept: NoteDraft = {
      note_id: journal.noteId,
      title: fields.title,
      folder: fields.folder,
      tags: fields.tags,
      body: base.text,
      base_version: fields.base_version,
      saved_at: new Date().toISOString(),
    };
    if (this.#local && draftSize(kept) <= MAX_MIRRORED_DRAFT_CHARS) {
      try {
        this.#local.setItem(draftKey(this.#tabId, journal.noteId), JSON.stringify(kept));
        journal.baseKept = 'mirror';
        this.#writeJournal(journal);
        return;
      } catch {
        // Full: the core keeps it instead.
        this.#dropMirror(journal.noteId);
      }
    }
    if (draftSize(kept) > MAX_DRAFT_CHARS) return;
    journal.baseKept = 'core';
    base.id ??= textId(base.text);
    void this.#enqueue(async () => {
      if (this.#journals.get(journal.noteId) !== journal || journal.marks[0] !== base) return;
      try {
        await this.#backend.save({ tab_id: this.#tabId, ...kept });
        this.#stored?.add(journal.noteId);
      } catch (error) {
        // The journal still fits the note, as long as no other tab saves over it.
        console.warn('NotesAgent: could not keep the start of an edit journal', error);
      }
    });
  }

  /**
   * Writes the journal to `localStorage` now. Too heavy, or refused (full):
   * it leaves there, and the text goes to the core at once instead.
   */
  #writeJournal(journal: LiveJournal): void {
    this.#unjournaled.delete(journal.noteId);
    const local = this.#local;
    if (!local) return;
    if (journal.weight > MAX_JOURNAL_WEIGHT) {
      this.#removeJournalKey(journal.noteId);
      return;
    }
    const base = journal.marks[0]!;
    base.id ??= textId(base.text);
    const stored: StoredJournal = {
      v: 1,
      note_id: journal.noteId,
      marks: journal.marks.flatMap((mark) => (mark.id === null ? [] : [{ at: mark.at, id: mark.id }])),
      changes: journal.changes,
      fields: journal.fields,
      saved_at: new Date().toISOString(),
    };
    try {
      local.setItem(journalKey(this.#tabId, journal.noteId), JSON.stringify(stored));
    } catch {
      this.#removeJournalKey(journal.noteId);
      if (this.#pending.has(journal.noteId)) void this.flush();
    }
  }

  #dropJournal(noteId: string): void {
    if (!this.#journals.delete(noteId)) return;
    this.#unjournaled.delete(noteId);
    this.#removeJournalKey(noteId);
  }

  #removeJournalKey(noteId: string): void {
    try {
      this.#local?.removeItem(journalKey(this.#tabId, noteId));
    } catch {
      // Blocked storage: nothing was written either.
    }
  }

  #dropMirror(noteId: string): void {
    try {
      this.#local?.removeItem(draftKey(this.#tabId, noteId));
    } catch {
      // Blocked storage: nothing was mirrored either.
    }
  }

  #enqueue<T>(step: () => Promise<T>, rethrow = false): Promise<T> {
    const run = this.#queue.then(step);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return rethrow ? run : (run.catch(() => undefined) as Promise<T>);
  }

  #clearTimers(): void {
    if (this.#pause !== null) this.#timers.clear(this.#pause);
    if (this.#maxWait !== null) this.#timers.clear(this.#maxWait);
    this.#pause = null;
    this.#maxWait = null;
  }
}

function draftSize(draft: NoteDraft): number {
  return draft.body.length + draft.title.length;
}

/** Whether the journal's start, kept as a draft, is short enough for the `localStorage` mirror. */
function fitsMirror(journal: LiveJournal): boolean {
  return journal.marks[0]!.text.length + (journal.fields?.title.length ?? 0) <= MAX_MIRRORED_DRAFT_CHARS;
}

function fieldsOf(draft: NoteDraft): JournalFields {
  return { title: draft.title, folder: draft.folder, tags: draft.tags, base_version: draft.base_version };
}

/** Whether `text` is the newest text of the journal, as a textarea journal marks each one. */
function endsAt(journal: LiveJournal, text: string): boolean {
  const last = journal.marks.at(-1)!;
  return last.at === journal.changes.length && last.text.length === text.length && last.text === text;
}

/**
 * Adds a change to the journal. Typing goes on where the last change left
 * off, so a change inside the text the last one inserted joins it (one entry
 * per run of typing, not per key) — unless a write depends on the text
 * between the two.
 */
function appendChange(journal: LiveJournal, change: TextChange): void {
  journal.length += lengthDelta(change);
  const last = journal.changes.at(-1);
  const markedHere = journal.marks.at(-1)!.at === journal.changes.length;
  if (last && !markedHere && change.from >= last.from && change.to <= last.from + last.insert.length) {
    journal.weight -= changeWeight(last);
    const start = change.from - last.from;
    const merged = {
      from: last.from,
      to: last.to,
      insert: last.insert.slice(0, start) + change.insert + last.insert.slice(change.to - last.from),
    };
    journal.changes[journal.changes.length - 1] = merged;
    journal.weight += changeWeight(merged);
    return;
  }
  journal.changes.push({ from: change.from, to: change.to, insert: change.insert });
  journal.weight += changeWeight(change);
}

/** The tab and draft of a `localStorage` entry; null draft when unreadable or keyed under another note. */
function localEntry(key: string, text: string | null): { tabId: string; draft: NoteDraft | null } {
  const draft = parseDraft(text);
  const rest = key.slice(DRAFT_KEY_PREFIX.length);
  if (draft === null) return { tabId: LEGACY_TAB_ID, draft: null };
  if (rest === draft.note_id) return { tabId: LEGACY_TAB_ID, draft };
  const tabId = rest.endsWith(`.${draft.note_id}`) ? rest.slice(0, -draft.note_id.length - 1) : '';
  return /^[\w-]{1,64}$/.test(tabId) ? { tabId, draft } : { tabId: LEGACY_TAB_ID, draft: null };
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
