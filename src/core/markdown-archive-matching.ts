import { contentHash } from './content-hash';

/**
 * How an imported note is known again by its text alone, when its title no
 * longer says so (the note was renamed in the app after the first import).
 *
 * A body stands for a note only when it is long enough to be that note's own
 * words: empty notes, "TODO" and a bare heading are shared by unrelated notes,
 * so below this many non-blank characters the text is no key at all.
 */
export const MIN_MATCHING_BODY_CHARS = 24;

const BLANK = /\s/u;

/** Non-blank characters (code points) up to `enough`: a long body is not counted to its end. */
function nonBlankAtLeast(body: string, enough: number): boolean {
  let count = 0;
  for (const char of body) {
    if (BLANK.test(char)) continue;
    count += 1;
    if (count >= enough) return true;
  }
  return false;
}

/**
 * The key a note's text has within its folder, or null where the text is too
 * short to tell notes apart. The title is no part of it: that is what a rename
 * changes. The folder is: the same paragraph in two folders is two notes.
 */
export function bodyMatchKey(folder: string, body: string): string | null {
  if (!nonBlankAtLeast(body, MIN_MATCHING_BODY_CHARS)) return null;
  // The body hashed on its own: a note of 100 MB is not copied into a longer string first.
  return contentHash(`${folder}\u0000${contentHash(body)}`);
}

/**
 * Folder and body length: a cheap first sieve (from a note's summary, without
 * its body) for the notes whose body key can equal an archive note's.
 */
export function bodyShapeKey(folder: string, bodyLength: number): string {
  return `${bodyLength}\u0000${folder}`;
}

/**
 * The pairs a text key makes between archive notes and notebook notes, key to
 * note id: only a key held by exactly one archive note and exactly one
 * notebook note. Two files with one text (copies, templates), or two notes
 * with one text, are left to the other rules: guessing which is which would
 * merge notes the user keeps apart. Null keys (texts too short) pair nothing.
 */
export function uniqueKeyPairs(
  archiveKeys: Iterable<string | null>,
  notebook: Iterable<{ note_id: string; key: string | null }>,
): Map<string, string> {
  const inArchive = new Map<string, number>();
  for (const key of archiveKeys) if (key !== null) inArchive.set(key, (inArchive.get(key) ?? 0) + 1);
  /** The one note holding each key the archive holds once; null where two notes hold it. */
  const held = new Map<string, string | null>();
  for (const { note_id, key } of notebook) {
    if (key === null || inArchive.get(key) !== 1) continue;
    held.set(key, held.has(key) && held.get(key) !== note_id ? null : note_id);
  }
  const pairs = new Map<string, string>();
  for (const [key, noteId] of held) if (noteId !== null) pairs.set(key, noteId);
  return pairs;
}

/**
 * The paths of an archive that name the note they were last imported into,
 * path to note id: only a row whose note is live counts (a note in the trash
 * or deleted is no longer the file's), and a note is claimed by one path.
 */
export function originPairs(
  rows: Iterable<{ note_id: string; source_path: string }>,
  live: ReadonlySet<string>,
): Map<string, string> {
  const pairs = new Map<string, string>();
  const taken = new Set<string>();
  for (const { note_id, source_path } of rows) {
    if (!live.has(note_id) || taken.has(note_id) || pairs.has(source_path)) continue;
    pairs.set(source_path, note_id);
    taken.add(note_id);
  }
  return pairs;
}

/** A note's title, folder and body (as a `contentHash`): what an import compares. */
export interface NoteShape {
  title: string;
  folder: string;
  body_hash: string;
}

/**
 * Whether a file differs from its note in a way "update" is there for,
 * judged against the note as it was last imported from that file
 * (`imported`): a different text, whichever side edited it; a title or
 * folder only where the vault changed it since. A rename or a move made
 * here alone is no change of the file's: updating would only undo it.
 * Without a record of the import, any difference counts.
 */
export function reimportDiffers(here: NoteShape, there: NoteShape, imported: NoteShape | null): boolean {
  const changedThere = (part: 'title' | 'folder'): boolean =>
    there[part] !== here[part] && (imported === null || there[part] !== imported[part]);
  return there.body_hash !== here.body_hash || changedThere('title') || changedThere('folder');
}
