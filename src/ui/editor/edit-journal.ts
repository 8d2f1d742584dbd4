import type { TextChange } from './text-change';

/**
 * The edit journal of a large note: what a tab typed since a text that is
 * stored somewhere (its draft in the core, or the note itself), as the list
 * of changes, small enough to write to `localStorage` a moment after each
 * key. Rewriting megabytes that often would cost the typist; a change costs
 * what was typed. After a crash the changes are replayed on whichever stored
 * text the journal names, which gives back the text exactly.
 *
 * A text is named by its length and a 64-bit hash, so replay needs no
 * promise about which write landed last: a journal lists the texts it knows
 * the position of (`marks`: where the changes started, and each text handed
 * to a write since), and replay starts from the latest one still stored.
 */

export const JOURNAL_KEY_PREFIX = 'notesagent.journal.';

export function journalKey(tabId: string, noteId: string): string {
  return `${JOURNAL_KEY_PREFIX}${tabId}.${noteId}`;
}

/** Length and hash of a text: enough to tell it from the other texts a note has had. */
export interface TextId {
  length: number;
  hash: string;
}

/** Two independent 32-bit FNV-1a hashes over the UTF-16 code units (one pass, no allocation). */
export function textId(text: string): TextId {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return {
    length: text.length,
    hash: (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0'),
  };
}

export function sameTextId(left: TextId, right: TextId): boolean {
  return left.length === right.length && left.hash === right.hash;
}

/** A text whose place in the journal is known: `changes.slice(at)` turn it into the newest text. */
export interface JournalMark {
  at: number;
  id: TextId;
}

/** The note's other fields as last typed (small: written whole each time). */
export interface JournalFields {
  title: string;
  folder: string;
  tags: string[];
  base_version: number;
}

export interface StoredJournal {
  v: 1;
  note_id: string;
  /** In order of `at`; the first is where the changes start (`at` 0). */
  marks: JournalMark[];
  /** Applied one after another: each change's offsets are in the text the previous one left. */
  changes: TextChange[];
  fields: JournalFields | null;
  saved_at: string;
}

/** What a change weighs in storage: what it inserts, and a little for its offsets. */
export function changeWeight(change: TextChange): number {
  return change.insert.length + 24;
}

/** How much a change moves the text's length. */
export function lengthDelta(change: TextChange): number {
  return change.insert.length - (change.to - change.from);
}

/** The text after `changes`, applied in order; null when one does not fit the text (a journal of another text). */
export function applyChanges(text: string, changes: readonly TextChange[]): string | null {
  let result = text;
  for (const change of changes) {
    if (change.from < 0 || change.to < change.from || change.to > result.length) return null;
    result = result.slice(0, change.from) + change.insert + result.slice(change.to);
  }
  return result;
}

/**
 * The newest text of a journal, from the stored texts found for its note
 * (this tab's draft, the note's body): the latest mark one of them matches,
 * with the changes after it applied. Null when none matches.
 */
export function replayJournal(journal: StoredJournal, stored: readonly string[]): string | null {
  const ids = stored.map((text) => ({ text, id: textId(text) }));
  for (let index = journal.marks.length - 1; index >= 0; index -= 1) {
    const mark = journal.marks[index]!;
    const found = ids.find((candidate) => sameTextId(candidate.id, mark.id));
    if (found) return applyChanges(found.text, journal.changes.slice(mark.at));
  }
  return null;
}

function isTextId(value: unknown): value is TextId {
  const id = value as TextId;
  return (
    typeof value === 'object' &&
    value !== null &&
    Number.isInteger(id.length) &&
    id.length >= 0 &&
    typeof id.hash === 'string' &&
    /^[0-9a-f]{16}$/.test(id.hash)
  );
}

function isChange(value: unknown): value is TextChange {
  const change = value as TextChange;
  return (
    typeof value === 'object' &&
    value !== null &&
    Number.isInteger(change.from) &&
    Number.isInteger(change.to) &&
    change.from >= 0 &&
    change.to >= change.from &&
    typeof change.insert === 'string'
  );
}

function isFields(value: unknown): value is JournalFields {
  const fields = value as JournalFields;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof fields.title === 'string' &&
    typeof fields.folder === 'string' &&
    Array.isArray(fields.tags) &&
    fields.tags.every((tag) => typeof tag === 'string') &&
    Number.isInteger(fields.base_version)
  );
}

/** Stored JSON read back; undefined when absent or unreadable (a tab killed mid-write, another app's key). */
export function readStoredJson(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A journal read back from storage; null when unreadable or of another shape. */
export function parseJournal(text: string | null): StoredJournal | null {
  const value = readStoredJson(text);
  if (typeof value !== 'object' || value === null) return null;
  const journal = value as Record<string, unknown>;
  if (
    journal.v !== 1 ||
    typeof journal.note_id !== 'string' ||
    typeof journal.saved_at !== 'string' ||
    !Array.isArray(journal.marks) ||
    journal.marks.length === 0 ||
    !Array.isArray(journal.changes) ||
    !journal.changes.every(isChange) ||
    !(journal.fields === null || isFields(journal.fields))
  )
    return null;
  const marks = journal.marks as unknown[];
  let previous = -1;
  for (const mark of marks) {
    const { at, id } = mark as { at?: unknown; id?: unknown };
    if (typeof at !== 'number' || !Number.isInteger(at) || at <= previous || at > journal.changes.length)
      return null;
    if (!isTextId(id)) return null;
    previous = at;
  }
  if ((marks[0] as JournalMark).at !== 0) return null;
  return {
    v: 1,
    note_id: journal.note_id,
    marks: marks as JournalMark[],
    changes: journal.changes as TextChange[],
    fields: journal.fields as JournalFields | null,
    saved_at: journal.saved_at,
  };
}
