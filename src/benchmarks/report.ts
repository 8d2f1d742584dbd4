import type {
  AgentCaseResult,
  BenchmarkCaseResult,
  BenchmarkReportDto,
  RagCaseResult,
} from '../contracts/benchmark';

/** How a case changed from the baseline run to the other one. */
export type CaseChange = 'better' | 'worse' | 'same' | 'added' | 'removed';

export interface CaseComparison {
  case_id: string;
  /** The RAG mode, or null for agent cases. */
  mode: string | null;
  baseline: string;
  candidate: string;
  change: CaseChange;
}

export interface RunComparison {
  baseline_run_id: string;
  candidate_run_id: string;
  items: CaseComparison[];
  counts: Record<CaseChange, number>;
}

/**
 * Case by case: a RAG case is better when its first expected block ranks
 * higher (a miss ranks below everything); an agent case when it passes where
 * it failed. Repeats of a case are compared by their first repeat.
 */
export function compareReports(baseline: BenchmarkReportDto, candidate: BenchmarkReportDto): RunComparison {
  const key = (result: BenchmarkCaseResult): string =>
    result.kind === 'rag'
      ? `${result.mode}\u0000${result.embedding_model_id ?? ''}\u0000${result.case_id}`
      : result.case_id;
  const first = (report: BenchmarkReportDto): Map<string, BenchmarkCaseResult> => {
    const map = new Map<string, BenchmarkCaseResult>();
    for (const result of report.cases) if (!map.has(key(result))) map.set(key(result), result);
    return map;
  };
  const before = first(baseline);
  const after = first(candidate);
  const items: CaseComparison[] = [];
  for (const [id, result] of after) {
    const old = before.get(id);
    items.push({
      case_id: result.case_id,
      mode: modeOf(result),
      baseline: old ? describe(old) : '',
      candidate: describe(result),
      change: old ? changeOf(old, result) : 'added',
    });
  }
  for (const [id, result] of before) {
    if (after.has(id)) continue;
    items.push({
      case_id: result.case_id,
      mode: modeOf(result),
      baseline: describe(result),
      candidate: '',
      change: 'removed',
    });
  }
  const counts: Record<CaseChange, number> = { better: 0, worse: 0, same: 0, added: 0, removed: 0 };
  for (const item of items) counts[item.change] += 1;
  return { baseline_run_id: baseline.run.run_id, candidate_run_id: candidate.run.run_id, items, counts };
}

/** A RAG case's mode, with the embedding model in a run that compared several. */
function modeOf(result: BenchmarkCaseResult): string | null {
  if (result.kind !== 'rag') return null;
  return result.embedding_model_id ? `${result.mode} · ${result.embedding_model_id}` : result.mode;
}

function score(result: BenchmarkCaseResult): number {
  if (result.kind === 'agent') return result.passed ? 1 : 0;
  return result.first_hit_rank === null ? 0 : 1 / result.first_hit_rank;
}

function changeOf(old: BenchmarkCaseResult, next: BenchmarkCaseResult): CaseChange {
  const delta = score(next) - score(old);
  return delta > 0 ? 'better' : delta < 0 ? 'worse' : 'same';
}

function describe(result: BenchmarkCaseResult): string {
  if (result.kind === 'agent') return result.passed ? 'pass' : 'fail';
  return result.first_hit_rank === null ? 'miss' : `rank ${result.first_hit_rank}`;
}

const RAG_COLUMNS = [
  'case_id',
  'mode',
  'repeat',
  'query',
  'expected_block_ids',
  'first_hit_rank',
  'passed',
  'failure_reason',
  'latency_ms',
  'ranked_block_ids',
] as const;

const AGENT_COLUMNS = [
  'case_id',
  'prompt',
  'passed',
  'failure_reason',
  'status',
  'tools_called',
  'expected_tools',
  'tool_calls',
  'invalid_tool_calls',
  'argument_errors',
  'steps',
  'latency_ms',
  'token_usage',
  'trace_run_id',
] as const;

/** The per-case table as CSV (RFC 4180 quoting; lists joined with spaces). */
export function reportCsv(report: BenchmarkReportDto): string {
  const columns: readonly string[] =
    report.run.kind === 'agent'
      ? AGENT_COLUMNS
      : report.run.config_snapshot.embedding_models
        ? [...RAG_COLUMNS, 'embedding_model_id']
        : RAG_COLUMNS;
  const rows = report.cases.map((result) =>
    columns.map((column) => csvCell((result as unknown as Record<string, unknown>)[column])).join(','),
  );
  return `${[columns.join(','), ...rows].join('\r\n')}\r\n`;
}

/** The report as a file: the whole report as JSON, or the per-case table as CSV. */
export function reportFile(
  report: BenchmarkReportDto,
  format: 'json' | 'csv',
): { filename: string; mime_type: string; text: string } {
  const base = `${report.run.dataset_id}-${report.run.run_id}`;
  return format === 'json'
    ? {
        filename: `${base}.json`,
        mime_type: 'application/json',
        text: `${JSON.stringify(report, null, 1)}\n`,
      }
    : { filename: `${base}.csv`, mime_type: 'text/csv', text: reportCsv(report) };
}

function csvCell(value: unknown): string {
  const text = Array.isArray(value)
    ? value.join(' ')
    : value === null || value === undefined
      ? ''
      : String(value);
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

export type { AgentCaseResult, RagCaseResult };
