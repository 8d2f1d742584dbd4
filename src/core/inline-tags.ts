import type { Token } from 'markdown-it';
import { MAX_BODY_LENGTH } from '../contracts/note-limits';
import { createMarkdownParser } from './markdown/syntax';

/**
 * Obsidian's inline tags: `#word` in a note's text, found with the note
 * dialect's own parser, so what is code, a link, math or front matter in the
 * preview is never a tag here. A regex over the raw text would need its own
 * idea of fences, code spans and link targets, and would drift from the
 * preview's.
 */

const parser = createMarkdownParser();
// Blocks only: a paragraph's inline parse (links, code spans, emphasis) is
// most of a parse's cost, so it is run only for the paragraphs, headings and
// cells whose text has a `#` that may start a tag. The text is left as the
// inline rules see it: an escaped `\#` stays its own token, not a tag (as in
// Obsidian).
parser.core.ruler.disable(['inline', 'linkify', 'replacements', 'smartquotes', 'text_join']);

/**
 * A text without `#` before a tag character has no tag: most notes skip the
 * parse, most paragraphs the inline parse. (What precedes the `#` may be a
 * mark, as in `**#tag**`, so it is not looked at here.)
 */
const MAY_HAVE_TAG = /#[\p{L}\p{M}\p{N}_\-/]/u;
const TAG_RUN = /[\p{L}\p{M}\p{N}_\-/]*/uy;
const WHITESPACE = /\s/u;
const ALL_DIGITS = /^[\p{N}/]*$/u;

/** Blocks whose text is never tags. */
const SKIPPED_BLOCKS = new Set(['fence', 'code_block', 'front_matter', 'math_block', 'html_block']);
/** Markers that open emphasis: `**#tag**` is a tag, the `#` still starts a word. */
const TRANSPARENT_OPENERS = new Set(['em_open', 'strong_open', 's_open']);

/**
 * The inline tags of a Markdown body (front matter included or not), in the
 * order they first appear, without `#`, nested ones (`a/b`) as written. Tags
 * differing only in case are one tag, spelled as first written. Bodies longer
 * than a note may be saved (from before the limits) are read up to that length.
 */
export function inlineTags(body: string): string[] {
  let source = body;
  if (source.length > MAX_BODY_LENGTH) {
    const lineEnd = source.lastIndexOf('\n', MAX_BODY_LENGTH);
    source = source.slice(0, lineEnd > 0 ? lineEnd : MAX_BODY_LENGTH);
  }
  if (!MAY_HAVE_TAG.test(source)) return [];
  const found = new TagSet();
  // Shared by the block and inline parses: link reference definitions live here.
  const env = {};
  for (const token of parser.parse(source, env)) {
    if (SKIPPED_BLOCKS.has(token.type) || token.type !== 'inline') continue;
    if (!MAY_HAVE_TAG.test(token.content)) continue;
    const children: Token[] = [];
    parser.inline.parse(token.content, parser, env, children);
    scanInline(children, found);
  }
  return found.tags;
}

/**
 * Tags in order, one per case-insensitive spelling (the first): how Obsidian
 * counts `#Project` and `#project` as one tag.
 */
export class TagSet {
  readonly tags: string[] = [];
  readonly #keys = new Set<string>();

  add(tag: string): void {
    const key = tagKey(tag);
    if (this.#keys.has(key)) return;
    this.#keys.add(key);
    this.tags.push(tag);
  }
}

/** How tags are compared: case does not matter. */
export function tagKey(tag: string): string {
  return tag.toLocaleLowerCase();
}

/**
 * A note's tags as the tag list shows them: its own (front matter) tags, then
 * its inline tags, one per case-insensitive spelling.
 */
export function mergedTags(ownTags: readonly string[], inline: readonly string[]): string[] {
  const merged = new TagSet();
  for (const tag of ownTags) merged.add(tag);
  for (const tag of inline) merged.add(tag);
  return merged.tags;
}

function scanInline(children: readonly Token[], found: TagSet): void {
  // What precedes the next text: '' at the start of the paragraph, heading or cell.
  let before = '';
  let linkDepth = 0;
  for (const child of children) {
    switch (child.type) {
      case 'link_open':
        linkDepth++;
        before = 'x';
        break;
      case 'link_close':
        linkDepth = Math.max(0, linkDepth - 1);
        before = 'x';
        break;
      case 'softbreak':
      case 'hardbreak':
        before = '\n';
        break;
      case 'text':
        // A link's label is its text, not a place for tags (`[#x](#x)` is a link).
        if (linkDepth === 0) scanText(child.content, before, found);
        if (child.content !== '') before = child.content.at(-1)!;
        break;
      default:
        // Code, math, links, pictures, escapes, closing marks: a `#` right after them is not a tag.
        if (!TRANSPARENT_OPENERS.has(child.type)) before = 'x';
    }
  }
}

function scanText(text: string, before: string, found: TagSet): void {
  for (let index = text.indexOf('#'); index !== -1; index = text.indexOf('#', index + 1)) {
    const previous = index === 0 ? before : text[index - 1]!;
    if (previous !== '' && !WHITESPACE.test(previous)) continue;
    TAG_RUN.lastIndex = index + 1;
    const end = index + 1 + (TAG_RUN.exec(text)?.[0].length ?? 0);
    const tag = text.slice(index + 1, end).replace(/\/+$/, '');
    if (tag !== '' && !tag.startsWith('/') && !ALL_DIGITS.test(tag)) found.add(tag);
    index = end - 1;
  }
}
