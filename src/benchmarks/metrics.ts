import type { AgentCaseResult, AgentMetrics, RagCaseResult, RagMetrics } from '../contracts/benchmark';
import { hitAt, mrr, recallAt, type RankedCase } from '../retrieval/metrics';
import { citesExpected } from './citations';

/**
 * The §9.7 metrics, computed from per-case results and nowhere else: the
 * service, the CLI and the report page all read what these return. An empty
 * list scores 0 (not NaN) so a report stays valid JSON.
 */

/** What a RAG case is scored against: its blocks, or its notes when it names no block. */
export function rankedCaseOf(result: RagCaseResult): RankedCase {
  return result.expected_block_ids.length > 0
    ? { expected: result.expected_block_ids, ranked: result.ranked_block_ids }
    : { expected: result.expected_note_ids, ranked: dedupe(result.ranked_note_ids) };
}

/**
 * `citationSkipped`: why `citation_hit_rate` was not measured (no answer model
 * chosen); the metric is then null and the reason is in `skipped`.
 */
export function ragMetrics(
  results: readonly RagCaseResult[],
  topK: number,
  citationSkipped: string | null,
): RagMetrics {
  const cases = results.map(rankedCaseOf);
  const skipped: Record<string, string> = {};
  let citation: number | null = null;
  if (citationSkipped !== null) {
    skipped.citation_hit_rate = citationSkipped;
  } else {
    citation = citationHitRate(results);
  }
  const latencies = results.map((result) => result.latency_ms);
  return {
    hit_at_1: hitAt(cases, 1),
    hit_at_5: hitAt(cases, 5),
    recall_at_k: recallAt(cases, topK),
    mrr: mrr(cases),
    citation_hit_rate: citation,
    p50_latency_ms: percentile(latencies, 0.5),
    p95_latency_ms: percentile(latencies, 0.95),
    case_count: results.length,
    skipped,
  };
}

/**
 * Share of the `citation_required` cases whose answer cited at least one
 * expected block (or a block of an expected note when the case names no
 * block). A case without an answer counts as a miss; 0 when no case requires one.
 */
export function citationHitRate(results: readonly RagCaseResult[]): number {
  const required = results.filter((result) => result.citation_required);
  if (required.length === 0) return 0;
  return required.filter(citesExpected).length / required.length;
}

/**
 * Linear interpolation between the closest ranks (the default of numpy and
 * spreadsheets), so p50 of an even count is the mean of the middle two.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * p;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  const high = sorted[upper]!;
  return round(low + (high - low) * (position - lower));
}

/**
 * Agent metrics from the cases' traces:
 * - task_success_rate: cases that met every expected condition;
 * - tool_selection_accuracy: per case, |expected ∩ called| / |expected ∪ called|
 *   over distinct tool names (1 when both are empty), averaged;
 * - tool_argument_accuracy: per case, valid-argument calls over its calls,
 *   averaged over every case. A case that expected tools and called none scores
 *   0 (it never reached valid arguments), one that expected none and called none
 *   scores 1. Pooling calls instead let one passing case's calls stand for a run
 *   whose other cases called nothing (1.000 with 4 of 5 failed), and §9.7 says
 *   "汇总指标不能覆盖失败样本": an aggregate may not hide the failed cases;
 * - invalid_tool_call_rate: calls refused (unknown tool, not allowed, bad
 *   arguments) over all calls, pooled;
 * - averages of steps, latency and tokens per case.
 */
export function agentMetrics(results: readonly AgentCaseResult[]): AgentMetrics {
  const calls = sum(results, (result) => result.tool_calls);
  return {
    task_success_rate: mean(results, (result) => (result.passed ? 1 : 0)),
    tool_selection_accuracy: mean(results, (result) => jaccard(result.expected_tools, result.tools_called)),
    tool_argument_accuracy: mean(results, caseArgumentAccuracy),
    invalid_tool_call_rate: calls === 0 ? 0 : sum(results, (result) => result.invalid_tool_calls) / calls,
    average_steps: mean(results, (result) => result.steps),
    average_latency_ms: round(mean(results, (result) => result.latency_ms)),
    average_token_usage: mean(results, (result) => result.token_usage),
    case_count: results.length,
  };
}

/** One case's share of calls with valid arguments; see agentMetrics for a case without calls. */
export function caseArgumentAccuracy(result: AgentCaseResult): number {
  if (result.tool_calls === 0) return result.expected_tools.length === 0 ? 1 : 0;
  return 1 - result.argument_errors / result.tool_calls;
}

export function jaccard(expected: readonly string[], called: readonly string[]): number {
  const a = new Set(expected);
  const b = new Set(called);
  const union = new Set([...a, ...b]);
  if (union.size === 0) return 1;
  let both = 0;
  for (const name of a) if (b.has(name)) both += 1;
  return both / union.size;
}

function dedupe(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  let total = 0;
  for (const item of items) total += value(item);
  return total;
}

function mean<T>(items: readonly T[], value: (item: T) => number): number {
  return items.length === 0 ? 0 : sum(items, value) / items.length;
}

/** Latencies to a tenth of a millisecond: finer digits are timer noise. */
function round(value: number): number {
  return Math.round(value * 10) / 10;
}
