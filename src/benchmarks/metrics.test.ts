import { describe, expect, it } from 'vitest';
import type { AgentCaseResult, RagCaseResult } from '../contracts/benchmark';
import {
  agentMetrics,
  caseArgumentAccuracy,
  citationHitRate,
  jaccard,
  percentile,
  ragMetrics,
} from './metrics';

function rag(
  case_id: string,
  expected: string[],
  ranked: string[],
  latency_ms: number,
  extra: Partial<RagCaseResult> = {},
): RagCaseResult {
  return {
    kind: 'rag',
    case_id,
    mode: 'fts',
    repeat: 1,
    query: case_id,
    expected_block_ids: expected,
    expected_note_ids: expected.map((id) => id.split('#')[0]!),
    citation_required: true,
    ranked_block_ids: ranked,
    ranked_note_ids: ranked.map((id) => id.split('#')[0]!),
    first_hit_rank: null,
    passed: false,
    failure_reason: null,
    latency_ms,
    cited_block_ids: null,
    ...extra,
  };
}

function agent(extra: Partial<AgentCaseResult>): AgentCaseResult {
  return {
    kind: 'agent',
    case_id: 'c',
    prompt: 'p',
    trace_run_id: null,
    status: 'completed',
    passed: false,
    failure_reason: null,
    tools_called: [],
    expected_tools: [],
    invalid_tool_calls: 0,
    tool_calls: 0,
    argument_errors: 0,
    steps: 0,
    latency_ms: 0,
    token_usage: 0,
    ...extra,
  };
}

describe('RAG metrics on a fixed set, worked by hand', () => {
  // a: hit at rank 1. b: first expected at rank 2, second at 6 (outside hit@5,
  // inside k = 10). c: expected at rank 5 exactly (the hit@5 edge). d: nothing
  // returned. e: names only a note, found at rank 3 through two of its blocks.
  const cases = [
    rag('a', ['n1#0'], ['n1#0', 'n2#0'], 4),
    rag('b', ['n2#1', 'n3#0'], ['n9#0', 'n2#1', 'n8#0', 'n7#0', 'n6#0', 'n3#0'], 1),
    rag('c', ['n4#0'], ['x#0', 'x#1', 'x#2', 'x#3', 'n4#0'], 2),
    rag('d', ['n5#0'], [], 10),
    rag('e', [], ['n7#0', 'n7#1', 'n6#0', 'n6#1'], 3, { expected_note_ids: ['n6'] }),
  ];

  it('hit@1, hit@5, recall@k and MRR', () => {
    const metrics = ragMetrics(cases, 10, 'no answer model was chosen');
    // hit@1: only a → 1/5. hit@5: a, b, c, e → 4/5.
    expect(metrics.hit_at_1).toBeCloseTo(0.2, 10);
    expect(metrics.hit_at_5).toBeCloseTo(0.8, 10);
    // recall@10: a 1, b 2/2, c 1, d 0, e (notes n7, n6 → n6 found) 1 → 4/5.
    expect(metrics.recall_at_k).toBeCloseTo(0.8, 10);
    // MRR: 1 + 1/2 + 1/5 + 0 + 1/2 (e: notes deduplicated, n6 second) = 2.2 / 5.
    expect(metrics.mrr).toBeCloseTo(0.44, 10);
    expect(metrics.case_count).toBe(5);
  });

  it('cuts recall at k', () => {
    // With k = 5, b finds only n2#1 of its two blocks: recall 1/2.
    expect(ragMetrics(cases, 5, null).recall_at_k).toBeCloseTo((1 + 0.5 + 1 + 0 + 1) / 5, 10);
  });

  it('p50 and p95 interpolate between ranks, ties included', () => {
    // Latencies sorted: 1 2 3 4 10. p50 = 3; p95 at position 3.8 → 4 + 0.8 × 6 = 8.8.
    const metrics = ragMetrics(cases, 10, 'skip');
    expect(metrics.p50_latency_ms).toBe(3);
    expect(metrics.p95_latency_ms).toBe(8.8);
    expect(percentile([5, 5, 5, 5], 0.5)).toBe(5);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentile([7], 0.95)).toBe(7);
  });

  it('skips citation_hit_rate with a reason, or measures it over cases that require a citation', () => {
    const skipped = ragMetrics(cases, 10, 'no answer model was chosen');
    expect(skipped.citation_hit_rate).toBeNull();
    expect(skipped.skipped).toEqual({ citation_hit_rate: 'no answer model was chosen' });

    const answered = [
      rag('a', ['n1#0'], ['n1#0'], 1, { cited_block_ids: ['n1#0'] }),
      rag('b', ['n2#0'], ['n2#0', 'n3#0'], 1, { cited_block_ids: ['n3#0'] }),
      rag('c', ['n4#0'], [], 1, { cited_block_ids: null }),
      rag('d', ['n5#0'], ['n5#0'], 1, { cited_block_ids: [], citation_required: false }),
    ];
    // Required: a (hit), b (cites a wrong block), c (no answer) → 1/3; d does not count.
    expect(citationHitRate(answered)).toBeCloseTo(1 / 3, 10);
    expect(ragMetrics(answered, 10, null).citation_hit_rate).toBeCloseTo(1 / 3, 10);
    expect(ragMetrics(answered, 10, null).skipped).toEqual({});
  });

  it('scores an empty set 0, never NaN', () => {
    expect(ragMetrics([], 10, null)).toEqual({
      hit_at_1: 0,
      hit_at_5: 0,
      recall_at_k: 0,
      mrr: 0,
      citation_hit_rate: 0,
      p50_latency_ms: 0,
      p95_latency_ms: 0,
      case_count: 0,
      skipped: {},
    });
  });

  it('counts a block ranked twice (tie in the fusion) once', () => {
    const twice = [rag('t', ['n1#0'], ['n2#0', 'n1#0', 'n1#0'], 1)];
    expect(ragMetrics(twice, 10, null).mrr).toBe(0.5);
    expect(ragMetrics(twice, 10, null).recall_at_k).toBe(1);
  });
});

