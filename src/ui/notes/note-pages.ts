import type { NoteSummaryDto } from '../../contracts/notes';
import { sameTags } from '../../core/tag-lists';

/**
 * The note list as the screen sees it: one slot per note in the notebook's
 * order, filled page by page as rows scroll into view. An empty slot is a row
 * whose page has not arrived yet.
 */
export type NoteRows = ReadonlyArray<NoteSummaryDto | undefined>;

/** The pages that hold these row indexes, ascending, always with the first page. */
export function pagesOf(indexes: Iterable<number>, pageSize: number): number[] {
  const pages = new Set<number>([0]);
  for (const index of indexes) pages.add(Math.floor(index / pageSize));
  return [...pages].sort((a, b) => a - b);
}

/** A fresh list of `total` slots holding the given pages (keyed by page number). */
export function rowsFromPages(
  pages: ReadonlyMap<number, readonly NoteSummaryDto[]>,
  total: number,
  pageSize: number,
): NoteRows {
  const rows = new Array<NoteSummaryDto | undefined>(total).fill(undefined);
  for (const [page, items] of pages) placeInto(rows, page * pageSize, items);
  return rows;
}

/** The rows with one more page in its place. */
export function withPage(
  rows: NoteRows,
  page: number,
  items: readonly NoteSummaryDto[],
  pageSize: number,
): NoteRows {
  const next = rows.slice();
  placeInto(next, page * pageSize, items);
  return next;
}

function placeInto(
  rows: Array<NoteSummaryDto | undefined>,
  offset: number,
  items: readonly NoteSummaryDto[],
): void {
  const end = Math.min(rows.length, offset + items.length);
  for (let index = offset; index < end; index += 1) rows[index] = items[index - offset];
}

/**
 * The same order with newer copies of the notes that `fresh` holds: a save
 * refreshes what a row says without moving any row. Unchanged when nothing
 * differs, so the list does not re-render for nothing.
 */
export function refreshedInPlace(rows: NoteRows, fresh: ReadonlyMap<string, NoteSummaryDto>): NoteRows {
  let next: Array<NoteSummaryDto | undefined> | null = null;
  rows.forEach((row, index) => {
    if (!row) return;
    const newer = fresh.get(row.note_id);
    if (!newer || sameSummary(row, newer)) return;
    next ??= rows.slice();
    next[index] = newer;
  });
  return next ?? rows;
}

/** Whether the rows shown at these pages are not the notes the notebook now has there. */
export function orderDiffers(
  rows: NoteRows,
  pages: ReadonlyMap<number, readonly NoteSummaryDto[]>,
  pageSize: number,
): boolean {
  for (const [page, items] of pages) {
    const offset = page * pageSize;
    for (let index = 0; index < items.length; index += 1) {
      const shown = rows[offset + index];
      if (shown && shown.note_id !== items[index]!.note_id) return true;
    }
  }
  return false;
}

/** Row indexes among `indexes` whose page has not arrived. */
export function holes(rows: NoteRows, indexes: Iterable<number>): number[] {
  const missing: number[] = [];
  for (const index of indexes) if (index < rows.length && rows[index] === undefined) missing.push(index);
  return missing;
}

function sameSummary(a: NoteSummaryDto, b: NoteSummaryDto): boolean {
  return (
    a.version === b.version &&
    a.updated_at === b.updated_at &&
    a.title === b.title &&
    a.excerpt === b.excerpt &&
    a.body_length === b.body_length &&
    a.folder === b.folder &&
    (a.pinned ?? false) === (b.pinned ?? false) &&
    sameTags(a.tags, b.tags)
  );
}
