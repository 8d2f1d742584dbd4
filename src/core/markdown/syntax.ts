import markdownIt from 'markdown-it';
import type { MarkdownIt, StateBlock, StateCore, StateInline, Token } from 'markdown-it';
import { frontMatterLength } from '../front-matter';
import { splitWikilinkTarget } from '../wikilinks-target';
import { isCodeIndented, lineEnd, lineStart, lineText } from './block-state';
import { obsidianSyntax } from './obsidian-syntax';

/**
 * The note dialect's grammar: CommonMark + GFM tables and strikethrough (markdown-it)
 * plus front matter, `$` math, `[[wikilinks]]` and task lists. Only parse rules live
 * here; how tokens become HTML is the renderer's business (the preview adds its own
 * rules, the exporters walk the Document AST). Every consumer parses through
 * `createMarkdownParser`, so the preview, the exporters and the indexer agree on
 * what a note contains.
 */

const DOLLAR = 0x24;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const EXCLAMATION = 0x21;
const TASK_MARKER = /^\[([ xX])\](?:\s|$)/;

export interface WikilinkMeta {
  target: string;
  label: string;
  /** `![[Note]]`: the note shown in place (an embed), not only linked. */
  embed?: boolean;
}

export interface TaskCheckboxMeta {
  checked: boolean;
}

/**
 * `extensions: false` leaves plain CommonMark (+ GFM tables and strikethrough):
 * no front matter, math, wikilinks, task lists or bare-URL links. It exists to
 * measure the shared pipeline against the CommonMark spec.
 */
export function createMarkdownParser(options: { extensions?: boolean } = {}): MarkdownIt {
  const extensions = options.extensions ?? true;
  // Raw HTML is kept in the token stream because every renderer sanitizes its
  // output; typographer is off so quotes and dashes stay as typed.
  const md = markdownIt({ html: true, linkify: extensions, typographer: false });
  if (!extensions) return md;
  return md
    .use(frontMatterSyntax)
    .use(mathSyntax)
    .use(wikilinkSyntax)
    .use(taskListSyntax)
    .use(footnoteSyntax)
    .use(obsidianSyntax);
}

// ---------------------------------------------------------------------------
// Front matter
// ---------------------------------------------------------------------------

/**
 * YAML front matter (`---` on the first line up to a closing `---` or `...`) is note
 * metadata, not content. It is consumed by a block rule rather than cut from the
 * source, so every later block keeps its true line number.
 */
export function frontMatterSyntax(md: MarkdownIt): void {
  md.block.ruler.before('table', 'front_matter', frontMatterRule);
}

function frontMatterRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (startLine !== 0 || state.blkIndent !== 0 || (state.sCount[0] ?? 0) !== 0) return false;
  if (lineText(state, 0).trimEnd() !== '---') return false;

  // The note's own reader decides, so the preview, the exporters and the blocks hide
  // exactly what the note keeps as metadata: without a closing fence, or with YAML
  // that is not a mapping (`---\nSome words\n---`), this is Markdown.
  const bodyStart = frontMatterLength(state.src);
  if (bodyStart === 0) return false;
  let closing = 1;
  while (closing < endLine - 1 && lineEnd(state, closing) < bodyStart - 1) closing++;
  if (silent) return true;

  const token = state.push('front_matter', '', 0);
  token.hidden = true;
  token.block = true;
  token.content = state.getLines(1, closing, 0, false);
  token.map = [0, closing + 1];
  state.line = closing + 1;
  return true;
}

// ---------------------------------------------------------------------------
// Math
// ---------------------------------------------------------------------------

function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= '0' && char <= '9';
}

/** Index of the next `$` in [from, max) that is not backslash-escaped, or -1. */
function findClosingDollar(src: string, from: number, max: number): number {
  for (let index = src.indexOf('$', from); index !== -1 && index < max; index = src.indexOf('$', index + 1)) {
    let backslashes = 0;
    for (let before = index - 1; before >= from && src.charCodeAt(before) === BACKSLASH; before--)
      backslashes++;
    if (backslashes % 2 === 0) return index;
  }
  return -1;
}

