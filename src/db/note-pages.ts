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

/**
 * Rebuilds the start of a body from its first blocks: each block's text at
 * its `start_line`, the lines between blocks left empty.
 */
export function bodyFromBlocks(blocks: ReadonlyArray<{ text: string; start_line: number }>): string {
  let text = '';
  /** The line the text ends on. */
  let at = 0;
  for (const [index, block] of blocks.entries()) {
    if (index > 0 && block.start_line <= at) continue;
    text += '\n'.repeat(block.start_line - at) + block.text;
    at = block.start_line + countLines(block.text) - 1;
  }
  return text;
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
