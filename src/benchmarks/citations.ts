import type { RagCaseResult } from '../contracts/benchmark';

/**
 * `[n]` markers of an answer (also `[1, 3]`), as the chat links them: not a
 * Markdown link (`[1](…)`), reference (`[1]:`) or escaped bracket.
 */
const MARKER = /(?<![\\\]])\[(\d+(?:\s*,\s*\d+)*)\](?![(:[])/g;

/** The block ids of the sources an answer cites by number, in first-cited order, each once. */
export function citedBlockIds(
  answer: string,
  sources: ReadonlyArray<{ index: number; block_id: string }>,
): string[] {
  const byIndex = new Map(sources.map((source) => [source.index, source.block_id]));
  const cited: string[] = [];
  for (const match of answer.matchAll(MARKER)) {
    for (const digits of match[1]!.split(',')) {
      const blockId = byIndex.get(Number(digits.trim()));
      if (blockId !== undefined && !cited.includes(blockId)) cited.push(blockId);
    }
  }
  return cited;
}

/** What the answer model did for one case: the blocks it cited, or why there is no answer. */
export interface CitationOutcome {
  cited_block_ids: string[];
  /** The answer failed (provider error, stopped); the case counts as not cited. */
  error: string | null;
}

/**
 * Whether an answer cited what the case expects: one of its blocks, or a
 * block of one of its notes when the case names no block.
 */
export function citesExpected(result: RagCaseResult): boolean {
  const cited = result.cited_block_ids ?? [];
  if (result.expected_block_ids.length > 0) {
    const expected = new Set(result.expected_block_ids);
    return cited.some((id) => expected.has(id));
  }
  const notes = new Set(result.expected_note_ids);
  return cited.some((id) => notes.has(noteOfRankedBlock(result, id)));
}

function noteOfRankedBlock(result: RagCaseResult, blockId: string): string {
  const index = result.ranked_block_ids.indexOf(blockId);
  return index < 0 ? '' : (result.ranked_note_ids[index] ?? '');
}

/**
 * A case with its answer: a case that requires a citation fails when the
 * answer cites none of what it expects, with the reason beside any retrieval one.
 */
export function withCitation(result: RagCaseResult, outcome: CitationOutcome): RagCaseResult {
  const next = { ...result, cited_block_ids: [...outcome.cited_block_ids] };
  if (citesExpected(next)) return next;
  const reason =
    outcome.error !== null
      ? `answer failed: ${outcome.error}`
      : outcome.cited_block_ids.length === 0
        ? 'the answer cited no source'
        : 'the answer did not cite the expected block';
  return {
    ...next,
    passed: false,
    failure_reason: next.failure_reason === null ? reason : `${next.failure_reason}; ${reason}`,
  };
}
