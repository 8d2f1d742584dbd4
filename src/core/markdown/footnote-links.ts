import { FOOTNOTE_LABELS } from './syntax';

/**
 * Which blocks of a note cite which footnote definitions. Retrieval keeps a
 * claim and its footnote (`…claim.[^1]` / `[^1]: the source`) in one passage:
 * split apart, a search finds the source without the claim it backs, and the
 * model is sent the claim without its source.
 */

export interface FootnoteBlock {
  type: string;
  text: string;
}

export interface FootnoteLinks {
  /** Per block (same index as the input): the definition blocks it cites, in order of first citation. */
  cites: number[][];
  /** The definition block of each label; the first one wins when a label is defined twice. */
  definitions: Map<string, number>;
}

// A definition as the grammar takes it at the top level: `[^label]:` up to three spaces in.
const DEFINITION = /^ {0,3}\[\^([^\]\s]{1,100})\]:/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// Inline code spans, roughly as the grammar finds them: a run of backticks to the next equal run.
const CODE_SPAN = /(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;
/** Block types that hold prose; code, math and HTML show `[^1]` as typed. */
const CITING_TYPES: ReadonlySet<string> = new Set(['paragraph', 'list', 'quote', 'table', 'heading']);

/** The label of a top-level footnote definition block (`[^1]: text`), else undefined. */
export function footnoteDefinitionLabel(block: FootnoteBlock): string | undefined {
  if (block.type !== 'paragraph') return undefined;
  return DEFINITION.exec(block.text)?.[1];
}

/**
 * The labels a block's text refers to (`[^1]`), each once, in order. Fenced
 * code, inline code and escaped brackets (`\[^1]`) are not references; nor is
 * a block that is itself a definition (a footnote citing a footnote would
 * chain passages together).
 */
export function referencedLabels(block: FootnoteBlock): string[] {
  if (!CITING_TYPES.has(block.type) || !block.text.includes('[^')) return [];
  if (footnoteDefinitionLabel(block) !== undefined) return [];
  const prose: string[] = [];
  let fence: string | null = null;
  for (const line of block.text.split(/\r\n|\r|\n/)) {
    // Fences inside a list or quote are indented or behind `>`: take them off first.
    const bare = line.replace(/^(?:\s*>)+/, '').replace(/^\s*(?:[-+*]|\d+[.)])\s+/, '');
    const opened = FENCE.exec(bare.trimStart())?.[1];
    if (fence !== null) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = null;
      continue;
    }
    if (opened !== undefined) {
      fence = opened;
      continue;
    }
    prose.push(line);
  }
  const text = prose.join('\n').replace(CODE_SPAN, '');
  const labels: string[] = [];
  for (const match of text.matchAll(FOOTNOTE_LABELS)) {
    const label = match[1];
    if (label === undefined || labels.includes(label)) continue;
    if (match.index > 0 && text[match.index - 1] === '\\') continue;
    labels.push(label);
  }
  return labels;
}

/**
 * The citations of a note's blocks: a reference counts only when its label is
 * defined by some top-level definition block of the same note, as the preview
 * counts it (an undefined `[^x]` is shown as typed and cites nothing).
 */
export function footnoteLinks(blocks: readonly FootnoteBlock[]): FootnoteLinks {
  const definitions = new Map<string, number>();
  blocks.forEach((block, index) => {
    const label = footnoteDefinitionLabel(block);
    if (label !== undefined && !definitions.has(label)) definitions.set(label, index);
  });
  const cites = blocks.map((block) =>
    definitions.size === 0
      ? []
      : referencedLabels(block).flatMap((label) => {
          const index = definitions.get(label);
          return index === undefined ? [] : [index];
        }),
  );
  return { cites, definitions };
}
