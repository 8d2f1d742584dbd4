/**
 * Where, in a note's source, links cannot be and where reference definitions are, as the
 * preview's grammar reads the note: what finds links to rewrite or index asks here, so a
 * link the preview shows as code is never rewritten or counted as a backlink.
 */

import type { MarkdownIt, StateInline, Token } from 'markdown-it';
import { createMarkdownParser } from './syntax';

/** A stretch of the source: UTF-16 offsets, `to` exclusive. */
export interface SourceRange {
  from: number;
  to: number;
}

export interface LinkSourceRanges {
  /**
   * Code, where nothing is a link: fenced and indented code blocks at any depth (in a
   * quote, a callout, a list item) and code spans (which may run over lines) in the blocks
   * a link may be in (with a `[[` or `](`; the others' spans are not looked for, as they
   * hide no link). In source order, never overlapping.
   */
  code: readonly SourceRange[];
  /** Reference definitions (`[ref]: Note.md "title"`), each its whole lines, in source order. */
  definitions: readonly SourceRange[];
}

/**
 * Where code spans are, in `source` (the inline token's content). markdown-it parses an
 * image's description again with the same env: its spans are offsets in that
 * description, not in `source`, and are left out (a description shows as plain text).
 */
type CodeSpanEnv = { codeSpans?: SourceRange[]; source?: string };

let parser: MarkdownIt | undefined;

/**
 * The app's grammar, with code spans reporting where they are (inline tokens carry no
 * offsets). Its own instance: the preview's parser is left as it is.
 */
function spanParser(): MarkdownIt {
  if (parser) return parser;
  const md = createMarkdownParser();
  const backticks = md.inline.ruler.__rules__[md.inline.ruler.__find__('backticks')]?.fn;
  if (!backticks) throw new Error('markdown-it has no backticks rule');
  md.inline.ruler.at('backticks', (state: StateInline, silent: boolean) => {
    const from = state.pos;
    const before = state.tokens.length;
    if (!backticks(state, silent)) return false;
    const env = state.env as CodeSpanEnv;
    if (
      !silent &&
      state.src === env.source &&
      state.tokens.length > before &&
      state.tokens.at(-1)?.type === 'code_inline'
    )
      env.codeSpans?.push({ from, to: state.pos });
    return true;
  });
  parser = md;
  return md;
}

/** markdown-it's link helpers (an address, a title), to read links as the preview reads them. */
export function linkSyntaxHelpers(): MarkdownIt['helpers'] {
  return spanParser().helpers;
}

/** Start and end (before the line break) of each line, split as markdown-it splits them. */
function sourceLines(text: string, base: number): { starts: number[]; ends: number[] } {
  const starts = [base];
  const ends: number[] = [];
  const breaks = /\r\n|\r|\n/g;
  for (let match = breaks.exec(text); match; match = breaks.exec(text)) {
    ends.push(base + match.index);
    starts.push(base + match.index + match[0].length);
  }
  ends.push(base + text.length);
  return { starts, ends };
}

/** Counts the inline parses a call makes (tests: they are bounded by the blocks that need one). */
export interface ParseProbe {
  inlineParses: number;
}

let lastBody: string | undefined;
let lastRanges: LinkSourceRanges = { code: [], definitions: [] };

/**
 * Code and reference definitions in `body` (see LinkSourceRanges). Linear in the size of
 * the note: one block parse, and an inline parse only of the blocks with a backtick and a link.
 */
export function linkSourceRanges(body: string, probe?: ParseProbe): LinkSourceRanges {
  // Wikilinks and Markdown links are found one after the other in the same body.
  if (body === lastBody && !probe) return lastRanges;
  const ranges = parseRanges(body, probe);
  lastBody = body;
  lastRanges = ranges;
  return ranges;
}

/** Whether some link (`[[...]]`, `[text](...)`) may be in a block's text: only there do its code spans matter. */
function mayHoldLink(text: string): boolean {
  return text.includes('[[') || text.includes('](');
}

const NONE: LinkSourceRanges = { code: [], definitions: [] };

