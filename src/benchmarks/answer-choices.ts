import { BENCHMARK_BLOCK_TYPES, type BenchmarkBlockType } from '../contracts/benchmark';
import { inlineTags } from '../core/inline-tags';
import { tagKey } from '../core/tag-key';

/**
 * What the "benchmark my notes" picker is told of a block besides its id: its
 * type (the parser's, so no heading is guessed from a `#`), a heading's level
 * and words, and whether a case may expect it at all.
 */

/** How much of a block is looked at to tell whether it has anything to ask about: a block can be megabytes. */
const ANSWER_WINDOW = 4096;

/** The stored type, or `paragraph` for one this build does not know (another build's rows). */
export function choiceType(type: string): BenchmarkBlockType {
  return (BENCHMARK_BLOCK_TYPES as readonly string[]).includes(type)
    ? (type as BenchmarkBlockType)
    : 'paragraph';
}

const ATX_OPEN = /^ {0,3}(#{1,6})(?=\s|$)/u;

/**
 * A heading block's level: the count of an ATX heading's `#`, or 1 for a
 * setext heading underlined with `=` and 2 with `-`. For text the parser
 * typed as a heading only.
 */
export function headingLevel(text: string): number {
  const atx = ATX_OPEN.exec(text);
  if (atx) return atx[1]!.length;
  const lastLine =
    text
      .trimEnd()
      .split(/\r\n|\n|\r/u)
      .at(-1) ?? '';
  return lastLine.trim().startsWith('=') ? 1 : 2;
}

/** A heading block's words: without its `#` marker and closing run, or its setext underline. */
export function headingWords(text: string): string {
  const lines = text.trimEnd().split(/\r\n|\n|\r/u);
  if (ATX_OPEN.test(lines[0] ?? '')) {
    return (lines[0] ?? '')
      .replace(ATX_OPEN, '')
      .replace(/(?:^|\s)#+\s*$/u, '')
      .trim();
  }
  return lines.slice(0, -1).join(' ').trim();
}

/** Syntax that holds no words of its own: images (Markdown, wiki embeds, HTML), empty links, fences and markers. */
const IMAGE = /!\[[^\]]*\]\([^)]*\)|!\[\[[^\]]*\]\]|<img\b[^>]*>/giu;
const EMPTY_LINK = /\[\s*\]\([^)]*\)/gu;
const FENCE_LINE = /^ {0,3}(?:`{3,}|~{3,}).*$/gmu;
const MATH_DELIMITER = /\$\$|\\\[|\\\]/gu;
const WORD = /[\p{L}\p{N}]/u;

/** Whether the text has a letter or digit once its inline tags and images are taken out. */
function hasWords(text: string): boolean {
  let rest = text.replace(IMAGE, ' ').replace(EMPTY_LINK, ' ');
  const tags = new Set(inlineTags(rest).map(tagKey));
  if (tags.size > 0) {
    // Only what the note's own parser calls a tag: `#include` in a code span stays.
    rest = rest.replace(/#([\p{L}\p{M}\p{N}_\-/]+)/gu, (whole, name: string) =>
      tags.has(tagKey(name)) ? ' ' : whole,
    );
  }
  return WORD.test(rest);
}

/**
 * Whether a case may expect the block. A heading may not (search returns it
 * with its section, never alone), nor may a rule or a block with no words
 * once tags and images are taken out: a question could not be answered by it.
 * Code and math are taken as they are, fences and `$$` aside.
 */
export function isAnswerable(type: BenchmarkBlockType, text: string): boolean {
  if (type === 'heading' || type === 'rule') return false;
  const window = text.slice(0, ANSWER_WINDOW);
  if (type === 'code') return window.replace(FENCE_LINE, '').trim() !== '';
  if (type === 'math') return window.replace(MATH_DELIMITER, '').trim() !== '';
  if (hasWords(window)) return true;
  // Only the window was read: a longer block is not thrown out on its start alone.
  return text.length > window.length;
}
