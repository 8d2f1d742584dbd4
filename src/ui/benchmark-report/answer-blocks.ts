import type { BenchmarkBlockChoiceDto } from '../../contracts/benchmark';

/**
 * The blocks "Benchmark my notes" offers as a case's expected answer: those
 * the core marks answerable. Headings are not (search reads a heading with its
 * section and never returns it alone), nor are blocks with nothing to ask
 * about (only tags, a lone image, a rule). Headings still say where a block
 * sits, as the name of the group of blocks under them; they are told by the
 * type the core's parser gave them, never by a `#` in their text.
 */

/** The blocks under one heading path; `section` is null before the note's first heading. */
export interface AnswerGroup {
  section: string | null;
  blocks: BenchmarkBlockChoiceDto[];
}

/** As search names a section ("Scheduling › Round robin"). */
export const SECTION_SEPARATOR = ' \u203A ';

/**
 * The note's answerable blocks in note order, grouped by the heading path
 * they sit under; a heading with nothing answerable under it before the next
 * makes no group. A heading closes every section of its level or deeper; one
 * with no words closes them and names nothing.
 */
export function answerGroups(items: readonly BenchmarkBlockChoiceDto[]): AnswerGroup[] {
  const open: Array<{ level: number; title: string }> = [];
  const groups: AnswerGroup[] = [];
  let current: AnswerGroup = { section: null, blocks: [] };
  for (const item of items) {
    if (item.type !== 'heading') {
      if (item.answerable) current.blocks.push(item);
      continue;
    }
    const level = item.level ?? 1;
    if (current.blocks.length > 0) groups.push(current);
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
    open.push({ level, title: item.label.trim() });
    const path = open.flatMap(({ title }) => (title === '' ? [] : [title]));
    current = { section: path.length === 0 ? null : path.join(SECTION_SEPARATOR), blocks: [] };
  }
  if (current.blocks.length > 0) groups.push(current);
  return groups;
}
