import { MAX_INDEXED_CHARS_PER_NOTE } from '../../contracts/note-limits';
import type { NoteSummaryDto } from '../../contracts/notes';

const MIB = 1024 * 1024;

/**
 * From this length on a row says how large its note is: only notes far past
 * anything typed by hand (a pasted log, a database from before the size limits).
 */
export const NOTE_SIZE_SHOWN_FROM = MIB;

/** MiB with one decimal, as people read file sizes (the body limits are counted the same way). */
export function mibText(characters: number): string {
  return (characters / MIB).toFixed(1);
}

/** The size a row shows, or null for a note of ordinary length. */
export function shownSize(note: Pick<NoteSummaryDto, 'body_length'>): string | null {
  return note.body_length >= NOTE_SIZE_SHOWN_FROM ? mibText(note.body_length) : null;
}

/** The listed notes that search reads only in part (longer than the indexer's cap), in list order. */
export function notesSearchedInPart(
  rows: ReadonlyArray<NoteSummaryDto | undefined>,
  cap: number = MAX_INDEXED_CHARS_PER_NOTE,
): NoteSummaryDto[] {
  return rows.filter((row): row is NoteSummaryDto => row !== undefined && row.body_length > cap);
}
