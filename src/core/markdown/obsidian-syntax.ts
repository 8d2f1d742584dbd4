// markdown-it-mark's types, read wherever this module is compiled (the e2e project includes
// no src/**/*.d.ts); an untyped package's declaration cannot be imported.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./markdown-it-mark.d.ts" />
import markPlugin from 'markdown-it-mark';
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { isCodeIndented, lineText } from './block-state';
import { calloutDefaultTitle } from './callout-titles';
import { stripObsidianComments } from './obsidian-comments';

/**
 * What Obsidian adds to Markdown, so a vault reads here as it did there: `%%comments%%`
 * (never shown, never exported), `> [!kind] Title` callouts, `==highlights==`, `^block`
 * ids at the end of a block, and Markdown links to notes (`[text](Folder/Note.md)`).
 * Only parse rules live here, as in `syntax.ts`; renderers decide what the tokens look like.
 */

const PERCENT = 0x25;
const COMMENT = '%%';

// ---------------------------------------------------------------------------
// Comments
// ---------------------------------------------------------------------------

/**
 * A comment that opens a block (`%%` at the start of a line) runs to the line with the
 * next `%%`, across blank lines; unclosed, to the end of its container, as in Obsidian,
 * because a comment is private and showing the rest would publish it. `%%x%% text` on one
 * line is an inline comment inside a paragraph instead.
 */
function commentBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isCodeIndented(state, startLine)) return false;
  const first = lineText(state, startLine);
  if (!first.startsWith(COMMENT)) return false;
  const sameLine = first.indexOf(COMMENT, 2);
  let last = startLine;
  if (sameLine !== -1) {
    if (first.slice(sameLine + 2).trim() !== '') return false;
  } else {
    last = endLine - 1;
    for (let line = startLine + 1; line < endLine; line++) {
      // A line dedented out of the list item the comment is in ends the search.
      const dedented = (state.sCount[line] ?? 0) < state.blkIndent && !state.isEmpty(line);
      if (dedented) {
        last = line - 1;
        break;
      }
      if (lineText(state, line).includes(COMMENT)) {
        last = line;
        break;
      }
    }
  }
  if (silent) return true;
  const token = state.push('obsidian_comment', '', 0);
  token.hidden = true;
  token.block = true;
  token.map = [startLine, last + 1];
  state.line = last + 1;
  return true;
}

/**
 * `%%text%%` inside a block: consumed without a token. Unclosed, it hides the rest of the
 * block (see the block rule). Code spans and math are consumed by their own rules first,
 * so a `%%` inside them is text.
 */
function commentInlineRule(state: StateInline, silent: boolean): boolean {
  const { src, pos, posMax } = state;
  if (src.charCodeAt(pos) !== PERCENT || src.charCodeAt(pos + 1) !== PERCENT) return false;
  // In a link's label the whole link is the unit; the comment rule would eat its `]`.
  if (silent) return false;
  const close = src.indexOf(COMMENT, pos + 2);
  state.pos = close === -1 || close + 2 > posMax ? posMax : close + 2;
  return true;
}