function parseRanges(body: string, probe?: ParseProbe): LinkSourceRanges {
  // No backtick, tilde fence, indent or `]:`: no code and no definition, and no parse.
  if (!/[`\t]|~~~| {4}|\]:/.test(body)) return NONE;
  // A byte-order mark is not content (as in document-ast); offsets stay the body's.
  const base = body.startsWith('\uFEFF') ? 1 : 0;
  const text = base === 0 ? body : body.slice(base);
  const md = spanParser();
  const tokens: Token[] = [];
  // markdown-it's `normalize` rule: line breaks become `\n`, which keeps line numbers and
  // the columns within each line, so token lines map onto the body's own lines.
  md.block.parse(text.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD'), md, {}, tokens);
  const lines = sourceLines(text, base);
  const lineFrom = (line: number) => lines.starts[Math.min(line, lines.starts.length - 1)] ?? 0;
  const lineTo = (line: number) => lines.ends[Math.min(line, lines.ends.length - 1)] ?? 0;
  const code: SourceRange[] = [];
  const definitions: SourceRange[] = [];
  const located = { line: -1, column: 0 };
  // A table's cells have no lines of their own: they are on their row's.
  let rowLine = 0;
  for (const token of tokens) {
    const [first, next] = token.map ?? [rowLine, rowLine + 1];
    if (token.type === 'tr_open') {
      rowLine = first;
    } else if (token.type === 'fence' || token.type === 'code_block') {
      code.push({ from: lineFrom(first), to: lineTo(next - 1) });
    } else if (token.type === 'reference_definition') {
      definitions.push({ from: lineFrom(first), to: lineTo(next - 1) });
    } else if (token.type === 'inline' && token.content.includes('`') && mayHoldLink(token.content)) {
      const env: CodeSpanEnv = { codeSpans: [], source: token.content };
      if (probe) probe.inlineParses++;
      md.inline.parse(token.content, md, env, []);
      if (env.codeSpans?.length) {
        const toSource = contentToSource(body, token.content, first, lineFrom, lineTo, located);
        for (const span of env.codeSpans) {
          const from = toSource(span.from);
          const to = toSource(span.to);
          // A line not found in the source: no range, rather than one in the wrong place.
          if (from !== null && to !== null) code.push({ from, to });
        }
      }
    }
  }
  // codeEndAt walks them in order.
  code.sort((a, b) => a.from - b.from);
  return { code, definitions };
}

/** Where `written` is in `source` from `after` on, and the columns of its backslashes the content lost. */
interface Found {
  column: number;
  /** Offsets in `written` of each `|` whose `\` a table cell's split took off, in order. */
  unescaped: number[];
}

/**
 * Finds a content line in its source line: as written, else with each `|` allowed its
 * `\` back (a table cell's content loses the backslash of an escaped pipe).
 */
function findLine(source: string, written: string, after: number): Found | null {
  const column = source.indexOf(written, after);
  if (column !== -1) return { column, unescaped: [] };
  if (!written.includes('|')) return null;
  const pattern = new RegExp(
    written.replace(/[.*+?^${}()|[\]\\]/g, (char) => (char === '|' ? '\\\\?\\|' : `\\${char}`)),
    'g',
  );
  pattern.lastIndex = after;
  const match = pattern.exec(source);
  if (!match) return null;
  const unescaped: number[] = [];
  for (let index = 0, at = match.index; index < written.length; index++, at++) {
    if (written.charAt(index) === '|' && source.charAt(at) === '\\') {
      unescaped.push(index);
      at++;
    }
  }
  return { column: match.index, unescaped };
}

/**
 * Maps offsets in an inline token's content, asked in increasing order, back to the
 * source, or to null where its line is not found there. Content is the block's lines
 * with their container's marks (`> `, a list item's indent, a table's pipes) taken off,
 * one content line to a source line from `firstLine` on, so each content line is looked
 * for in its source line; only lines a code span starts or ends on are, and those hold
 * a backtick, which no container mark does. `located` carries where the last line was
 * found from one token to the next: the cells of a table row share a line, each found
 * after the one before.
 */
function contentToSource(
  body: string,
  content: string,
  firstLine: number,
  lineFrom: (line: number) => number,
  lineTo: (line: number) => number,
  located: { line: number; column: number },
): (at: number) => number | null {
  let line = firstLine;
  let start = 0;
  let end = content.indexOf('\n');
  if (end === -1) end = content.length;
  let found: Found | null | undefined;
  return (at) => {
    while (at > end) {
      line++;
      start = end + 1;
      end = content.indexOf('\n', start);
      if (end === -1) end = content.length;
      found = undefined;
    }
    if (found === undefined) {
      const source = body.slice(lineFrom(line), lineTo(line));
      const written = content.slice(start, end);
      const after = located.line === line ? located.column : 0;
      found = findLine(source, written, after);
      if (!found) {
        // A tab partly eaten by a container's indent comes back as spaces.
        const trimmed = written.trimStart();
        const indent = written.length - trimmed.length;
        const inner = indent > 0 ? findLine(source, trimmed, after) : null;
        found = inner && {
          column: Math.max(0, inner.column - indent),
          unescaped: inner.unescaped.map((index) => index + indent),
        };
      }
      if (found) {
        located.line = line;
        located.column = found.column + written.length + found.unescaped.length;
      }
    }
    if (!found) return null;
    const offset = at - start;
    const lost = found.unescaped.filter((index) => index < offset).length;
    return lineFrom(line) + found.column + offset + lost;
  };
}

/**
 * `offset → end of the code range holding it, or -1`, for offsets asked in increasing
 * order (a cursor over `ranges`, so a whole scan of a note stays linear).
 */
export function codeEndAt(ranges: readonly SourceRange[]): (offset: number) => number {
  let index = 0;
  return (offset) => {
    while (index < ranges.length && ranges[index]!.to <= offset) index++;
    const range = ranges[index];
    return range !== undefined && range.from <= offset ? range.to : -1;
  };
}
