import { contentHash } from './content-hash';
import { frontMatterLength } from './front-matter';

/**
 * Markdown blocks with ids that survive edits. Citations and retrieval chunks
 * point at `block_id`, so the id of a block must outlive typing in it, moving
 * it, and inserting or deleting blocks around it.
 */

export type BlockType =
  'heading' | 'paragraph' | 'list' | 'code' | 'quote' | 'table' | 'math' | 'html' | 'rule';

export interface ParsedBlock {
  type: BlockType;
  /** The exact source slice, original line endings included, trailing blank lines excluded. */
  text: string;
  /** 0-based, inclusive. */
  start_line: number;
  end_line: number;
  /** Heading level, 1..6; headings only. */
  level?: number;
}

export interface DerivedBlock {
  block_id: string;
  type: BlockType;
  text: string;
  /** 0-based index of the block in the note. */
  position: number;
  start_line: number;
  end_line: number;
  hash: string;
  level?: number;
}

// ---------------------------------------------------------------------------
// Parsing: a line-based splitter that follows CommonMark + GFM block starts
// closely enough for ids, without the cost of a full Markdown parse per edit.
// ---------------------------------------------------------------------------

interface Line {
  start: number;
  end: number;
  blank: boolean;
  /** Leading whitespace in columns, tabs to the next multiple of 4. */
  indent: number;
  /** The line without its leading whitespace. */
  content: string;
}

interface Fence {
  marker: '`' | '~';
  length: number;
}

interface ListMarker {
  /** The bullet character or the ordered delimiter; a change starts a new list. */
  kind: string;
  ordered: boolean;
  startNumber: number;
  empty: boolean;
  /** Column where the item's content starts; deeper lines belong to the item. */
  contentIndent: number;
}