/**
 * `$tex$` inline and `$$tex$$` display math inside a paragraph. The delimiter rules
 * keep prices as text: the opening `$` needs a non-space after it, the closing `$`
 * a non-space before it and no digit after it, so `$5 and $6` is never math.
 */
function mathInlineRule(state: StateInline, silent: boolean): boolean {
  const { src, pos: start, posMax: max } = state;
  if (src.charCodeAt(start) !== DOLLAR) return false;

  if (src.charCodeAt(start + 1) === DOLLAR) {
    const close = src.indexOf('$$', start + 2);
    if (close === -1 || close >= max || close === start + 2) {
      // An unclosed `$$` is literal text; consuming both dollars keeps the second
      // from opening inline math by accident.
      if (!silent) state.pending += '$$';
      state.pos = start + 2;
      return true;
    }
    if (!silent) {
      const token = state.push('math_inline_display', 'math', 0);
      token.markup = '$$';
      token.content = src.slice(start + 2, close);
    }
    state.pos = close + 2;
    return true;
  }

  if (start + 1 >= max || isWhitespace(src[start + 1])) return false;
  const close = findClosingDollar(src, start + 1, max);
  if (close === -1) return false;
  if (isWhitespace(src[close - 1]) || isDigit(src[close + 1])) return false;

  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = '$';
    token.content = src.slice(start + 1, close);
  }
  state.pos = close + 1;
  return true;
}

interface MathScan {
  src: string;
  /** Lines whose text ends with `$$`, ascending. */
  closers: number[];
  /** The last search: from `from`, the first line dedented out of the container is `stop`. */
  from: number;
  stop: number;
  blkIndent: number;
  endLine: number;
  parentType: string;
}

const MATH_SCAN = Symbol('math-scan');

/**
 * The line that closes a `$$` block opened on `startLine`, or -1. Searching line by
 * line from every opener is quadratic when a note has many unclosed `$$` lines (each
 * would scan to the end), so the closing candidates are listed once per parse and
 * the end of the enclosing container is remembered between openers inside it.
 */
function closingMathLine(state: StateBlock, startLine: number, endLine: number): number {
  const env = state.env as { [MATH_SCAN]?: MathScan };
  let scan = env[MATH_SCAN];
  if (scan?.src !== state.src) {
    const closers: number[] = [];
    for (let line = 0; line < state.lineMax; line++) {
      const begin = line === 0 ? 0 : (state.eMarks[line - 1] ?? 0) + 1;
      if (state.src.slice(begin, lineEnd(state, line)).trimEnd().endsWith('$$')) closers.push(line);
    }
    scan = { src: state.src, closers, from: -1, stop: -1, blkIndent: -1, endLine: -1, parentType: '' };
    env[MATH_SCAN] = scan;
  }

  let stop: number;
  if (state.blkIndent === 0) {
    stop = endLine; // nothing can be dedented out of the top level or a quote
  } else if (
    scan.blkIndent === state.blkIndent &&
    scan.endLine === endLine &&
    scan.parentType === state.parentType &&
    scan.from <= startLine &&
    startLine < scan.stop
  ) {
    stop = scan.stop;
  } else {
    // A non-blank line dedented out of the enclosing list item ends the search.
    stop = startLine + 1;
    while (
      stop < endLine &&
      !(lineStart(state, stop) < lineEnd(state, stop) && (state.sCount[stop] ?? 0) < state.blkIndent)
    ) {
      stop++;
    }
    Object.assign(scan, {
      from: startLine,
      stop,
      blkIndent: state.blkIndent,
      endLine,
      parentType: state.parentType,
    });
  }

  const closers = scan.closers;
  let low = 0;
  let high = closers.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((closers[middle] ?? 0) <= startLine) low = middle + 1;
    else high = middle;
  }
  const candidate = closers[low];
  return candidate !== undefined && candidate < stop ? candidate : -1;
}

/**
 * A `$$` block: either `$$ tex $$` on one line or `$$` ... `$$` across lines. An
 * unclosed `$$` is not math (it stays a paragraph), so a half-typed formula does not
 * swallow the rest of the note.
 */
function mathBlockRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (isCodeIndented(state, startLine)) return false;
  const start = lineStart(state, startLine);
  const end = lineEnd(state, startLine);
  if (state.src.slice(start, start + 2) !== '$$') return false;

  const firstLine = state.src.slice(start + 2, end);
  let content: string;
  let lastLine = startLine;

  const sameLineClose = firstLine.indexOf('$$');
  if (sameLineClose !== -1) {
    // `$$x$$ and more` is inline display math inside a paragraph, not a block.
    if (firstLine.slice(sameLineClose + 2).trim() !== '') return false;
    content = firstLine.slice(0, sameLineClose).trim();
    if (content === '') return false;
  } else {
    const closing = closingMathLine(state, startLine, endLine);
    if (closing === -1) return false;
    lastLine = closing;
    const closingText = state.src.slice(lineStart(state, lastLine), lineEnd(state, lastLine)).trimEnd();
    content = [
      firstLine.trim(),
      state.getLines(startLine + 1, lastLine, state.blkIndent, false).replace(/\n$/, ''),
      closingText.slice(0, -2).trim(),
    ]
      .filter((part) => part !== '')
      .join('\n');
  }
  if (silent) return true;

  const token = state.push('math_block', 'div', 0);
  token.block = true;
  token.markup = '$$';
  token.content = content;
  token.map = [startLine, lastLine + 1];
  state.line = lastLine + 1;
  return true;
}

/** `$...$` inline and `$$...$$` display math (tokens `math_inline`, `math_inline_display`, `math_block`). */
export function mathSyntax(md: MarkdownIt): void {
  md.inline.ruler.after('escape', 'math_inline', mathInlineRule);
  md.block.ruler.after('blockquote', 'math_block', mathBlockRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
}

// ---------------------------------------------------------------------------
// Wikilinks
// ---------------------------------------------------------------------------

/**
 * What an unlabelled link reads as, as Obsidian shows it: `Note > Heading` for
 * `[[Note#Heading]]`, just `Heading` for `[[#Heading]]` in the same note.
 */
function shownTarget(target: string): string {
  const { title, fragment } = splitWikilinkTarget(target);
  if (fragment === null) return target;
  return title === '' ? fragment : `${title} > ${fragment}`;
}

// Obsidian embeds files other than notes the same way (`![[photo.png]]`); those are
// pictures and media, not notes, and keep their own handling.
const EMBEDDED_FILE =
  /\.(?:png|jpe?g|gif|webp|svg|bmp|avif|tiff?|pdf|mp3|wav|m4a|ogg|flac|webm|mp4|mov|mkv|canvas)$/i;

/**
 * `[[target]]` and `[[target|label]]` on one line; brackets inside are not allowed.
 * `![[Note]]` embeds the note (a `wikilink` token with `embed: true`).
 */
function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const { src, pos: at, posMax: max } = state;
  const embed = src.charCodeAt(at) === EXCLAMATION;
  const start = embed ? at + 1 : at;
  if (src.charCodeAt(start) !== OPEN_BRACKET || src.charCodeAt(start + 1) !== OPEN_BRACKET) return false;
  // A wikilink inside a Markdown link label would nest anchors.
  if (state.linkLevel > 0) return false;

  const close = src.indexOf(']]', start + 2);
  if (close === -1 || close + 2 > max) return false;
  const inner = src.slice(start + 2, close);
  if (/[[\]\n]/.test(inner)) return false;

  const separator = inner.indexOf('|');
  const target = (separator === -1 ? inner : inner.slice(0, separator)).trim();
  const label =
    separator === -1 ? shownTarget(target) : inner.slice(separator + 1).trim() || shownTarget(target);
  if (target === '') return false;
  if (embed && EMBEDDED_FILE.test(splitWikilinkTarget(target).title)) return false;

  if (!silent) {
    const token = state.push('wikilink', 'a', 0);
    token.markup = embed ? '![[' : '[[';
    token.content = label;
    token.meta = (embed ? { target, label, embed } : { target, label }) satisfies WikilinkMeta;
  }
  state.pos = close + 2;
  return true;
}

