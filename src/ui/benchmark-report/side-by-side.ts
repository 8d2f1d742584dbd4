import type {
  AgentMetrics,
  BenchmarkKind,
  BenchmarkRunDto,
  BenchmarkSearchMode,
  RagMetrics,
} from '../../contracts/benchmark';
import type { MessageKey } from '../i18n';

/** One metric column: its key in the metrics, its heading's message, and whether it is a 0..1 rate (charted). */
export interface MetricColumn {
  key: string;
  label: MessageKey;
  rate: boolean;
}

export const RAG_COLUMNS: readonly MetricColumn[] = [
  { key: 'hit_at_1', label: 'bench.col.hit1', rate: true },
  { key: 'hit_at_5', label: 'bench.col.hit5', rate: true },
  { key: 'recall_at_k', label: 'bench.col.recall', rate: true },
  { key: 'mrr', label: 'bench.col.mrr', rate: true },
  { key: 'citation_hit_rate', label: 'bench.col.citation', rate: true },
  { key: 'p50_latency_ms', label: 'bench.col.p50', rate: false },
  { key: 'p95_latency_ms', label: 'bench.col.p95', rate: false },
];

export const AGENT_COLUMNS: readonly MetricColumn[] = [
  { key: 'task_success_rate', label: 'bench.col.success', rate: true },
  { key: 'tool_selection_accuracy', label: 'bench.col.toolSelection', rate: true },
  { key: 'tool_argument_accuracy', label: 'bench.col.arguments', rate: true },
  { key: 'invalid_tool_call_rate', label: 'bench.col.invalidCalls', rate: true },
  { key: 'average_steps', label: 'bench.col.steps', rate: false },
  { key: 'average_latency_ms', label: 'bench.col.latency', rate: false },
  { key: 'average_token_usage', label: 'bench.col.tokens', rate: false },
];

/** One row of a metrics table: a run's model (and mode, for RAG) with its numbers. */
export interface MetricRow {
  key: string;
  run_id: string;
  model: string;
  mode: string | null;
  values: Record<string, number | null>;
  /** Why a metric is missing, by key (e.g. no answer model was chosen). */
  skipped: Record<string, string>;
}

/**
 * The model a run measured: the agent's provider and model; for RAG the
 * embedding model, the reranker when one ran, and the answer model when one answered.
 */
export function modelLabel(run: BenchmarkRunDto, embeddingModelId?: string): string {
  const snapshot = run.config_snapshot;
  if (run.kind === 'agent') return `${snapshot.provider_id ?? '?'}/${snapshot.model ?? '?'}`;
  const parts = [embeddingModelId ?? snapshot.embedding?.model_id ?? '?'];
  if (snapshot.reranker) parts.push(`+ ${snapshot.reranker.model_id}`);
  if (snapshot.answer_model)
    parts.push(`→ ${snapshot.answer_model.provider_id}/${snapshot.answer_model.model}`);
  return parts.join(' ');
}

export function columnsOf(kind: BenchmarkKind): readonly MetricColumn[] {
  return kind === 'rag' ? RAG_COLUMNS : AGENT_COLUMNS;
}

/** A run's rows: one per mode for RAG, one for an agent run; none before it completed. */
export function metricRows(run: BenchmarkRunDto): MetricRow[] {
  const metrics = run.metrics;
  if (!metrics) return [];
  const model = modelLabel(run);
  if (metrics.kind === 'agent') {
    return [
      {
        key: run.run_id,
        run_id: run.run_id,
        model,
        mode: null,
        values: pick(metrics, AGENT_COLUMNS),
        skipped: {},
      },
    ];
  }
  const row = (label: string, mode: string, values: RagMetrics, key: string): MetricRow => ({
    key,
    run_id: run.run_id,
    model: label,
    mode,
    values: pick(values, RAG_COLUMNS),
    skipped: values.skipped,
  });
  const compared = metrics.by_embedding;
  if (!compared) {
    return (Object.entries(metrics.by_mode) as Array<[string, RagMetrics]>).map(([mode, values]) =>
      row(model, mode, values, `${run.run_id}:${mode}`),
    );
  }
  // A run that compared embedding models: full text once, then each model's modes, side by side.
  const fullText = metrics.by_mode.fts;
  return [
    ...(fullText ? [row(model, 'fts', fullText, `${run.run_id}:fts`)] : []),
    ...compared.flatMap((entry) =>
      (Object.entries(entry.by_mode) as Array<[string, RagMetrics]>).map(([mode, values]) =>
        row(modelLabel(run, entry.model_id), mode, values, `${run.run_id}:${entry.model_id}:${mode}`),
      ),
    ),
  ];
}

/**
 * Side by side: every completed run of this kind on this dataset, newest
 * model last, one row per model and mode, so models and modes compare at a glance.
 */
export function sideBySide(runs: readonly BenchmarkRunDto[], selected: BenchmarkRunDto): MetricRow[] {
  return runs
    .filter(
      (run) =>
        run.status === 'completed' && run.kind === selected.kind && run.dataset_id === selected.dataset_id,
    )
    .toReversed()
    .flatMap(metricRows);
}

function pick(
  metrics: RagMetrics | AgentMetrics,
  columns: readonly MetricColumn[],
): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (const column of columns) {
    const value = (metrics as unknown as Record<string, unknown>)[column.key];
    values[column.key] = typeof value === 'number' ? value : null;
  }
  return values;
}

/**
 * The columns the chart draws: the rates some row has a value for. A metric no
 * row measured (citations, when no answer model was chosen) would be an empty group.
 */
export function chartColumnsOf(columns: readonly MetricColumn[], rows: readonly MetricRow[]): MetricColumn[] {
  return columns.filter(
    (column) => column.rate && rows.some((row) => typeof row.values[column.key] === 'number'),
  );
}

const MODE_KEYS: Readonly<Record<BenchmarkSearchMode, MessageKey>> = {
  fts: 'search.mode.fts',
  vector: 'search.mode.vector',
  hybrid: 'search.mode.hybrid',
};

/** The search box's name for a mode ("Full text"), so the report says what the search says. */
export function modeKey(mode: string): MessageKey | null {
  return Object.hasOwn(MODE_KEYS, mode) ? MODE_KEYS[mode as BenchmarkSearchMode] : null;
}
