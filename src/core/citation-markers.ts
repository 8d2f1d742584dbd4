/**
 * An answer's `[n]` citation markers, read the same way by the chat's links and
 * the saved note's source list. Models write them as `[1]`, `[1][2]` or `三月[1]`;
 * a marker is not one when it is escaped (`\[1]`), a link's text (`[1](url)`), a
 * number that the answer defines as a reference (`[1]: url`), or code (`arr[1]`
 * in a code span or block, where a link would show up as raw Markdown).
 */
const MARKER = /(?<!\\)\[(\d+)\](?!\()/g;
const DEFINITION = /^ {0,3}\[(\d+)\]:/gm;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Where the text is prose: code blocks and code spans are cut out. */
function proseRanges(content: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  let fence: string | null = null;
  let offset = 0;
  for (const line of content.split(/(?<=\n)/)) {
    const opener = FENCE.exec(line)?.[1];
    if (fence === null && opener) {
      ranges.push(...spanFree(content, start, offset));
      fence = opener;
    } else if (
      fence !== null &&
      opener &&
      opener[0] === fence[0] &&
      opener.length >= fence.length &&
      line.trim() === opener
    ) {
      fence = null;
      start = offset + line.length;
    }
    offset += line.length;
  }
  if (fence === null) ranges.push(...spanFree(content, start, content.length));
  return ranges;
}

/** The parts of `content[from, to)` outside backtick code spans. */
function spanFree(content: string, from: number, to: number): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const ticks = /`+/g;
  ticks.lastIndex = from;
  let start = from;
  for (let open = ticks.exec(content); open && open.index < to; open = ticks.exec(content)) {
    const run = open[0];
    const close = new RegExp(`(?<!\`)${run}(?!\`)`, 'g');
    close.lastIndex = open.index + run.length;
    const end = close.exec(content);
    if (!end || end.index >= to) break; // An unclosed run is literal backticks.
    ranges.push([start, open.index]);
    start = end.index + run.length;
    ticks.lastIndex = start;
  }
  ranges.push([start, to]);
  return ranges;
}

function definedNumbers(content: string): Set<number> {
  return new Set([...content.matchAll(DEFINITION)].map((match) => Number(match[1])));
}

/** Replaces each marker whose number is in `known`; others, and code, stay as written. */
export function replaceCitationMarkers(
  content: string,
  known: ReadonlySet<number>,
  replace: (index: number) => string,
): string {
  const defined = definedNumbers(content);
  let out = '';
  let last = 0;
  for (const [from, to] of proseRanges(content)) {
    out += content.slice(last, from);
    out += content.slice(from, to).replace(MARKER, (marker, digits: string) => {
      const index = Number(digits);
      return known.has(index) && !defined.has(index) ? replace(index) : marker;
    });
    last = to;
  }
  return out + content.slice(last);
}

/** The numbers among `known` that the answer cites, in the order of `known`. */
export function citedIndices(content: string, known: Iterable<number>): number[] {
  const all = new Set(known);
  const cited = new Set<number>();
  replaceCitationMarkers(content, all, (index) => {
    cited.add(index);
    return '';
  });
  return [...all].filter((index) => cited.has(index));
}

/**
 * Splits sources into those the answer cites and the rest. An answer that cites
 * none of them (a model that ignored the instruction, or one still streaming) has
 * every source as `cited`: nothing tells them apart, so none is hidden.
 */
export function splitBySourceUse<T extends { index: number }>(
  content: string,
  sources: readonly T[],
): { cited: T[]; uncited: T[] } {
  const cited = new Set(
    citedIndices(
      content,
      sources.map((source) => source.index),
    ),
  );
  if (cited.size === 0) return { cited: [...sources], uncited: [] };
  return {
    cited: sources.filter((source) => cited.has(source.index)),
    uncited: sources.filter((source) => !cited.has(source.index)),
  };
}