/** Wiki-style links between notes (token `wikilink` with `WikilinkMeta`). */
export function wikilinkSyntax(md: MarkdownIt): void {
  // Before `link` (and `image`), so `[[x]]` is never tried as a reference link first.
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
}

// ---------------------------------------------------------------------------
// Task lists
// ---------------------------------------------------------------------------

/** `- [ ] todo` / `- [x] done`: a `task_checkbox` token (with `TaskCheckboxMeta`) opens the item. */
export function taskListSyntax(md: MarkdownIt): void {
  md.core.ruler.after('inline', 'task_list', (state: StateCore) => {
    const tokens = state.tokens;
    for (let index = 2; index < tokens.length; index++) {
      const inline = tokens[index];
      if (inline?.type !== 'inline') continue;
      const paragraph = tokens[index - 1];
      const item = tokens[index - 2];
      if (paragraph?.type !== 'paragraph_open' || item?.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      if (first?.type !== 'text') continue;
      const match = TASK_MARKER.exec(first.content);
      if (!match) continue;

      first.content = first.content.slice(match[0].length);
      const checkbox = new state.Token('task_checkbox', 'input', 0);
      checkbox.meta = { checked: match[1] !== ' ' } satisfies TaskCheckboxMeta;
      inline.children?.unshift(checkbox);
      item.attrJoin('class', 'task-list-item');
      const list = findParentList(tokens, index - 2, item.level);
      if (
        list &&
        !String(list.attrGet('class') ?? '')
          .split(' ')
          .includes('contains-task-list')
      ) {
        list.attrJoin('class', 'contains-task-list');
      }
    }
  });
}

function findParentList(tokens: Token[], from: number, itemLevel: number): Token | undefined {
  for (let index = from - 1; index >= 0; index--) {
    const token = tokens[index];
    if (
      token?.level === itemLevel - 1 &&
      (token.type === 'bullet_list_open' || token.type === 'ordered_list_open')
    ) {
      return token;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------
// Footnotes
// ---------------------------------------------------------------------------

/** A footnote reference (`footnote_ref`) or definition (`footnote_open`): the label as written. */
// Type aliases, not interfaces: markdown-it's `meta` and `env` are index-signature records.
export type FootnoteMeta = {
  label: string;
};

/**
 * The parse's footnotes by label, to their number. A caller that renders a note block by
 * block passes the whole note's numbers (`footnoteNumbers`); a whole-note parse fills it in
 * from the definitions it meets. A reference is one only when its label is in here.
 */
export type FootnoteEnv = {
  footnotes?: Map<string, number>;
};

// A label is what Pandoc and GitHub accept in practice: no spaces, no brackets.
const FOOTNOTE_LABEL = String.raw`\[\^([^\]\s]{1,100})\]`;
const FOOTNOTE_DEFINITION = new RegExp(`^${FOOTNOTE_LABEL}:`);
// The same, on a raw line: up to three spaces of indent, as a block rule allows.
const FOOTNOTE_DEFINITION_LINE = new RegExp(`^ {0,3}${FOOTNOTE_LABEL}:`);
const FOOTNOTE_REFERENCE = new RegExp(`^${FOOTNOTE_LABEL}`);
/** Every `[^label]` in a text (references and definitions alike); the label is group 1. */
export const FOOTNOTE_LABELS = new RegExp(FOOTNOTE_LABEL, 'g');

function footnoteMap(env: unknown): Map<string, number> {
  const holder = env as FootnoteEnv;
  holder.footnotes ??= new Map();
  return holder.footnotes;
}

/**
 * `[^label]: text` defines a footnote where it is written: the text (up to a blank line, or to
 * what would end a paragraph) is a paragraph inside `footnote_open`/`footnote_close`. Before
 * `reference`, which would otherwise take a one-word `[^1]: text` as a link definition and
 * show nothing at all.
 */
function footnoteDefinitionRule(
  state: StateBlock,
  startLine: number,
  endLine: number,
  silent: boolean,
): boolean {
  if (isCodeIndented(state, startLine)) return false;
  const match = FOOTNOTE_DEFINITION.exec(lineText(state, startLine));
  const label = match?.[1];
  if (!match || label === undefined) return false;
  if (silent) return true;

  const terminators = state.md.block.ruler.getRules('paragraph');
  let next = startLine + 1;
  for (; next < endLine && !state.isEmpty(next); next++) {
    // Indented or lazily continued lines belong to the definition, as to a paragraph.
    if ((state.sCount[next] ?? 0) - state.blkIndent > 3) continue;
    if (terminators.some((rule) => rule(state, next, endLine, true))) break;
  }

  const numbers = footnoteMap(state.env);
  if (!numbers.has(label)) numbers.set(label, numbers.size + 1);
  const meta: FootnoteMeta = { label };
  const open = state.push('footnote_open', 'div', 1);
  open.meta = meta;
  open.map = [startLine, next];
  open.block = true;
  const paragraphOpen = state.push('paragraph_open', 'p', 1);
  paragraphOpen.map = [startLine, next];
  const inline = state.push('inline', '', 0);
  inline.content = state
    .getLines(startLine, next, state.blkIndent, false)
    .trimStart()
    .slice(match[0].length)
    .trim();
  inline.map = [startLine, next];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
  const close = state.push('footnote_close', 'div', -1);
  close.meta = meta;
  state.line = next;
  return true;
}

/** `[^label]` whose label is defined in the note: a `footnote_ref` token; otherwise text. */
function footnoteReferenceRule(state: StateInline, silent: boolean): boolean {
  const { src, pos: start } = state;
  if (src.charCodeAt(start) !== OPEN_BRACKET || src.charCodeAt(start + 1) !== 0x5e /* ^ */) return false;
  if (state.linkLevel > 0) return false;
  const match = FOOTNOTE_REFERENCE.exec(src.slice(start, Math.min(state.posMax, start + 104)));
  const label = match?.[1];
  if (!match || label === undefined || !(state.env as FootnoteEnv).footnotes?.has(label)) return false;
  if (!silent) {
    const token = state.push('footnote_ref', '', 0);
    token.meta = { label } satisfies FootnoteMeta;
    // What an exporter that does not know footnotes keeps: the reference as written.
    token.content = match[0];
  }
  state.pos = start + match[0].length;
  return true;
}

/** Footnotes as Pandoc, GitHub and Obsidian write them: `text[^1]` and `[^1]: the note`. */
export function footnoteSyntax(md: MarkdownIt): void {
  md.block.ruler.before('reference', 'footnote_definition', footnoteDefinitionRule, {
    alt: ['paragraph', 'reference', 'blockquote'],
  });
  md.inline.ruler.before('link', 'footnote_ref', footnoteReferenceRule);
}

/**
 * Footnote numbers for a note cut into blocks, as a reader counts them: by the order of
 * first reference, then the defined but unreferenced ones in the order they are defined.
 * Only labels with a definition get a number. Code (fenced, indented, inline) is skipped
 * the way the parser skips it, roughly: a `[^1]` inside backticks is not a reference.
 */
export function footnoteNumbers(blocks: readonly string[]): Map<string, number> {
  const defined: string[] = [];
  const referenced: string[] = [];
  for (const block of blocks) {
    if (!block.includes('[^')) continue;
    let fenced: string | null = null;
    for (const line of block.split(/\r\n|\r|\n/)) {
      const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fenced !== null) {
        if (fence !== undefined && fence[0] === fenced[0] && fence.length >= fenced.length) fenced = null;
        continue;
      }
      if (fence !== undefined) {
        fenced = fence;
        continue;
      }
      if (/^(?: {4}|\t)/.test(line)) continue;
      let text = line.replace(/`+[^`]*`+/g, '');
      const definition = FOOTNOTE_DEFINITION_LINE.exec(text);
      if (definition?.[1] !== undefined) {
        defined.push(definition[1]);
        text = text.slice(definition[0].length);
      }
      for (const reference of text.matchAll(FOOTNOTE_LABELS))
        if (reference[1] !== undefined) referenced.push(reference[1]);
    }
  }
  const known = new Set(defined);
  const numbers = new Map<string, number>();
  for (const label of [...referenced, ...defined])
    if (known.has(label) && !numbers.has(label)) numbers.set(label, numbers.size + 1);
  return numbers;
}