/** Obsidian comments (`%%...%%` inline, `%%` ... `%%` as blocks): hidden token `obsidian_comment`. */
export function commentSyntax(md: MarkdownIt): void {
  // Comments that cross blocks are taken out of the source first (see obsidian-comments);
  // the rules below still hide any the scan left, e.g. in a span it read as code.
  md.core.ruler.after('normalize', 'obsidian_comment_strip', (state) => {
    state.src = stripObsidianComments(state.src);
  });
  md.block.ruler.before('fence', 'obsidian_comment', commentBlockRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.inline.ruler.after('escape', 'obsidian_comment', commentInlineRule);
}

// ---------------------------------------------------------------------------
// Callouts
// ---------------------------------------------------------------------------

// Type aliases, not interfaces: markdown-it's `meta` is an index-signature record.
export type CalloutMeta = {
  /** The kind as written, lower-cased: `note`, `warning`, `tip`, ... */
  kind: string;
  /** '' for a fixed box, '-' folded (closed), '+' foldable and open. */
  fold: '' | '-' | '+';
  /** False when the marker line has no title: the title shown is the kind's, which a renderer may put in the reader's language. */
  titled: boolean;
};

const CALLOUT_MARKER = /^\[!([A-Za-z][\w-]{0,39})\]([+-]?)(?:[ \t]+(.*))?$/;

function matchingClose(tokens: readonly Token[], open: number): number {
  const level = tokens[open]?.level;
  for (let index = open + 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (token?.type === 'blockquote_close' && token.level === level) return index;
  }
  return -1;
}

/**
 * A quote whose first line is `[!kind]`, `[!kind]-` or `[!kind]+` and a title becomes
 * `callout_open` (with `CalloutMeta`), `callout_title_open`, an inline title,
 * `callout_title_close`, the quote's remaining blocks and `callout_close`. Runs before
 * the inline stage, so the title and body are parsed as any other text.
 */
function calloutRule(state: StateCore): void {
  const tokens = state.tokens;
  for (let index = 0; index < tokens.length; index++) {
    const open = tokens[index];
    const paragraph = tokens[index + 1];
    const inline = tokens[index + 2];
    if (open?.type !== 'blockquote_open' || paragraph?.type !== 'paragraph_open' || inline?.type !== 'inline')
      continue;
    const newline = inline.content.indexOf('\n');
    const firstLine = newline === -1 ? inline.content : inline.content.slice(0, newline);
    const match = CALLOUT_MARKER.exec(firstLine.trim());
    const close = matchingClose(tokens, index);
    if (!match || close === -1) continue;
    const kind = (match[1] ?? '').toLowerCase();
    const written = match[3]?.trim() ?? '';
    const meta: CalloutMeta = { kind, fold: (match[2] ?? '') as CalloutMeta['fold'], titled: written !== '' };
    open.type = 'callout_open';
    open.tag = 'div';
    open.meta = meta;
    const closing = tokens[close];
    if (closing) {
      closing.type = 'callout_close';
      closing.tag = 'div';
      closing.meta = meta;
    }

    const firstLineMap: [number, number] | null = paragraph.map
      ? [paragraph.map[0], paragraph.map[0] + 1]
      : null;
    const titleOpen = new state.Token('callout_title_open', 'div', 1);
    titleOpen.block = true;
    titleOpen.level = open.level + 1;
    titleOpen.map = firstLineMap;
    titleOpen.meta = meta;
    const title = new state.Token('inline', '', 0);
    title.content = written || calloutDefaultTitle(kind);
    title.level = open.level + 2;
    title.map = firstLineMap;
    title.children = [];
    const titleClose = new state.Token('callout_title_close', 'div', -1);
    titleClose.block = true;
    titleClose.level = open.level + 1;
    titleClose.meta = meta;

    const body = newline === -1 ? '' : inline.content.slice(newline + 1);
    if (body.trim() === '') {
      // The marker line was the whole paragraph: it is the title now.
      tokens.splice(index + 1, 3, titleOpen, title, titleClose);
    } else {
      inline.content = body;
      if (paragraph.map) paragraph.map = [paragraph.map[0] + 1, paragraph.map[1]];
      if (inline.map) inline.map = [inline.map[0] + 1, inline.map[1]];
      tokens.splice(index + 1, 0, titleOpen, title, titleClose);
    }
  }
}

/** Obsidian callouts (`> [!note] Title`, foldable `> [!tip]-` / `> [!tip]+`). */
export function calloutSyntax(md: MarkdownIt): void {
  md.core.ruler.after('block', 'callout', calloutRule);
}

// ---------------------------------------------------------------------------
// Highlights and block ids
// ---------------------------------------------------------------------------

/** `==text==`: `mark_open`/`mark_close` (markdown-it-mark). */
export function highlightSyntax(md: MarkdownIt): void {
  md.use(markPlugin);
}

export type BlockIdMeta = {
  /** The id without its `^`: `blk10` for `^blk10`. */
  id: string;
};

// Obsidian's block ids: letters, digits and dashes, after a space (or alone on the line).
const BLOCK_ID = /(?:^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/;

/**
 * A `^id` ending a paragraph, heading, list item or table cell names the block for
 * `[[Note#^id]]`: it is taken out of the text and becomes a `block_id` token (with
 * `BlockIdMeta`) in its place, so renderers can keep an anchor and show nothing.
 */
function blockIdRule(state: StateCore): void {
  for (const inline of state.tokens) {
    if (inline.type !== 'inline' || !inline.children) continue;
    const children = inline.children;
    const last = children[children.length - 1];
    if (last?.type !== 'text') continue;
    const match = BLOCK_ID.exec(last.content);
    if (!match || match[1] === undefined) continue;
    last.content = last.content.slice(0, match.index).trimEnd();
    const anchor = new state.Token('block_id', '', 0);
    anchor.meta = { id: match[1] } satisfies BlockIdMeta;
    children.push(anchor);
  }
}

/** Obsidian block ids (`text ^blk10`): token `block_id`. */
export function blockIdSyntax(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'block_id', blockIdRule);
}

// ---------------------------------------------------------------------------
// Picture sizes
// ---------------------------------------------------------------------------

export type ImageSize = {
  /** CSS pixels. */
  width: number;
  /** CSS pixels; null keeps the picture's proportions. */
  height: number | null;
};

// `|200` or `|200x100` ending the alt text; a picture is never drawn wider than this.
const IMAGE_SIZE = /\|\s*(\d{1,5})(?:\s*x\s*(\d{1,5}))?\s*$/;

/**
 * The size Obsidian reads at the end of a picture's alt text (`![alt|200](photo.png)`,
 * `![alt|200x100](photo.png)`), or null. The import writes `![[photo.png|200]]` this way.
 */
export function imageSizeOfAlt(alt: string): { alt: string; size: ImageSize } | null {
  const match = IMAGE_SIZE.exec(alt);
  const width = Number(match?.[1]);
  if (!match || !(width > 0)) return null;
  const height = match[2] === undefined ? null : Number(match[2]);
  return { alt: alt.slice(0, match.index).trimEnd(), size: { width, height: height || null } };
}

/**
 * Takes a size off a picture's alt text and gives it to the picture as `width` (and
 * `height`) attributes, so the alt reads as written before the `|`.
 */
function imageSizeRule(state: StateCore): void {
  for (const inline of state.tokens) {
    if (inline.type !== 'inline' || !inline.children) continue;
    for (const image of inline.children) {
      if (image.type !== 'image') continue;
      const last = image.children?.[image.children.length - 1];
      if (last?.type !== 'text') continue;
      const sized = imageSizeOfAlt(last.content);
      if (!sized) continue;
      last.content = sized.alt;
      image.content = imageSizeOfAlt(image.content)?.alt ?? image.content;
      image.attrSet('width', String(sized.size.width));
      if (sized.size.height !== null) image.attrSet('height', String(sized.size.height));
    }
  }
}

/** Obsidian picture sizes (`![alt|200](photo.png)`): `width`/`height` attributes on `image`. */
export function imageSizeSyntax(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'image_size', imageSizeRule);
}

