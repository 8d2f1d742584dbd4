/**
 * A line-based unified diff (`diff -u` format) for the results of note
 * writes, so the trace and the user see exactly what a tool changed. Common
 * head and tail are trimmed first; the changed middle is diffed with an LCS
 * table, or replaced wholesale when it is too large for one.
 */

const CONTEXT_LINES = 3;
const MAX_LCS_CELLS = 2_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string; oldLine: number; newLine: number };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function middleOps(before: string[], after: string[], oldStart: number, newStart: number): Op[] {
  const n = before.length;
  const m = after.length;
  if (n * m > MAX_LCS_CELLS) {
    return [
      ...before.map((line, i) => ({ kind: '-' as const, line, oldLine: oldStart + i, newLine: newStart })),
      ...after.map((line, j) => ({ kind: '+' as const, line, oldLine: oldStart + n, newLine: newStart + j })),
    ];
  }
  // lengths[i][j]: LCS of before[i..] and after[j..]
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = lengths[i] as Uint32Array;
    const below = lengths[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--) {
      row[j] = before[i] === after[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const here = (r: number, c: number) => lengths[r]?.[c] ?? 0;
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: ' ', line: before[i] ?? '', oldLine: oldStart + i, newLine: newStart + j });
      i += 1;
      j += 1;
    } else if (i < n && (j >= m || here(i + 1, j) >= here(i, j + 1))) {
      // Deletions before insertions, as `diff -u` prints them.
      ops.push({ kind: '-', line: before[i] ?? '', oldLine: oldStart + i, newLine: newStart + j });
      i += 1;
    } else {
      ops.push({ kind: '+', line: after[j] ?? '', oldLine: oldStart + i, newLine: newStart + j });
      j += 1;
    }
  }
  return ops;
}

/** `--- a/<name>` / `+++ b/<name>` and `@@` hunks; '' when nothing changed. */
export function unifiedDiff(before: string, after: string, name = 'note.md'): string {
  const oldLines = splitLines(before);
  const newLines = splitLines(after);
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head += 1;
  let tail = 0;
  while (
    tail < oldLines.length - head &&
    tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) {
    tail += 1;
  }
  if (head === oldLines.length && head === newLines.length) return '';

  const ops: Op[] = [
    ...oldLines.slice(0, head).map((line, k) => ({ kind: ' ' as const, line, oldLine: k, newLine: k })),
    ...middleOps(
      oldLines.slice(head, oldLines.length - tail),
      newLines.slice(head, newLines.length - tail),
      head,
      head,
    ),
    ...oldLines.slice(oldLines.length - tail).map((line, k) => ({
      kind: ' ' as const,
      line,
      oldLine: oldLines.length - tail + k,
      newLine: newLines.length - tail + k,
    })),
  ];

  // Group changes with up to 3 lines of context, merging hunks that touch.
  const hunks: Array<[number, number]> = [];
  ops.forEach((op, index) => {
    if (op.kind === ' ') return;
    const start = Math.max(0, index - CONTEXT_LINES);
    const end = Math.min(ops.length - 1, index + CONTEXT_LINES);
    const last = hunks.at(-1);
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else hunks.push([start, end]);
  });

  const lines = [`--- a/${name}`, `+++ b/${name}`];
  for (const [start, end] of hunks) {
    const slice = ops.slice(start, end + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    const first = slice[0] as Op;
    const oldStart = oldCount === 0 ? first.oldLine : first.oldLine + 1;
    const newStart = newCount === 0 ? first.newLine : first.newLine + 1;
    lines.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of slice) lines.push(`${op.kind}${op.line}`);
  }
  return `${lines.join('\n')}\n`;
}
