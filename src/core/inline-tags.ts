import type { MarkdownIt, Token } from 'markdown-it';
import { MAX_BODY_LENGTH } from '../contracts/note-limits';
import { frontMatterLength } from './front-matter';
import { createMarkdownParser } from './markdown/syntax';
import { tagKey } from './tag-key';

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
const BLOCKS_ONLY = ['inline', 'linkify', 'replacements', 'smartquotes', 'text_join'];
parser.core.ruler.disable(BLOCKS_ONLY);
// A link's address matters here only as valid or not (an invalid one changes
// how the link parses); its encoded form (URL parsing, punycode) is never
// read. Only an address that starts with a scheme `validateLink` refuses can
// be refused after normalising (normalising trims, as it does, and keeps what
// starts the address), so only those are normalised.
const normalizeLink = parser.normalizeLink.bind(parser);
const REFUSABLE_SCHEME = /^\s*(?:vbscript|javascript|file|data):/i;
parser.normalizeLink = (url) => (REFUSABLE_SCHEME.test(url) ? normalizeLink(url) : url);

/**
 * A text without `#` before a tag character has no tag: most notes skip the
 * parse, most paragraphs the inline parse. (What precedes the `#` may be a
 * mark, as in `**#tag**`, so it is not looked at here.)
 */
const MAY_HAVE_TAG = /#[\p{L}\p{M}\p{N}_\-/]/u;
const TAG_RUN = /[\p{L}\p{M}\p{N}_\-/]*/uy;
const WHITESPACE = /\s/u;
const ALL_DIGITS = /^[\p{N}/]*$/u;

/** Markers that open emphasis: `**#tag**` is a tag, the `#` still starts a word. */
const TRANSPARENT_OPENERS = new Set(['em_open', 'strong_open', 's_open']);

/**
 * The inline tags of a Markdown body (front matter included or not), in the
 * order they first appear, without `#`, nested ones (`a/b`) as written. Tags
 * differing only in case are one tag, spelled as first written. Bodies longer
 * than a note may be saved (from before the limits) are read up to that length.
 *
 * A 5 MiB note is not parsed whole: only the stretches that hold a candidate
 * `#` (or a link or footnote definition, which other stretches' links need)
 * go through the block parser (`paragraphsToScan`), and a paragraph with no
 * inline syntax at all is scanned as it stands (`needsInlineParse`). Both give
 * what parsing everything gives (`inlineTagsParsingEverything`, which the
 * tests compare them with).
 */
export function inlineTags(body: string): string[] {
  return findTags(body, true);
}

/** The same tags, every block parsed and every candidate paragraph inline-parsed: the reference. */
export function inlineTagsParsingEverything(body: string): string[] {
  return findTags(body, false);
}

function findTags(body: string, shortcuts: boolean): string[] {
  let source = body;
  if (source.length > MAX_BODY_LENGTH) {
    const lineEnd = source.lastIndexOf('\n', MAX_BODY_LENGTH);
    source = source.slice(0, lineEnd > 0 ? lineEnd : MAX_BODY_LENGTH);
  }
  if (!MAY_HAVE_TAG.test(source)) return [];
  // Shared by the block and inline parses: link reference definitions live here,
  // so every block parse runs before the first inline parse.
  const env: Record<string, unknown> = {};
  const found = new TagSet();
  if (!shortcuts) {
    const whole = referenceParser();
    for (const token of whole.parse(source, env)) {
      if (token.type !== 'inline' || !MAY_HAVE_TAG.test(token.content)) continue;
      const children: Token[] = [];
      whole.inline.parse(token.content, whole, env, children);
      scanInline(children, found);
    }
    return found.tags;
  }
  for (const content of paragraphsToScan(source, env)) {
    if (!needsInlineParse(content)) {
      scanText(content, '', found);
      continue;
    }
    const children: Token[] = [];
    parser.inline.parse(content, parser, env, children);
    scanInline(children, found);
  }
  return found.tags;
}

let wholeParser: MarkdownIt | undefined;
/** A parser as `inlineTags` had before its shortcuts (blocks only, links normalised). */
function referenceParser(): MarkdownIt {
  if (!wholeParser) {
    wholeParser = createMarkdownParser();
    wholeParser.core.ruler.disable(BLOCKS_ONLY);
  }
  return wholeParser;
}

/**
 * Where a block may hold lines past a blank one whatever follows and its end
 * is not simply found: a `$$` block (an unclosed one is no block), an HTML
 * block that ends at its closing mark (`<pre>`, `<!--`, ...). Anywhere on a
 * line, so one nested in a list or quote counts too. Fences are followed
 * (`FENCE_MARK`).
 */
