import { parseBlocks, type ParsedBlock } from '../../core/blocks';

/** A top-level block with the offset of its first character in the note. */
export interface SplitBlock extends ParsedBlock {
  offset: number;
}

/** Old blocks checked past the edit before the window grows (then 4×, 16×, … of them). */
const FIRST_WINDOW_BLOCKS = 2;
const WINDOW_GROWTH = 4;
/** What may open front matter on the note's first line (its closing line can be anywhere). */
const FRONT_MATTER_OPENING = /^\uFEFF?---/;

/**
 * The preview's block splitter: the same blocks as `parseBlocks`, but an edit
 * re-parses only a window around the changed text instead of the whole note
 * (the Document AST's block stage costs tens of milliseconds per 100 K
 * characters, too much to pay while typing in a long note).
 *
 * Why a window is enough: a top-level block starts from a fresh parser state.
 * The window opens at the block before the first changed line (the text before
 * it is unchanged, and so is the decision that a block starts there), and it
 * may close once its parse starts a block exactly where an old block started
 * after the change: from there on the text is the old text, shifted, so the
 * rest of the parse is the old one, shifted. When no such block comes (an
 * unclosed fence now swallows the rest), the window grows up to the note's end.
 */
export class BlockSplitter {
  #source: string | null = null;
  #blocks: SplitBlock[] = [];
  #parsedChars = 0;

  /** Characters handed to the parser so far (what an edit cost). */
  get parsedChars(): number {
    return this.#parsedChars;
  }

  split(source: string): readonly SplitBlock[] {
    if (source === this.#source) return this.#blocks;
    const previous = this.#source;
    // A textarea's value has LF line breaks only; anything else is parsed whole.
    const incremental =
      previous !== null && !source.includes('\r') && !previous.includes('\r')
        ? this.#splitEdit(previous, source)
        : null;
    this.#blocks = incremental ?? this.#window(source, 0, 0, source.length);
    this.#source = source;
    return this.#blocks;
  }

  #splitEdit(previous: string, next: string): SplitBlock[] {
    const old = this.#blocks;
    const shortest = Math.min(previous.length, next.length);
    let prefix = 0;
    while (prefix < shortest && previous.charCodeAt(prefix) === next.charCodeAt(prefix)) prefix += 1;
    let suffix = 0;
    while (
      suffix < shortest - prefix &&
      previous.charCodeAt(previous.length - 1 - suffix) === next.charCodeAt(next.length - 1 - suffix)
    )
      suffix += 1;
    const oldEnd = previous.length - suffix;
    const charDelta = next.length - previous.length;
    const lineDelta = countLines(next, prefix, next.length - suffix) - countLines(previous, prefix, oldEnd);

    // The block before the first one the change reaches.
    const touched = firstIndex(old, (block) => block.offset + block.text.length >= prefix);
    let keep = Math.max(0, touched - 1);
    let from = old[keep]?.offset ?? 0;
    let fromLine = old[keep]?.start_line ?? 0;
    // Only the note's first line may open front matter (or carry a byte-order
    // mark): a window must not start with what looks like either.
    if (keep === 0 || next.startsWith('---', from) || next.startsWith('\uFEFF', from)) {
      // Front matter at the top may close anywhere below: then the note is parsed whole.
      if (FRONT_MATTER_OPENING.test(next)) return this.#window(next, 0, 0, next.length);
      keep = 0;
      from = 0;
      fromLine = 0;
    }
    // A line ending in `$$` closes the nearest unclosed `$$` above it, however far
    // up, and a `---` or `...` line may close front matter left open at the top:
    // an edit on such a line re-parses the note.
    const lineFrom = previous.lastIndexOf('\n', prefix - 1) + 1;
    const editedLines = `${linesAround(previous, lineFrom, oldEnd)}\n${linesAround(next, lineFrom, next.length - suffix)}`;
    if (
      (editedLines.includes('$$') && from > 0 && next.lastIndexOf('$$', from - 1) !== -1) ||
      (FRONT_MATTER_OPENING.test(next) && (editedLines.includes('---') || editedLines.includes('...')))
    )
      return this.#window(next, 0, 0, next.length);
    const kept = old.slice(0, keep);

    // Old blocks whose line break before them is past the change.
    const after = firstIndex(old, (block) => block.offset > oldEnd);
    for (let span = FIRST_WINDOW_BLOCKS; ; span *= WINDOW_GROWTH) {
      const last = after + span - 1;
      if (last >= old.length - 1) return kept.concat(this.#window(next, from, fromLine, next.length));
      const lastBlock = old[last]!;
      const to = lastBlock.offset + lastBlock.text.length + charDelta;
      const window = this.#window(next, from, fromLine, to);
      const oldAt = new Map<number, number>();
      for (let index = after; index <= last; index += 1) oldAt.set(old[index]!.offset + charDelta, index);
      // A `$$` that is not math in the window may be an opener whose closing line lies past it.
      const mayCloseLater = next.indexOf('$$', to) !== -1;
      for (let index = 0; index < window.length; index += 1) {
        const block = window[index]!;
        const match = oldAt.get(block.offset);
        if (match === undefined || old[match]!.start_line + lineDelta !== block.start_line) {
          if (mayCloseLater && block.type !== 'math' && block.text.includes('$$')) break;
          continue;
        }
        const rest = old.slice(match).map((moved) => shifted(moved, charDelta, lineDelta));
        return kept.concat(window.slice(0, index), rest);
      }
    }
  }

  /** `parseBlocks` of `source[from, to)`, placed in the note: `from` starts line `fromLine`. */
  #window(source: string, from: number, fromLine: number, to: number): SplitBlock[] {
    const text = from === 0 && to === source.length ? source : source.slice(from, to);
    this.#parsedChars += text.length;
    const starts = lineStarts(text);
    return parseBlocks(text).map((block) => ({
      ...block,
      offset: from + starts[block.start_line]!,
      start_line: block.start_line + fromLine,
      end_line: block.end_line + fromLine,
    }));
  }
}

function shifted(block: SplitBlock, charDelta: number, lineDelta: number): SplitBlock {
  if (charDelta === 0 && lineDelta === 0) return block;
  return {
    ...block,
    offset: block.offset + charDelta,
    start_line: block.start_line + lineDelta,
    end_line: block.end_line + lineDelta,
  };
}

/** The first index whose block passes (blocks are in order, so the test is monotone); the length when none does. */
function firstIndex(blocks: readonly SplitBlock[], passes: (block: SplitBlock) => boolean): number {
  let low = 0;
  let high = blocks.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (passes(blocks[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** `text` from `from` (a line start) to the end of the line holding `to`. */
function linesAround(text: string, from: number, to: number): string {
  const end = text.indexOf('\n', to);
  return text.slice(from, end === -1 ? text.length : end);
}

function countLines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/** Offset of each line's first character (LF line breaks; a leading byte-order mark is not part of line 0). */
function lineStarts(text: string): number[] {
  const starts = [text.startsWith('\uFEFF') ? 1 : 0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}
