import type { StateBlock } from 'markdown-it';

// markdown-it keeps per-line offsets in parallel arrays; with noUncheckedIndexedAccess
// every read is `number | undefined`, so block rules read them through these helpers.

/** Offset of the first non-indent character of `line`. */
export function lineStart(state: StateBlock, line: number): number {
  return (state.bMarks[line] ?? 0) + (state.tShift[line] ?? 0);
}

/** Offset just past the last character of `line` (before its newline). */
export function lineEnd(state: StateBlock, line: number): number {
  return state.eMarks[line] ?? 0;
}

/** The text of `line` without its indentation. */
export function lineText(state: StateBlock, line: number): string {
  return state.src.slice(lineStart(state, line), lineEnd(state, line));
}

/** True when `line` is indented enough to be an indented code block. */
export function isCodeIndented(state: StateBlock, line: number): boolean {
  return (state.sCount[line] ?? 0) - state.blkIndent >= 4;
}