const SPANS_BLANK_LINES = /\$\$|<(?:script|pre|style|textarea|!|\?)/i;
/** A fence may open or close in this text. */
const FENCE_MARK = /```|~~~/;
/**
 * A line that starts a top-level block after a blank line: a letter or `#`
 * at its first column is no list item, quote, indented code, table row,
 * front matter or HTML, and nothing open before the blank line but a fence
 * (paragraph, list, quote, table, footnote, indented code, HTML ending at a
 * blank line) goes on into it.
 */
const FRESH_BLOCK = /\n[ \t]*\r?\n(?=[\p{L}#])/gu;
/** A link reference or footnote definition (`[label]:`) may be in this text. */
const DEFINITION = ']:';

/**
 * The texts of the paragraphs, headings and cells of `source` that may hold a
 * tag, in order, as parsing it whole gives them. The note is cut before lines
 * that start a fresh top-level block (`FRESH_BLOCK`) after the front matter
 * and before the first `SPANS_BLANK_LINES` mark; of the pieces, those without
 * a candidate `#`, a definition or a fence mark are left out, a plain
 * paragraph (`PLAIN_PARAGRAPH`) is taken as its text, and the rest are
 * block-parsed, neighbours together. A parsed stretch that ends inside a
 * top-level fence is parsed on from the fence to its closing line: a cut is
 * only kept where no block is open, so each stretch parses as in the whole.
 */
function paragraphsToScan(source: string, env: Record<string, unknown>): string[] {
  const risky = source.search(SPANS_BLANK_LINES);
  const cutsEnd = risky === -1 ? source.length : source.lastIndexOf('\n', risky) + 1;
  const cutsStart = frontMatterLength(source);
  const cuts = [0];
  FRESH_BLOCK.lastIndex = 0;
  for (let match = FRESH_BLOCK.exec(source); match; match = FRESH_BLOCK.exec(source)) {
    const cut = match.index + match[0].length;
    if (cut > cutsEnd) break;
    if (cut >= cutsStart) cuts.push(cut);
  }
  if (cuts.at(-1) !== source.length) cuts.push(source.length);
  const last = cuts.length - 1;

  const kinds: Array<'skip' | 'paragraph' | 'parse'> = [];
  const kindOf = (index: number): 'skip' | 'paragraph' | 'parse' => {
    const known = kinds[index];
    if (known !== undefined) return known;
    const piece = source.slice(cuts[index], cuts[index + 1]);
    const kind = FENCE_MARK.test(piece)
      ? 'parse'
      : !MAY_HAVE_TAG.test(piece) && !piece.includes(DEFINITION)
        ? 'skip'
        : PLAIN_PARAGRAPH.test(piece)
          ? 'paragraph'
          : 'parse';
    kinds[index] = kind;
    return kind;
  };

  const paragraphs: string[] = [];
  let index = 0;
  while (index < last) {
    const start = cuts[index]!;
    const kind = kindOf(index);
    if (kind !== 'parse') {
      if (kind === 'paragraph') paragraphs.push(paragraphText(source.slice(start, cuts[index + 1])));
      index++;
      continue;
    }
    let from = start;
    let end = index + 1;
    let fence = fenceAfter(source.slice(start, cuts[end]), null);
    for (;;) {
      // On over parsed pieces, a paragraph between two of them (one parse is
      // cheaper than two), and what a fence looks to be open across.
      while (end < last) {
        const kind = kindOf(end);
        const between = kind === 'paragraph' && end + 1 < last && kindOf(end + 1) === 'parse';
        if (fence === null && kind !== 'parse' && !between) break;
        fence = fenceAfter(source.slice(cuts[end], cuts[end + 1]), fence);
        end++;
      }
      const stretch = source.slice(from, cuts[end]);
      const tokens = parser.parse(stretch, env);
      const open = end < last ? openFence(tokens, stretch) : -1;
      for (const token of open === -1 ? tokens : tokens.slice(0, open)) {
        if (token.type === 'inline' && MAY_HAVE_TAG.test(token.content)) paragraphs.push(token.content);
      }
      if (open === -1) break;
      // The blocks before the fence are whole. Parsing goes on from the fence's
      // first line to the first cut after its closing line (and on if that
      // line turns out not to close it).
      const opener = tokens[open]!;
      from += lineStartOffset(stretch, opener.map![0]);
      const closing = closingLineEnd(source, cuts[end]!, opener.markup);
      let next = end + 1;
      while (closing !== -1 && next < last && cuts[next]! <= closing) next++;
      end = closing === -1 ? last : next;
      fence = null;
    }
    index = end;
  }
  return paragraphs.filter((content) => MAY_HAVE_TAG.test(content));
}

/**
 * The index of a top-level fence still open where `stretch` ends (it ran to
 * the last line), or -1. One inside a list or quote is not asked about: the
 * line after a cut ends those, and the fence with them.
 */
function openFence(tokens: readonly Token[], stretch: string): number {
  const lines = stretch.match(LINE_END)?.length ?? 0;
  for (let index = tokens.length - 1; index >= 0; index--) {
    const token = tokens[index]!;
    if (token.level !== 0 || token.map === null) continue;
    return token.type === 'fence' && token.map[1] >= lines ? index : -1;
  }
  return -1;
}

/**
 * Whether a top-level fence looks to be open after `text`, given how it was
 * before (the fence's mark, or null): by its lines alone, without knowing
 * which are in a list or quote, so only a guess that saves a second parse;
 * `openFence` is what decides.
 */
function fenceAfter(text: string, before: string | null): string | null {
  if (!FENCE_MARK.test(text)) return before;
  let open = before;
  for (const line of text.split(LINE_END)) {
    const mark = FENCE_LINE.exec(line);
    if (!mark) continue;
    const [, run = '', rest = ''] = mark;
    if (open === null) {
      if (run[0] === '~' || !rest.includes('`')) open = run;
    } else if (run[0] === open[0] && run.length >= open.length && rest.trim() === '') {
      open = null;
    }
  }
  return open;
}
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Line ends as the parser counts them. */
const LINE_END = /\r\n?|\n/g;

/** Where line `line` (from 0, as the parser counts lines) of `text` starts. */
function lineStartOffset(text: string, line: number): number {
  const lineEnd = new RegExp(LINE_END);
  let offset = 0;
  for (let count = 0; count < line; count++) {
    const match = lineEnd.exec(text);
    if (!match) return text.length;
    offset = match.index + match[0].length;
  }
  return offset;
}

/** Where the line that closes a top-level fence of `markup` ends, from `from` on; -1 if none does. */
function closingLineEnd(source: string, from: number, markup: string): number {
  const mark = markup[0] === '`' ? '`' : '~';
  const closer = new RegExp(`^ {0,3}\\${mark}{${markup.length},}[ \\t]*\\r?$`, 'gm');
  closer.lastIndex = from;
  const match = closer.exec(source);
  return match ? match.index + match[0].length : -1;
}

/**
 * One paragraph and the blank lines after it: a first line that starts with
 * a letter, or a `#` that opens no heading, and lines that start (after
 * spaces) with a letter, so none is a list item, quote, heading, fence,
 * table, setext underline, footnote or HTML that would end the paragraph.
 * A `\r` only before a `\n`, where the parser reads both as one line end.
 */
const PLAIN_PARAGRAPH = /^(?:\p{L}|#[^\s#])[^\r\n]*(?:\r?\n[ \t]*\p{L}[^\r\n]*)*(?:\r?\n[ \t]*)*$/u;

/** What the parser makes a plain paragraph's text: its line ends as `\n`, NUL as U+FFFD, trimmed of ASCII spaces. */
function paragraphText(piece: string): string {
  const text = piece.replace(/\r\n/g, '\n').replace(/\0/g, '\uFFFD');
  let start = 0;
  let end = text.length;
  while (start < end && ASCII_TRIMMED.has(text[start]!)) start++;
  while (end > start && ASCII_TRIMMED.has(text[end - 1]!)) end--;
  return text.slice(start, end);
}
const ASCII_TRIMMED = new Set([' ', '\t', '\n', '\r']);

/**
 * Whether a paragraph's text may hold inline syntax (code, math, links,
 * pictures, autolinks, HTML, escapes, entities, emphasis, strikethrough, bare
 * URLs): these characters are where every inline rule of the dialect starts.
 * Without them its inline parse is text and line breaks only, so the text
 * itself is scanned. An `_` between letters or digits on both sides can
 * neither open nor close emphasis (`#my_tag`), so it does not count.
 */
function needsInlineParse(content: string): boolean {
  return INLINE_SYNTAX.test(content) || (content.includes('_') && LOOSE_UNDERSCORE.test(content));
}
const INLINE_SYNTAX = /[\\`$~*[<&]|:\/\//;
/** An `_` run with something other than a letter or digit (or nothing) on one side. */
const LOOSE_UNDERSCORE = /(?:^|[^\p{L}\p{N}_])_|_(?:[^\p{L}\p{N}_]|$)/u;

/**
 * Tags in order, one per case-insensitive spelling (the first): how Obsidian
 * counts `#Project` and `#project` as one tag.
 */
export class TagSet {
  readonly tags: string[] = [];
  readonly #keys = new Set<string>();
  /** Spellings already added or matched: a tag written again is not folded again. */
  readonly #seen = new Set<string>();

  add(tag: string): void {
    if (this.#seen.has(tag)) return;
    this.#seen.add(tag);
    const key = tagKey(tag);
    if (this.#keys.has(key)) return;
    this.#keys.add(key);
    this.tags.push(tag);
  }
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