// ---------------------------------------------------------------------------
// Markdown links to notes
// ---------------------------------------------------------------------------

export type NoteLinkMeta = {
  /** The note as a path-form link target (`Folder/Note 10.md`), as `[[Folder/Note 10.md]]` names it. */
  target: string;
  /** The heading or `^block` after `#`, decoded; null without one. */
  fragment: string | null;
};

// A relative address ending in `.md` (before its `#place`): no scheme, not `//host`.
const NOTE_HREF = /^(?![A-Za-z][A-Za-z0-9+.-]*:|\/\/)([^?#]+\.md)(?:#(.*))?$/i;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The note a Markdown link's address names, as Obsidian writes links with "Use
 * [[Wikilinks]]" off: `Note%2010.md`, `Folder/Note.md#Heading`, `../Other.md`. The path
 * is relative to the linking note's folder; leading `./` and `../` are dropped, and the
 * rest is matched the way a path-form wikilink is (its last folders, then the title).
 */
export function noteLinkTarget(href: string): NoteLinkMeta | null {
  const match = NOTE_HREF.exec(href.trim());
  if (!match?.[1]) return null;
  const path = decoded(match[1])
    .replace(/^(?:\.{1,2}\/)+/, '')
    .trim();
  if (path.replace(/\.md$/i, '').replace(/^.*\//, '').trim() === '') return null;
  const fragment = match[2] === undefined ? null : decoded(match[2]).trim() || null;
  return { target: path, fragment };
}

/** Marks `link_open` tokens whose address is a note in the vault with `{ noteLink: NoteLinkMeta }`. */
function noteLinkRule(state: StateCore): void {
  for (const inline of state.tokens) {
    if (inline.type !== 'inline' || !inline.children) continue;
    for (const token of inline.children) {
      if (token.type !== 'link_open' || token.markup === 'linkify' || token.markup === 'autolink') continue;
      const note = noteLinkTarget(String(token.attrGet('href') ?? ''));
      if (note) token.meta = { ...(token.meta as object | null), noteLink: note };
    }
  }
}

/** The note a `link_open` token points at, when its address is a note's `.md` path. */
export function noteLinkOf(token: Token): NoteLinkMeta | null {
  const meta = token.meta as { noteLink?: NoteLinkMeta } | null;
  return meta?.noteLink ?? null;
}

/** Markdown links to `.md` notes, resolved as wikilinks are. */
export function noteLinkSyntax(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'note_link', noteLinkRule);
}

/** Everything Obsidian adds, in one `use`. */
export function obsidianSyntax(md: MarkdownIt): void {
  md.use(commentSyntax)
    .use(calloutSyntax)
    .use(highlightSyntax)
    .use(blockIdSyntax)
    .use(noteLinkSyntax)
    .use(imageSizeSyntax);
}
