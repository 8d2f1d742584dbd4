import { describe, expect, it } from 'vitest';
import type { RagCaseResult } from '../contracts/benchmark';
import { citedBlockIds, citesExpected, withCitation } from './citations';
import { citationHitRate } from './metrics';

const SOURCES = [
  { index: 1, block_id: 'a#0' },
  { index: 2, block_id: 'b#0' },
  { index: 3, block_id: 'c#1' },
];

function result(extra: Partial<RagCaseResult> = {}): RagCaseResult {
  return {
    kind: 'rag',
    case_id: 'c',
    mode: 'fts',
    repeat: 1,
    query: 'q',
    expected_block_ids: ['b#0'],
    expected_note_ids: ['b'],
    citation_required: true,
    ranked_block_ids: ['a#0', 'b#0', 'c#1'],
    ranked_note_ids: ['a', 'b', 'c'],
    first_hit_rank: 2,
    passed: true,
    failure_reason: null,
    latency_ms: 1,
    cited_block_ids: null,
    ...extra,
  };
}

describe('citedBlockIds', () => {
  it('reads [n] and [n, m] markers, once each, in first-cited order', () => {
    expect(citedBlockIds('Yes [3]. Also [1, 3] and again [3].', SOURCES)).toEqual(['c#1', 'a#0']);
  });

  it('ignores numbers that are no source, links, references and escaped brackets', () => {
    expect(citedBlockIds('See [9], [2](http://x), [2]: def, \\[2\\] and [x].', SOURCES)).toEqual([]);
    expect(citedBlockIds('No markers at all.', SOURCES)).toEqual([]);
  });
});

describe('withCitation', () => {
  it('keeps a case whose answer cites an expected block', () => {
    expect(withCitation(result(), { cited_block_ids: ['a#0', 'b#0'], error: null })).toMatchObject({
      passed: true,
      failure_reason: null,
      cited_block_ids: ['a#0', 'b#0'],
    });
  });

  it('fails the case with the reason: another block, nothing cited, or no answer', () => {
    expect(withCitation(result(), { cited_block_ids: ['a#0'], error: null })).toMatchObject({
      passed: false,
      failure_reason: 'the answer did not cite the expected block',
    });
    expect(withCitation(result(), { cited_block_ids: [], error: null }).failure_reason).toBe(
      'the answer cited no source',
    );
    const missed = result({ passed: false, first_hit_rank: null, failure_reason: 'no results' });
    expect(withCitation(missed, { cited_block_ids: [], error: 'Rate limit reached' })).toMatchObject({
      passed: false,
      failure_reason: 'no results; answer failed: Rate limit reached',
    });
  });

  it('counts a block of an expected note when the case names no block', () => {
    const byNote = result({ expected_block_ids: [], cited_block_ids: ['b#0'] });
    expect(citesExpected(byNote)).toBe(true);
    expect(citesExpected({ ...byNote, cited_block_ids: ['c#1'] })).toBe(false);
    // A cited block the search never ranked belongs to no known note.
    expect(citesExpected({ ...byNote, cited_block_ids: ['z#0'] })).toBe(false);
  });
});

describe('citationHitRate', () => {
  it('is the share of citation-required cases whose answer cited what they expect; unanswered cases miss', () => {
    const cases = [
      result({ cited_block_ids: ['b#0'] }),
      result({ cited_block_ids: ['a#0'] }),
      result({ cited_block_ids: null }),
      result({ citation_required: false, cited_block_ids: null }),
    ];
    expect(citationHitRate(cases)).toBe(1 / 3);
    expect(citationHitRate([result({ citation_required: false })])).toBe(0);
  });
});
