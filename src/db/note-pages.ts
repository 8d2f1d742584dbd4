import type { NoteDto, NoteSummaryDto } from '../contracts';

/**
 * Reading many notes a page at a time, so that what a whole-notebook pass
 * (links, export, import de-duplication) holds at once is one page plus the
 * largest single note, never the notebook. Pages are planned from the meta
 * rows (lengths, no bodies), then only that page's bodies are read.
 */

/** Body characters a page holds at most (UTF-16 code units); a longer note comes alone. */
export const DEFAULT_PAGE_CHARS = 8 * 1024 * 1024;
/** Notes a page holds at most, however short. */
export const DEFAULT_PAGE_ROWS = 200;

export interface NotePageOptions {
  pageChars?: number;
  pageRows?: number;
  /**
   * Bodies longer than this come as their first blocks only, up to it and the
   * block that crosses it, at their own lines (see `PagedNote`); the rest of
   * the body is never read. Without it every body comes whole.
   */
  maxBodyChars?: number;
  /** Checked before each page: a cancelled pass stops between pages. */
  signal?: AbortSignal;
}

/**
 * A note read by a page loop. `body_complete` false: `body` holds only the
 * first blocks of a body of `body_length` characters, each at its own line
 * (lines between blocks are empty, front matter left out), so line-based
 * scans (wikilinks, their context line) see the same lines as in the note.
 */
export type PagedNote = NoteDto & { body_length: number; body_complete: boolean };

/** What a page loop hands its visitor; awaited before the next page is read. */
export type NotePageVisitor<T> = (page: T[]) => Promise<unknown> | unknown;

/**
 * Splits items into pages of at most `maxRows` items and `maxChars` summed
 * size, in order; an item larger than `maxChars` is a page of its own.
 */
export function planPages<T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  maxChars: number,
  maxRows: number,
): T[][] {
  const pages: T[][] = [];
  let page: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (page.length > 0 && (page.length >= maxRows || chars + size > maxChars)) {
      pages.push(page);
      page = [];
      chars = 0;
    }
    page.push(item);
    chars += size;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/** What planning a page needs of a note: a meta row or a summary has it. */
export interface PlannedNote {
  note_id: string;
  body_length: number;
}

/**
 * The pages a page loop reads, as note ids: sizes are looked up `pageRows` ids
 * at a time and each such slice is cut by `planPages`; missing notes are left
 * out. The repository and the services' test fake both page through this, so
 * a test pages exactly as the app does. The next page is planned once the
 * caller asks for it; a cancelled signal stops between pages.
 */
export async function* plannedNotePages(
  noteIds: readonly string[],
  sizesOf: (noteIds: string[]) => Promise<ReadonlyArray<PlannedNote | undefined>>,
  options: NotePageOptions = {},
): AsyncGenerator<string[]> {
  const rows = options.pageRows ?? DEFAULT_PAGE_ROWS;
  const chars = options.pageChars ?? DEFAULT_PAGE_CHARS;
  for (let start = 0; start < noteIds.length; start += rows) {
    options.signal?.throwIfAborted();
    const present = (await sizesOf(noteIds.slice(start, start + rows))).filter(
      (note): note is PlannedNote => note !== undefined,
    );
    for (const page of planPages(present, (note) => pagedSize(note, options.maxBodyChars), chars, rows)) {
      options.signal?.throwIfAborted();
      yield page.map((note) => note.note_id);
    }
  }
}

/**
 * Rebuilds the start of a body from its first blocks: each block's text at
 * its `start_line`, the lines between blocks left empty.
 */
export function bodyFromBlocks(blocks: ReadonlyArray<{ text: string; start_line: number }>): string {
  return rebuild(blocks, Infinity).body;
}

/**
 * The leading blocks whose rebuilt body (`bodyFromBlocks`) is at most
 * `maxChars` long, and that body: a copy of a long note that must fit a
 * bound ends at its last whole block within it.
 */
export function blocksWithin<T extends { text: string; start_line: number }>(
  blocks: readonly T[],
  maxChars: number,
): { blocks: T[]; body: string } {
  return rebuild(blocks, maxChars);
}

function rebuild<T extends { text: string; start_line: number }>(
  blocks: readonly T[],
  maxChars: number,
): { blocks: T[]; body: string } {
  const kept: T[] = [];
  let text = '';
  /** The line the text ends on. */
  let at = 0;
  for (const [index, block] of blocks.entries()) {
    if (index > 0 && block.start_line <= at) continue;
    const gap = block.start_line - at;
    if (text.length + gap + block.text.length > maxChars) break;
    text += '\n'.repeat(gap) + block.text;
    at = block.start_line + countLines(block.text) - 1;
    kept.push(block);
  }
  return { blocks: kept, body: text };
}

function countLines(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}

/** A summary's size in a page: the part of its body a page loop reads. */
export function pagedSize(summary: Pick<NoteSummaryDto, 'body_length'>, maxBodyChars?: number): number {
  return maxBodyChars === undefined ? summary.body_length : Math.min(summary.body_length, maxBodyChars);
}