const LINE_BREAK = /\r\n|\n|\r/g;
const ATX_HEADING = /^(#{1,6})(?:[ \t]|$)/;
const FENCE_OPEN = /^(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^(`{3,}|~{3,})[ \t]*$/;
const THEMATIC_BREAK = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_MARKER = /^(?:[*+-]|(\d{1,9})[.)])(?=[ \t]|$)/;
const SETEXT_UNDERLINE = /^(=+|-+)[ \t]*$/;
const TABLE_DELIMITER_ROW = /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?$/;
const UNESCAPED_PIPE = /(?<!\\)\|/;

// CommonMark HTML block start conditions 1-5 end at a marker, 6-7 at a blank line.
const HTML_UNTIL_MARKER: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^<(?:script|pre|style|textarea)(?:[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^<!--/, /-->/],
  [/^<\?/, /\?>/],
  [/^<![A-Za-z]/, />/],
  [/^<!\[CDATA\[/, /\]\]>/],
];
const HTML_BLOCK_TAG =
  /^<\/?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[\s/>]|$)/i;
const HTML_LONE_TAG =
  /^(?:<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>|<\/[A-Za-z][A-Za-z0-9-]*\s*>)[ \t]*$/;

function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  // A byte-order mark is not content; keeping it would hide a heading on line 0.
  let start = source.startsWith('\uFEFF') ? 1 : 0;
  LINE_BREAK.lastIndex = start;
  for (;;) {
    const found = LINE_BREAK.exec(source);
    const end = found ? found.index : source.length;
    lines.push(describeLine(source.slice(start, end), start, end));
    if (!found) return lines;
    start = end + found[0].length;
  }
}

function describeLine(text: string, start: number, end: number): Line {
  let indent = 0;
  let offset = 0;
  for (; offset < text.length; offset++) {
    const character = text[offset];
    if (character === ' ') indent += 1;
    else if (character === '\t') indent += 4 - (indent % 4);
    else break;
  }
  return { start, end, blank: offset === text.length, indent, content: text.slice(offset) };
}

function atxLevel(line: Line): number | undefined {
  if (line.indent >= 4) return undefined;
  return ATX_HEADING.exec(line.content)?.[1]?.length;
}

function fenceOf(line: Line): Fence | undefined {
  if (line.indent >= 4) return undefined;
  const match = FENCE_OPEN.exec(line.content);
  const run = match?.[1];
  if (run === undefined) return undefined;
  const marker = run.startsWith('`') ? '`' : '~';
  // A backtick fence's info string cannot hold backticks (that is inline code).
  if (marker === '`' && (match?.[2] ?? '').includes('`')) return undefined;
  return { marker, length: run.length };
}

function closesFence(line: Line, fence: Fence): boolean {
  if (line.indent >= 4) return false;
  const run = FENCE_CLOSE.exec(line.content)?.[1];
  return run !== undefined && run.startsWith(fence.marker) && run.length >= fence.length;
}

function opensMath(line: Line): boolean {
  return line.indent < 4 && line.content.startsWith('$$');
}

function isThematicBreak(line: Line): boolean {
  return line.indent < 4 && THEMATIC_BREAK.test(line.content);
}

function isQuote(line: Line): boolean {
  return line.indent < 4 && line.content.startsWith('>');
}

function listMarkerOf(line: Line): ListMarker | undefined {
  if (line.indent >= 4) return undefined;
  const match = LIST_MARKER.exec(line.content);
  if (!match) return undefined;
  const markerWidth = match[0].length;
  const after = line.content.slice(markerWidth);
  const spacing = describeLine(after, 0, 0);
  const empty = spacing.blank;
  // CommonMark: 1-4 spaces after the marker set the content column; with more,
  // the item starts with indented code one column after the marker.
  const gap = empty || spacing.indent > 4 ? 1 : spacing.indent;
  const digits = match[1];
  return {
    kind: match[0].slice(-1),
    ordered: digits !== undefined,
    startNumber: digits === undefined ? 0 : Number(digits),
    empty,
    contentIndent: line.indent + markerWidth + gap,
  };
}

/** 1-5: ends at a marker; 6-7: ends at a blank line; 0: not HTML. */
function htmlKind(line: Line): number {
  if (line.indent >= 4 || !line.content.startsWith('<')) return 0;
  const untilMarker = HTML_UNTIL_MARKER.findIndex(([start]) => start.test(line.content));
  if (untilMarker >= 0) return untilMarker + 1;
  if (HTML_BLOCK_TAG.test(line.content)) return 6;
  return HTML_LONE_TAG.test(line.content) ? 7 : 0;
}

function setextLevel(line: Line): number | undefined {
  if (line.indent >= 4) return undefined;
  const run = SETEXT_UNDERLINE.exec(line.content)?.[1];
  if (run === undefined) return undefined;
  return run.startsWith('=') ? 1 : 2;
}

function tableCellCount(row: string): number {
  let cells = row.trim();
  if (cells.startsWith('|')) cells = cells.slice(1);
  if (cells.endsWith('|') && !cells.endsWith('\\|')) cells = cells.slice(0, -1);
  return cells.split(UNESCAPED_PIPE).length;
}

/** Everything that may end a paragraph (and so a lazy continuation) without a blank line. */
function interruptsParagraph(line: Line): boolean {
  if (line.blank || line.indent >= 4) return false;
  if (atxLevel(line) !== undefined || fenceOf(line) || opensMath(line) || isThematicBreak(line)) return true;
  if (isQuote(line)) return true;
  const html = htmlKind(line);
  if (html >= 1 && html <= 6) return true;
  const marker = listMarkerOf(line);
  // Only non-empty bullets and ordered lists starting at 1 may interrupt, so
  // "in\n2019. we moved" stays one paragraph.
  return marker !== undefined && !marker.empty && (!marker.ordered || marker.startNumber === 1);
}

/**
 * Splits Markdown into top-level blocks. YAML front matter is skipped; lines
 * are 0-based; CR, LF and CRLF line endings are all accepted.
 */
export function parseBlocks(markdown: string): ParsedBlock[] {
  const lines = splitLines(markdown);
  const count = lines.length;
  const line = (index: number): Line => {
    const found = lines[index];
    if (!found) throw new RangeError(`line ${index} out of range`);
    return found;
  };
  const lastNonBlank = (from: number, to: number): number => {
    let index = to;
    while (index > from && line(index).blank) index--;
    return index;
  };

  const blocks: ParsedBlock[] = [];
  const push = (type: BlockType, first: number, last: number, level?: number): void => {
    const block: ParsedBlock = {
      type,
      text: markdown.slice(line(first).start, line(last).end),
      start_line: first,
      end_line: last,
    };
    if (level !== undefined) block.level = level;
    blocks.push(block);
  };

  let index = 0;
  const bodyStart = frontMatterLength(markdown);
  while (bodyStart > 0 && index < count && line(index).start < bodyStart) index++;

  while (index < count) {
    const current = line(index);
    if (current.blank) {
      index++;
      continue;
    }

    if (current.indent >= 4) {
      let last = index;
      for (let next = index + 1; next < count && (line(next).blank || line(next).indent >= 4); next++) {
        if (!line(next).blank) last = next;
      }
      push('code', index, last);
      index = last + 1;
      continue;
    }

    const fence = fenceOf(current);
    if (fence) {
      let close = index + 1;
      while (close < count && !closesFence(line(close), fence)) close++;
      // An unclosed fence runs to the end of the document, as in CommonMark.
      const last = close < count ? close : lastNonBlank(index, count - 1);
      push('code', index, last);
      index = last + 1;
      continue;
    }

    if (opensMath(current)) {
      const rest = current.content.slice(2).trimEnd();
      let last = index;
      if (!(rest.length >= 2 && rest.endsWith('$$'))) {
        let close = index + 1;
        while (
          close < count &&
          !markdown.slice(line(close).start, line(close).end).trimEnd().endsWith('$$')
        ) {
          close++;
        }
        last = close < count ? close : lastNonBlank(index, count - 1);
      }
      push('math', index, last);
      index = last + 1;
      continue;
    }

    const headingLevel = atxLevel(current);
    if (headingLevel !== undefined) {
      push('heading', index, index, headingLevel);
      index++;
      continue;
    }

    if (isThematicBreak(current)) {
      push('rule', index, index);
      index++;
      continue;
    }

    if (isQuote(current)) {
      let next = index + 1;
      while (next < count && !line(next).blank && (isQuote(line(next)) || !interruptsParagraph(line(next)))) {
        next++;
      }
      push('quote', index, next - 1);
      index = next;
      continue;
    }

    const html = htmlKind(current);
    if (html > 0) {
      let last: number;
      if (html <= 5) {
        const end = HTML_UNTIL_MARKER[html - 1]?.[1];
        let close = index;
        while (close < count && !end?.test(markdown.slice(line(close).start, line(close).end))) close++;
        last = close < count ? close : lastNonBlank(index, count - 1);
      } else {
        last = index;
        while (last + 1 < count && !line(last + 1).blank) last++;
      }
      push('html', index, last);
      index = last + 1;
      continue;
    }

    const marker = listMarkerOf(current);
    if (marker) {
      const last = listEnd(index, marker);
      push('list', index, last);
      index = last + 1;
      continue;
    }

    const next = lines[index + 1];
    if (
      next &&
      current.content.includes('|') &&
      next.indent < 4 &&
      // A pipe-less `---` under a one-cell row is a setext underline, not a table.
      next.content.includes('|') &&
      TABLE_DELIMITER_ROW.test(next.content.trimEnd()) &&
      tableCellCount(next.content) === tableCellCount(current.content)
    ) {
      let last = index + 1;
      while (last + 1 < count && !line(last + 1).blank && !interruptsParagraph(line(last + 1))) last++;
      push('table', index, last);
      index = last + 1;
      continue;
    }

    // Paragraph, or a setext heading when an underline ends it.
    let last = index;
    let setext: number | undefined;
    while (last + 1 < count) {
      const following = line(last + 1);
      if (following.blank) break;
      setext = setextLevel(following);
      if (setext !== undefined) {
        last++;
        break;
      }
      if (interruptsParagraph(following)) break;
      last++;
    }
    if (setext === undefined) push('paragraph', index, last);
    else push('heading', index, last, setext);
    index = last + 1;
  }
  return blocks;

  /**
   * A whole list (all items, nested lists, continuation paragraphs) is one
   * block. After a blank line it only goes on with another item or a line
   * indented into the current item; otherwise that line starts a new block.
   */
  function listEnd(first: number, marker: ListMarker): number {
    let itemIndent = marker.contentIndent;
    let last = first;
    let afterBlank = false;
    for (let next = first + 1; next < count; next++) {
      const candidate = line(next);
      if (candidate.blank) {
        afterBlank = true;
        continue;
      }
      if (candidate.indent >= itemIndent) {
        last = next;
      } else if (isThematicBreak(candidate)) {
        break;
      } else {
        const sibling = listMarkerOf(candidate);
        // CommonMark: a different bullet or delimiter starts another list.
        if (sibling && sibling.kind !== marker.kind) break;
        if (sibling) {
          itemIndent = sibling.contentIndent;
          last = next;
        } else if (!afterBlank && !interruptsParagraph(candidate)) {
          last = next; // lazy continuation of the item's paragraph
        } else {
          break;
        }
      }
      afterBlank = false;
    }
    return last;
  }
}

// ---------------------------------------------------------------------------
// Deriving ids.
// ---------------------------------------------------------------------------

/** Hash of a block's type and text; trailing spaces and line-ending style do not count. */
export function blockHash(type: BlockType, text: string): string {
  const normalized = text
    .split(/\r\n|\n|\r/)
    .map((row) => row.replace(/[ \t]+$/, ''))
    .join('\n');
  return contentHash(`${type}\u0000${normalized}`);
}

/** Edited blocks at or above this similarity (and of the same type) keep their id. */
export const SIMILARITY_THRESHOLD = 0.5;
// Beyond this many candidate pairs in one gap, only nearby pairs are compared.
const FULL_COMPARISON_LIMIT = 10_000;
const COMPARISON_BAND = 25;
// Above this many equal-hash pairs (say, thousands of identical rules) an exact
// LCS costs too much memory; in-order greedy matching is used instead.
const LCS_PAIR_LIMIT = 2_000_000;
const NEW_ID_ATTEMPTS = 1_000;

/**
 * Parses `markdown` and gives each block an id, reusing ids from `previous`:
 * 1. unchanged blocks (same hash), aligned by a longest common subsequence so
 *    order is respected and duplicates pair up in order;
 * 2. unchanged blocks that moved (same hash, out of order);
 * 3. within each gap between the aligned blocks, edited blocks of the same type
 *    whose character-bigram Dice similarity is at least SIMILARITY_THRESHOLD,
 *    best pairs first;
 * 4. every other block gets `newId()`.
 * Ids in the result are unique, and a new id never repeats one of `previous`,
 * so a citation to a deleted block cannot land on an unrelated new one.
 */
export function deriveBlocks(
  previous: readonly DerivedBlock[],
  markdown: string,
  newId: () => string,
): DerivedBlock[] {
  const parsed = parseBlocks(markdown);
  // Stored hashes may come from an older normalisation, so both sides are rehashed.
  const oldHashes = previous.map((block) => blockHash(block.type, block.text));
  const newHashes = parsed.map((block) => blockHash(block.type, block.text));
  const oldFor = new Array<number>(parsed.length).fill(-1);
  const oldTaken = new Array<boolean>(previous.length).fill(false);
  const link = (oldIndex: number, newIndex: number): void => {
    oldFor[newIndex] = oldIndex;
    oldTaken[oldIndex] = true;
  };

  const anchors = alignEqual(oldHashes, newHashes);
  for (const [oldIndex, newIndex] of anchors) link(oldIndex, newIndex);

  const unmatchedOld = new Map<string, number[]>();
  oldHashes.forEach((hash, oldIndex) => {
    if (oldTaken[oldIndex]) return;
    const list = unmatchedOld.get(hash);
    if (list) list.push(oldIndex);
    else unmatchedOld.set(hash, [oldIndex]);
  });
  newHashes.forEach((hash, newIndex) => {
    if (oldFor[newIndex] !== -1) return;
    const oldIndex = unmatchedOld.get(hash)?.shift();
    if (oldIndex !== undefined) link(oldIndex, newIndex);
  });

  let oldFrom = 0;
  let newFrom = 0;
  for (const [oldTo, newTo] of [...anchors, [previous.length, parsed.length] as const]) {
    const oldGap: number[] = [];
    for (let oldIndex = oldFrom; oldIndex < oldTo; oldIndex++) if (!oldTaken[oldIndex]) oldGap.push(oldIndex);
    const newGap: number[] = [];
    for (let newIndex = newFrom; newIndex < newTo; newIndex++)
      if (oldFor[newIndex] === -1) newGap.push(newIndex);
    if (oldGap.length > 0 && newGap.length > 0) {
      for (const [oldIndex, newIndex] of matchSimilar(previous, oldGap, parsed, newGap))
        link(oldIndex, newIndex);
    }
    oldFrom = oldTo + 1;
    newFrom = newTo + 1;
  }

  const reserved = new Set(previous.map((block) => block.block_id));
  const used = new Set<string>();
  const ids = oldFor.map((oldIndex) => {
    const id = previous[oldIndex]?.block_id;
    // A corrupted `previous` with a repeated id must not make the output repeat it.
    if (id === undefined || used.has(id)) return undefined;
    used.add(id);
    return id;
  });
  return parsed.map((block, position) => {
    const block_id = ids[position] ?? freshId(newId, reserved, used);
    const derived: DerivedBlock = {
      block_id,
      type: block.type,
      text: block.text,
      position,
      start_line: block.start_line,
      end_line: block.end_line,
      hash: newHashes[position] ?? '',
    };
    if (block.level !== undefined) derived.level = block.level;
    return derived;
  });
}

function freshId(newId: () => string, reserved: ReadonlySet<string>, used: Set<string>): string {
  for (let attempt = 0; attempt < NEW_ID_ATTEMPTS; attempt++) {
    const id = newId();
    if (!reserved.has(id) && !used.has(id)) {
      used.add(id);
      return id;
    }
  }
  throw new Error('newId() keeps returning ids that are already in use');
}

/** Pairs [oldIndex, newIndex] of a longest common subsequence of equal hashes, in order. */
function alignEqual(oldHashes: readonly string[], newHashes: readonly string[]): Array<[number, number]> {
  // A common prefix and suffix always belong to some LCS; trimming them makes
  // the usual single-block edit linear.
  let prefix = 0;
  while (prefix < oldHashes.length && prefix < newHashes.length && oldHashes[prefix] === newHashes[prefix]) {
    prefix++;
  }
  let suffix = 0;
  while (
    suffix < oldHashes.length - prefix &&
    suffix < newHashes.length - prefix &&
    oldHashes[oldHashes.length - 1 - suffix] === newHashes[newHashes.length - 1 - suffix]
  ) {
    suffix++;
  }
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index < prefix; index++) pairs.push([index, index]);
  const middle = longestCommonSubsequence(
    oldHashes.slice(prefix, oldHashes.length - suffix),
    newHashes.slice(prefix, newHashes.length - suffix),
  );
  for (const [oldIndex, newIndex] of middle) pairs.push([oldIndex + prefix, newIndex + prefix]);
  for (let index = suffix; index > 0; index--) {
    pairs.push([oldHashes.length - index, newHashes.length - index]);
  }
  return pairs;
}

interface Chain {
  oldIndex: number;
  newIndex: number;
  before: Chain | undefined;
}

/**
 * Hunt-Szymanski: O((r + n) log n) for r equal pairs, which is small for notes
 * where most blocks are distinct, and needs no n*m table.
 */
function longestCommonSubsequence(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  if (a.length === 0 || b.length === 0) return [];
  const positions = new Map<string, number[]>();
  a.forEach((hash, index) => {
    const list = positions.get(hash);
    if (list) list.push(index);
    else positions.set(hash, [index]);
  });
  let pairCount = 0;
  for (const hash of b) pairCount += positions.get(hash)?.length ?? 0;
  if (pairCount > LCS_PAIR_LIMIT) return greedyInOrder(positions, b);

  // thresholds[k]: the smallest old index ending a common subsequence of length k + 1.
  const thresholds: number[] = [];
  const chains: Chain[] = [];
  b.forEach((hash, newIndex) => {
    const list = positions.get(hash);
    if (!list) return;
    // Descending, so one new block cannot extend a chain it just joined.
    for (let position = list.length - 1; position >= 0; position--) {
      const oldIndex = list[position] ?? 0;
      let low = 0;
      let high = thresholds.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((thresholds[middle] ?? 0) < oldIndex) low = middle + 1;
        else high = middle;
      }
      if (thresholds[low] === oldIndex) continue;
      thresholds[low] = oldIndex;
      chains[low] = { oldIndex, newIndex, before: low > 0 ? chains[low - 1] : undefined };
    }
  });
  const pairs: Array<[number, number]> = [];
  for (let chain = chains[thresholds.length - 1]; chain; chain = chain.before) {
    pairs.push([chain.oldIndex, chain.newIndex]);
  }
  return pairs.reverse();
}

function greedyInOrder(
  positions: ReadonlyMap<string, number[]>,
  b: readonly string[],
): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let after = -1;
  b.forEach((hash, newIndex) => {
    const oldIndex = positions.get(hash)?.find((candidate) => candidate > after);
    if (oldIndex === undefined) return;
    pairs.push([oldIndex, newIndex]);
    after = oldIndex;
  });
  return pairs;
}

interface Profile {
  grams: Map<string, number>;
  size: number;
  normalized: string;
}

function matchSimilar(
  previous: readonly DerivedBlock[],
  oldGap: readonly number[],
  parsed: readonly ParsedBlock[],
  newGap: readonly number[],
): Array<[number, number]> {
  const banded = oldGap.length * newGap.length > FULL_COMPARISON_LIMIT;
  const oldProfiles = new Map<number, Profile>();
  const candidates: Array<{ score: number; oldRank: number; newRank: number }> = [];
  newGap.forEach((newIndex, newRank) => {
    const newBlock = parsed[newIndex];
    if (!newBlock) return;
    const newProfile = profileOf(newBlock.text);
    oldGap.forEach((oldIndex, oldRank) => {
      const oldBlock = previous[oldIndex];
      if (!oldBlock || oldBlock.type !== newBlock.type) return;
      if (banded && Math.abs(oldRank - newRank) > COMPARISON_BAND) return;
      let oldProfile = oldProfiles.get(oldIndex);
      if (!oldProfile) {
        oldProfile = profileOf(oldBlock.text);
        oldProfiles.set(oldIndex, oldProfile);
      }
      const score = dice(oldProfile, newProfile);
      if (score >= SIMILARITY_THRESHOLD) candidates.push({ score, oldRank, newRank });
    });
  });
  // Best pairs first; ties go to the earliest blocks so the result is stable.
  candidates.sort((x, y) => y.score - x.score || x.newRank - y.newRank || x.oldRank - y.oldRank);
  const oldDone = new Set<number>();
  const newDone = new Set<number>();
  const pairs: Array<[number, number]> = [];
  for (const { oldRank, newRank } of candidates) {
    if (oldDone.has(oldRank) || newDone.has(newRank)) continue;
    oldDone.add(oldRank);
    newDone.add(newRank);
    pairs.push([oldGap[oldRank] ?? -1, newGap[newRank] ?? -1]);
  }
  return pairs;
}

/**
 * Character bigrams over code points: works the same for Chinese (no spaces
 * between words) and English, and one edited word changes only a few bigrams.
 * Punctuation and Markdown syntax are folded to spaces so that two different
 * lists or tables do not look alike just because of their `- ` and `|`.
 */
export function textSimilarity(a: string, b: string): number {
  return dice(profileOf(a), profileOf(b));
}

function profileOf(text: string): Profile {
  const lowered = text.toLowerCase();
  const words = lowered.replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ').trim();
  const normalized = words === '' ? lowered.replace(/\s+/g, ' ').trim() : words;
  const characters = Array.from(normalized);
  const grams = new Map<string, number>();
  const add = (gram: string): void => {
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  };
  if (characters.length === 1) add(normalized);
  for (let index = 0; index + 1 < characters.length; index++) {
    add(`${characters[index] ?? ''}${characters[index + 1] ?? ''}`);
  }
  const size = characters.length === 1 ? 1 : Math.max(characters.length - 1, 0);
  return { grams, size, normalized };
}

function dice(a: Profile, b: Profile): number {
  if (a.size === 0 || b.size === 0) return a.normalized === b.normalized ? 1 : 0;
  const [small, large] = a.grams.size <= b.grams.size ? [a, b] : [b, a];
  let shared = 0;
  for (const [gram, count] of small.grams) shared += Math.min(count, large.grams.get(gram) ?? 0);
  return (2 * shared) / (a.size + b.size);
}
