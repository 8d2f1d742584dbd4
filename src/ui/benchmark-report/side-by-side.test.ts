import { describe, expect, it } from 'vitest';
import type { BenchmarkRunDto, RagMetrics } from '../../contracts/benchmark';
import { chartColumnsOf, metricRows, modeKey, modelLabel, RAG_COLUMNS, sideBySide } from './side-by-side';

const RAG: RagMetrics = {
  hit_at_1: 0.5,
  hit_at_5: 1,
  recall_at_k: 1,
  mrr: 0.75,
  citation_hit_rate: null,
  p50_latency_ms: 2,
  p95_latency_ms: 3,
  case_count: 2,
  skipped: { citation_hit_rate: 'no answer model was chosen' },
};

function run(run_id: string, extra: Partial<BenchmarkRunDto> = {}): BenchmarkRunDto {
  return {
    run_id,
    job_id: `job-${run_id}`,
    kind: 'rag',
    dataset_id: 'd',
    dataset_hash: 'sha256:x',
    status: 'completed',
    progress: null,
    metrics: { kind: 'rag', by_mode: { fts: RAG, hybrid: { ...RAG, hit_at_1: 1 } } },
    config_snapshot: {
      dataset_id: 'd',
      dataset_hash: 'sha256:x',
      dataset_version: '1',
      embedding: { model_id: 'hash-v1', model_version: '1', dimension: 256, normalization: 'l2' },
      reranker: null,
      answer_model: null,
    },
    error: null,
    metadata: {},
    created_at: 't',
    started_at: 't',
    completed_at: 't',
    ...extra,
  };
}

const AGENT = run('a1', {
  kind: 'agent',
  dataset_id: 'agents',
  metrics: {
    kind: 'agent',
    task_success_rate: 0.2,
    tool_selection_accuracy: 0.2,
    tool_argument_accuracy: 1,
    invalid_tool_call_rate: 0,
    average_steps: 1.6,
    average_latency_ms: 30,
    average_token_usage: 0,
    case_count: 5,
  },
  config_snapshot: {
    dataset_id: 'agents',
    dataset_hash: 'h',
    dataset_version: '1',
    provider_id: 'mock',
    model: 'mock-1',
  },
});

describe('benchmark metric rows', () => {
  it('labels a run by the models it measured', () => {
    expect(modelLabel(run('r'))).toBe('hash-v1');
    const snapshot = {
      ...run('r').config_snapshot,
      reranker: { model_id: 'tiny-rerank', model_version: '1' },
      answer_model: { provider_id: 'custom', model: 'script-model' },
    };
    expect(modelLabel(run('r', { config_snapshot: snapshot }))).toBe(
      'hash-v1 + tiny-rerank → custom/script-model',
    );
    expect(modelLabel(AGENT)).toBe('mock/mock-1');
  });

  it('gives a RAG run one row per mode and an agent run one row, keeping skipped reasons', () => {
    expect(
      metricRows(run('r')).map((row) => [row.mode, row.values.hit_at_1, row.values.citation_hit_rate]),
    ).toEqual([
      ['fts', 0.5, null],
      ['hybrid', 1, null],
    ]);
    expect(metricRows(run('r'))[0]!.skipped).toEqual({ citation_hit_rate: 'no answer model was chosen' });
    expect(metricRows(AGENT)).toMatchObject([
      { model: 'mock/mock-1', mode: null, values: { task_success_rate: 0.2 } },
    ]);
    expect(metricRows(run('r', { metrics: null }))).toEqual([]);
  });

  it('puts the completed runs of the same kind and dataset side by side, oldest first', () => {
    const newest = run('new', {
      config_snapshot: {
        ...run('r').config_snapshot,
        embedding: { model_id: 'tiny', model_version: '1', dimension: 32, normalization: 'l2' },
      },
    });
    const runs = [
      newest,
      run('failed', { status: 'failed' }),
      run('other', { dataset_id: 'e' }),
      AGENT,
      run('old'),
    ];
    expect(sideBySide(runs, newest).map((row) => `${row.model} ${row.mode}`)).toEqual([
      'hash-v1 fts',
      'hash-v1 hybrid',
      'tiny fts',
      'tiny hybrid',
    ]);
    expect(sideBySide(runs, AGENT).map((row) => row.run_id)).toEqual(['a1']);
  });
});

describe('a run that compared embedding models', () => {
  it('has a full-text row and one row per model and mode, each labelled with its model', () => {
    const compared = run('r3', {
      metrics: {
        kind: 'rag',
        by_mode: { fts: RAG, vector: RAG },
        by_embedding: [
          { model_id: 'hash-v1', by_mode: { vector: RAG } },
          { model_id: 'org/e5', by_mode: { vector: { ...RAG, hit_at_1: 1 } } },
        ],
      },
    });
    expect(metricRows(compared).map((row) => [row.model, row.mode, row.values.hit_at_1])).toEqual([
      ['hash-v1', 'fts', 0.5],
      ['hash-v1', 'vector', 0.5],
      ['org/e5', 'vector', 1],
    ]);
    expect(new Set(metricRows(compared).map((row) => row.key)).size).toBe(3);
  });
});

describe('chartColumnsOf', () => {
  it('leaves out a rate no row measured, and every column that is not a rate', () => {
    const rows = metricRows(run('a'));
    expect(chartColumnsOf(RAG_COLUMNS, rows).map((column) => column.key)).toEqual([
      'hit_at_1',
      'hit_at_5',
      'recall_at_k',
      'mrr',
    ]);
  });

  it('keeps a rate one row of several measured', () => {
    const rows = [
      ...metricRows(run('a')),
      ...metricRows(
        run('b', {
          metrics: { kind: 'rag', by_mode: { fts: { ...RAG, citation_hit_rate: 0.5, skipped: {} } } },
        }),
      ),
    ];
    expect(chartColumnsOf(RAG_COLUMNS, rows).map((column) => column.key)).toContain('citation_hit_rate');
  });
});

describe('modeKey', () => {
  it('names a mode as the search box does, and nothing it does not know', () => {
    expect(['fts', 'vector', 'hybrid', 'other'].map(modeKey)).toEqual([
      'search.mode.fts',
      'search.mode.vector',
      'search.mode.hybrid',
      null,
    ]);
  });
});