describe('agent metrics from per-case results, worked by hand', () => {
  const cases = [
    agent({
      passed: true,
      expected_tools: ['rag.search', 'tasks.create'],
      tools_called: ['rag.search', 'tasks.create', 'tasks.create'],
      tool_calls: 3,
      steps: 4,
      latency_ms: 1000,
      token_usage: 300,
    }),
    agent({
      passed: false,
      failure_reason: 'tasks_created: expected 3, got 1',
      expected_tools: ['rag.search', 'notes.read', 'tasks.create'],
      tools_called: ['rag.search', 'notes.delete'],
      tool_calls: 2,
      invalid_tool_calls: 1,
      argument_errors: 1,
      steps: 3,
      latency_ms: 500,
      token_usage: 150,
    }),
    agent({
      passed: true,
      expected_tools: [],
      tools_called: [],
      steps: 1,
      latency_ms: 250.04,
      token_usage: 0,
    }),
  ];

  it('computes each §9.7 agent metric', () => {
    const metrics = agentMetrics(cases);
    expect(metrics.task_success_rate).toBeCloseTo(2 / 3, 10);
    // Jaccard per case: 2/2 = 1; {rag.search} of {rag.search, notes.read, tasks.create, notes.delete} = 1/4; both empty = 1.
    expect(metrics.tool_selection_accuracy).toBeCloseTo((1 + 0.25 + 1) / 3, 10);
    // Per case: 3 valid of 3 = 1; 1 bad of 2 = 0.5; no call and none expected = 1.
    expect(metrics.tool_argument_accuracy).toBeCloseTo((1 + 0.5 + 1) / 3, 10);
    // 5 calls pooled, 1 refused.
    expect(metrics.invalid_tool_call_rate).toBeCloseTo(0.2, 10);
    expect(metrics.average_steps).toBeCloseTo(8 / 3, 10);
    expect(metrics.average_latency_ms).toBe(583.3);
    expect(metrics.average_token_usage).toBe(150);
    expect(metrics.case_count).toBe(3);
  });

  it('counts a failed case that called no tool against the argument score (§9.7)', () => {
    // The demo run: one case passed with 3 valid calls, four expected tools and called none.
    const run = [
      agent({ passed: true, expected_tools: ['rag.search'], tools_called: ['rag.search'], tool_calls: 3 }),
      ...Array.from({ length: 4 }, () => agent({ passed: false, expected_tools: ['math.evaluate'] })),
    ];
    const metrics = agentMetrics(run);
    expect(metrics.task_success_rate).toBeCloseTo(0.2, 10);
    expect(metrics.tool_argument_accuracy).toBeCloseTo(0.2, 10);
    expect(caseArgumentAccuracy(run[1]!)).toBe(0);
    expect(caseArgumentAccuracy(agent({ expected_tools: [] }))).toBe(1);
  });

  it('scores an empty run and a run without tool calls 0', () => {
    expect(agentMetrics([])).toEqual({
      task_success_rate: 0,
      tool_selection_accuracy: 0,
      tool_argument_accuracy: 0,
      invalid_tool_call_rate: 0,
      average_steps: 0,
      average_latency_ms: 0,
      average_token_usage: 0,
      case_count: 0,
    });
    expect(jaccard([], [])).toBe(1);
    expect(jaccard(['a'], [])).toBe(0);
  });
});
