import { readableText } from './markdown/readable-text';

/**
 * The section a block sits in: the headings above it, outermost first, as a
 * reader sees them ("Scheduling › Round robin"). A paragraph under a heading
 * rarely repeats the heading's words, so search adds them to what it matches
 * and the model is told where a passage comes from.
 */

/** What a heading path needs of a block: a block read without its level has none. */
export interface OutlineBlock {
  type: string;
  text: string;
  level?: number;
}

export const HEADING_PATH_SEPARATOR = ' \u203A ';

/**
 * For each block, the headings it is under (a heading's own path is its
 * parents'). A heading closes every section of its level or deeper; a heading
 * with no words closes them too but adds nothing to the path.
 */
export function headingPaths(blocks: readonly OutlineBlock[]): string[][] {
  const open: Array<{ level: number; title: string }> = [];
  return blocks.map((block) => {
    if (block.type !== 'heading') return titlesOf(open);
    const level = headingLevel(block);
    while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
    const parents = titlesOf(open);
    open.push({ level, title: headingTitle(block.text) });
    return parents;
  });
}

/** The path as one line, '' for a block under no heading. */
export function headingPathText(path: readonly string[]): string {
  return path.join(HEADING_PATH_SEPARATOR);
}

/** A heading's words as the preview shows them, on one line. */
export function headingTitle(markdown: string): string {
  return readableText(markdown).replace(/\s+/g, ' ').trim();
}

function titlesOf(open: ReadonlyArray<{ title: string }>): string[] {
  return open.flatMap(({ title }) => (title === '' ? [] : [title]));
}

/** The stored level, or read from the Markdown: `#`s for an ATX heading, `=` (1) or `-` (2) under a setext one. */
function headingLevel(block: OutlineBlock): number {
  if (block.level !== undefined) return block.level;
  const hashes = /^ {0,3}(#{1,6})(?:\s|$)/.exec(block.text);
  if (hashes) return hashes[1]!.length;
  return /\n *-+ *$/.test(block.text) ? 2 : 1;
}
