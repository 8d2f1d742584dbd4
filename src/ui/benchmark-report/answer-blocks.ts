import type { BenchmarkBlockChoiceDto } from '../../contracts/benchmark';

/**
 * The blocks "Benchmark my notes" offers as a case's expected answer. Search
 * reads a heading with its section and never returns the bare heading, so a
 * case expecting one could never be hit: headings are not offered. They still
 * say where a block sits, as the name of the group of blocks under them.
 *
 * The picker gets each block as its label only (the start of its Markdown,
 * whitespace folded), so a heading is told by its marker: `#`… followed by a
 * space (ATX), or a line underlined with `=` or `-` (setext).
 */

/** The blocks under one heading path; `section` is null before the note's first heading. */
export interface AnswerGroup {
  section: string | null;
  blocks: BenchmarkBlockChoiceDto[];
}

/** As search names a section ("Scheduling › Round robin"). */
export const SECTION_SEPARATOR = ' \u203A ';

const ATX = /^(#{1,6})(?:\s+(.*?))?(?:\s+#+)?$/u;
const SETEXT = /^(.*\S)\s+(=+|-+)$/u;

/** A heading's level and words when the label is one; null for any other block. */
export function headingOfLabel(label: string): { level: number; title: string } | null {
  const atx = ATX.exec(label);
  if (atx) return { level: atx[1]!.length, title: (atx[2] ?? '').trim() };
  const setext = SETEXT.exec(label);
  // A list item or a quote that happens to end in dashes is no heading.
  if (setext && !/^([-*+>]|\d+[.)])\s/u.test(label)) {
    return { level: setext[2]!.startsWith('=') ? 1 : 2, title: setext[1]!.trim() };
  }
  return null;
}

/**
 * The note's blocks in note order, grouped by the heading path they sit
 * under, headings themselves left out; a heading with nothing under it before
 * the next makes no group. A heading closes every section of its level or
 * deeper; one with no words closes them and names nothing.
 */
export function answerGroups(items: readonly BenchmarkBlockChoiceDto[]): AnswerGroup[] {
  const open: Array<{ level: number; title: string }> = [];
  const groups: AnswerGroup[] = [];
  let current: AnswerGroup = { section: null, blocks: [] };
  for (const item of items) {
    const heading = headingOfLabel(item.label);
    if (heading === null) {
      current.blocks.push(item);
      continue;
    }
    if (current.blocks.length > 0) groups.push(current);
    while (open.length > 0 && open[open.length - 1]!.level >= heading.level) open.pop();
    open.push(heading);
    const path = open.flatMap(({ title }) => (title === '' ? [] : [title]));
    current = { section: path.length === 0 ? null : path.join(SECTION_SEPARATOR), blocks: [] };
  }
  if (current.blocks.length > 0) groups.push(current);
  return groups;
}
