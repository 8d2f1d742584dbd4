import type { HighlightRange } from './full-text-index';

export interface Snippet {
  text: string;
  /** The ranges that fall inside the window, as offsets into `text`. */
  highlights: HighlightRange[];
  /** The window starts after the block's start / ends before its end. */
  cut_start: boolean;
  cut_end: boolean;
}

/** How much of the window goes before the first match, so the match has some lead-in. */
const LEAD_FRACTION = 0.25;

/**
 * A window of at most `maxLength` UTF-16 units of a block's text around its
 * first highlight, with the highlights moved into the window. A window never
 * splits a surrogate pair, so an emoji or a rare CJK character stays whole.
 */
export function makeSnippet(text: string, highlights: readonly HighlightRange[], maxLength: number): Snippet {
  if (text.length <= maxLength) {
    return { text, highlights: clip(highlights, 0, text.length), cut_start: false, cut_end: false };
  }
  const anchor = highlights[0]?.start ?? 0;
  let start = Math.max(0, anchor - Math.floor(maxLength * LEAD_FRACTION));
  let end = Math.min(text.length, start + maxLength);
  start = Math.max(0, end - maxLength);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start += 1;
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end -= 1;
  return {
    text: text.slice(start, end),
    highlights: clip(highlights, start, end),
    cut_start: start > 0,
    cut_end: end < text.length,
  };
}

function clip(highlights: readonly HighlightRange[], start: number, end: number): HighlightRange[] {
  const clipped: HighlightRange[] = [];
  for (const range of highlights) {
    const from = Math.max(range.start, start);
    const to = Math.min(range.end, end);
    if (to > from) clipped.push({ start: from - start, end: to - start });
  }
  return clipped;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
