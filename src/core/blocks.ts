import { contentHash } from './content-hash';
import type { DocumentNodeType } from '../contracts/exports';
import { parseDocumentAst } from './markdown/document-ast';

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
// Parsing: the top-level nodes of the Document AST, so the indexer, the preview
// and the exporters agree on where a block starts and ends.
// ---------------------------------------------------------------------------

/**
 * Version of the block boundaries. Stored blocks and search indexes made with
 * another version are rebuilt (block ids are kept where a block's text is
 * unchanged or similar).
 */
export const BLOCK_FORMAT = 'ast-v1';

const TYPE_OF_NODE: Readonly<Partial<Record<DocumentNodeType, BlockType>>> = {
  heading: 'heading',
  paragraph: 'paragraph',
  list: 'list',
  code_block: 'code',
  mermaid: 'code',
  function_plot: 'code',
  blockquote: 'quote',
  table: 'table',
  math_block: 'math',
  html_block: 'html',
  thematic_break: 'rule',
};

const LINE_BREAK = /\r\n|\n|\r/g;

/** Start and end offsets of every line; a leading byte-order mark is not part of line 0. */
function lineBounds(source: string): Array<[number, number]> {
  const bounds: Array<[number, number]> = [];
  let start = source.startsWith('\uFEFF') ? 1 : 0;
  LINE_BREAK.lastIndex = start;
  for (;;) {
    const found = LINE_BREAK.exec(source);
    const end = found ? found.index : source.length;
    bounds.push([start, end]);
    if (!found) return bounds;
    start = end + found[0].length;
  }
}

/**
 * Splits Markdown into top-level blocks: the children of the Document AST's
 * root, built by the block stage of the app's one Markdown grammar. Front
 * matter is not a block; lines are 0-based; CR, LF and CRLF are all accepted.
 * Lines the grammar keeps out of the tree (link reference definitions) become
 * paragraphs, so they are still searchable and the preview still sees them.
 */
export function parseBlocks(markdown: string): ParsedBlock[] {
  const bounds = lineBounds(markdown);
  const blank = (line: number): boolean => {
    const [start, end] = bounds[line] ?? [0, 0];
    return markdown.slice(start, end).trim() === '';
  };
  const blocks: ParsedBlock[] = [];
  const push = (type: BlockType, first: number, through: number, level?: number): void => {
    let last = through;
    while (last > first && blank(last)) last--;
    const block: ParsedBlock = {
      type,
      text: markdown.slice(bounds[first]?.[0] ?? 0, bounds[last]?.[1] ?? 0),
      start_line: first,
      end_line: last,
    };
    if (level !== undefined) block.level = level;
    blocks.push(block);
  };
  /** Non-blank lines in [from, to) that no node covers, as paragraphs. */
  const uncovered = (from: number, to: number): void => {
    let start = -1;
    for (let line = from; line <= to; line++) {
      const ends = line === to || blank(line);
      if (ends && start !== -1) {
        push('paragraph', start, line - 1);
        start = -1;
      } else if (!ends && start === -1) {
        start = line;
      }
    }
  };

  let next = 0;
  for (const node of parseDocumentAst(markdown, { inline: false }).children) {
    const position = node.position;
    if (!position) continue;
    const first = Math.max(position.start_line, next);
    const through = Math.min(position.end_line, bounds.length) - 1;
    if (through < first) continue;
    uncovered(next, first);
    next = through + 1;
    const type = TYPE_OF_NODE[node.type];
    if (type === undefined) continue; // front matter
    const level = node.type === 'heading' ? Number(node.attributes['level']) : undefined;
    push(type, first, through, level);
  }
  uncovered(next, bounds.length);
  return blocks;
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
