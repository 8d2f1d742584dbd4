/**
 * Code as a grid of columns, as an editor or terminal shows it: each character takes
 * one column, a wide (CJK, full-width) one two, tabs run to the next stop. Pure, so
 * the PDF layout only has to place cells.
 */

export interface CodeCell {
  text: string;
  /** 1, or 2 for a wide character. */
  columns: number;
  /** `#rrggbb` from the code theme; absent, the block's text colour. */
  color?: string;
}

/** A piece of a source line in one colour (a highlighted token). */
export interface CodeRun {
  text: string;
  color?: string;
}

export interface CodeLine {
  /** Columns left blank before the first cell: a wrapped line's hanging indent. */
  indent: number;
  cells: CodeCell[];
  /** A continuation of the line above, wrapped because it was too long. */
  continued: boolean;
}

export const TAB_SIZE = 4;

/** East Asian Wide and Fullwidth ranges (UAX #11), the ones a note is likely to hold. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

export function isWide(character: string): boolean {
  return WIDE.test(character);
}

/**
 * One source line as cells, its tabs expanded to spaces up to the next stop. Given
 * as runs, each cell keeps its run's colour (tab stops count across runs).
 */
export function codeCells(line: string | readonly CodeRun[]): CodeCell[] {
  const cells: CodeCell[] = [];
  let column = 0;
  for (const run of typeof line === 'string' ? [{ text: line }] : line) {
    const color = run.color !== undefined ? { color: run.color } : {};
    for (const character of run.text) {
      if (character === '\t') {
        const spaces = TAB_SIZE - (column % TAB_SIZE);
        for (let index = 0; index < spaces; index++) cells.push({ text: ' ', columns: 1, ...color });
        column += spaces;
      } else if (character !== '\r') {
        const columns = isWide(character) ? 2 : 1;
        cells.push({ text: character, columns, ...color });
        column += columns;
      }
    }
  }
  return cells;
}

function leadingColumns(cells: readonly CodeCell[]): number {
  let columns = 0;
  for (const cell of cells) {
    if (cell.text !== ' ') break;
    columns += 1;
  }
  return columns;
}

/** Whether a line may break before `cells[at]`: after a space, or next to a wide (CJK) character. */
function breakable(cells: readonly CodeCell[], at: number): boolean {
  const before = cells[at - 1];
  const after = cells[at];
  return before?.text === ' ' || (before?.columns ?? 1) > 1 || (after?.columns ?? 1) > 1;
}

/**
 * A source line broken to `width` columns. A continuation starts at the line's own
 * indent (at most half the width, so deep code still gets room), after the last
 * space or beside the last CJK character that fits, or mid-word where none does; the spaces stay at the end of the
 * piece before, so every character of the source is drawn exactly once.
 */
export function wrapCodeLine(line: string | readonly CodeRun[], width: number): CodeLine[] {
  const cells = codeCells(line);
  const hanging = Math.min(leadingColumns(cells), Math.floor(width / 2));
  const lines: CodeLine[] = [];
  let start = 0;
  let indent = 0;
  while (true) {
    const room = Math.max(1, width - indent);
    let end = start;
    let used = 0;
    while (end < cells.length && used + (cells[end]?.columns ?? 1) <= room) {
      used += cells[end]?.columns ?? 1;
      end += 1;
    }
    // A wide character wider than the room still goes on its own line.
    if (end === start && end < cells.length) end += 1;
    if (end < cells.length) {
      let breakAt = end;
      while (breakAt > start && !breakable(cells, breakAt)) breakAt -= 1;
      const blank = cells.slice(start, breakAt).every((cell) => cell.text === ' ');
      if (breakAt > start && !blank) end = breakAt;
      // The spaces a break falls among stay on this line rather than starting the next.
      while (end < cells.length && cells[end]?.text === ' ') end += 1;
    }
    lines.push({ indent, cells: cells.slice(start, end), continued: lines.length > 0 });
    if (end >= cells.length) return lines;
    start = end;
    indent = hanging;
  }
}
