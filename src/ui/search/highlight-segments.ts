import type { HighlightRangeDto } from '../../contracts/search';

export interface TextSegment {
  text: string;
  marked: boolean;
}

/**
 * Splits a snippet into plain and marked runs, for `{#each}` with `<mark>`:
 * note text is never turned into HTML. Ranges that are out of order,
 * overlapping or outside the text are tolerated (clamped and merged).
 */
export function highlightSegments(text: string, ranges: readonly HighlightRangeDto[]): TextSegment[] {
  const sorted = ranges
    .map((range) => ({
      start: clamp(Math.min(range.start, range.end), text.length),
      end: clamp(Math.max(range.start, range.end), text.length),
    }))
    .filter((range) => range.end > range.start)
    .sort((a, b) => a.start - b.start);
  const segments: TextSegment[] = [];
  let at = 0;
  for (const range of sorted) {
    const start = Math.max(range.start, at);
    if (range.end <= start) continue;
    if (start > at) segments.push({ text: text.slice(at, start), marked: false });
    const last = segments[segments.length - 1];
    if (last?.marked && start === at) last.text += text.slice(start, range.end);
    else segments.push({ text: text.slice(start, range.end), marked: true });
    at = range.end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marked: false });
  return segments;
}

function clamp(value: number, length: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.min(length, Math.trunc(value))) : 0;
}
