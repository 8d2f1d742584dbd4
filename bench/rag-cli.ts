// `npm run bench:rag -- --dataset rag-core-v1 --modes fts,vector,hybrid`
// Runs the benchmark service in Node over fake-indexeddb, prints the §9.7
// metrics per mode and writes the full report (every case) as JSON.
//
// Options: --dataset ID, --modes a,b, --top-k N, --repeat N, --rrf-k N,
// --embedder hash-v1|tiny (the generated tiny test model, through the app's
// TransformersEmbedder), --import FILE (register a dataset file first),
// --out FILE (report path; default in the system temp folder), --concurrency N
// (cases at once, 1–8; latencies are measured under that load),
// --answer PROVIDER/MODEL (measure citation_hit_rate: each citation-required
// case is asked through "ask your notes"; `mock/mock-1` is the offline mock),
// --compare hash-v1,tiny (compare embedding models in one run: vector and
// hybrid once per model, in the benchmark's own engine; replaces --embedder).
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchmarkSearchMode, RagMetrics } from '../src/contracts';
import { NotesAgentDatabase } from '../src/db';
import type { Embedder } from '../src/retrieval';
import {
  localOnlySource,
  tinyModelSpec,
  writeTinyEmbeddingModel,
} from '../src/retrieval/__fixtures__/tiny-model';
import { TransformersEmbedder } from '../src/retrieval/transformers-embedder';
import { createCoreApi, type CoreOptions } from '../src/services/core-api';
import { inThreadEmbeddingEngine } from '../src/services/embedding-engine';

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: 'rag-core-v1' },
    modes: { type: 'string', default: 'fts,vector,hybrid' },
    'top-k': { type: 'string', default: '10' },
    'rrf-k': { type: 'string' },
    repeat: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '1' },
    embedder: { type: 'string', default: 'hash-v1' },
    import: { type: 'string' },
    out: { type: 'string' },
    answer: { type: 'string' },
    compare: { type: 'string' },
  },
});

async function tinyEmbedder(): Promise<{ embedder: Embedder; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'notes-agent-tiny-'));
  const modelId = 'notes-agent/tiny-bench';
  await writeTinyEmbeddingModel(root, modelId);
  const embedder = await TransformersEmbedder.load({
    model: tinyModelSpec({ model_id: modelId }),
    source: localOnlySource(root),
    batch_size: 32,
  });
  return { embedder, dispose: () => embedder.dispose() };
}

function answerModel(value: string | undefined): { provider_id: string; model: string } | null {
  if (value === undefined) return null;
  const at = value.indexOf('/');
  if (at <= 0 || at === value.length - 1) throw new Error(`--answer takes PROVIDER/MODEL, not ${value}`);
  return { provider_id: value.slice(0, at), model: value.slice(at + 1) };
}

const TINY_COMPARED_ID = 'notes-agent/tiny-bench';

/** `--compare`: the models by id ('tiny' is the generated tiny model), and the core options that can load them. */
async function compared(list: string): Promise<{ ids: string[]; options: CoreOptions; root: string | null }> {
  const names = list.split(',').map((name) => name.trim());
  if (!names.includes('tiny')) return { ids: names, options: {}, root: null };
  const root = await mkdtemp(join(tmpdir(), 'notes-agent-tiny-'));
  await writeTinyEmbeddingModel(root, TINY_COMPARED_ID);
  return {
    ids: names.map((name) => (name === 'tiny' ? TINY_COMPARED_ID : name)),
    options: {
      embedding: { models: [tinyModelSpec({ model_id: TINY_COMPARED_ID })], source: localOnlySource(root) },
      benchmarks: { embeddingEngine: inThreadEmbeddingEngine() },
    },
    root,
  };
}

async function main(): Promise<void> {
  let chosen: { embedder: Embedder; dispose: () => Promise<void> } | undefined;
  if (values.embedder === 'tiny') chosen = await tinyEmbedder();
  else if (values.embedder !== 'hash-v1') throw new Error(`unknown --embedder ${values.embedder}`);
  const comparing = values.compare !== undefined ? await compared(values.compare) : undefined;

  const db = new NotesAgentDatabase(`bench-rag-cli-${process.pid}`);
  const core = createCoreApi(db, {
    ...(chosen ? { embedder: chosen.embedder } : {}),
    ...comparing?.options,
  });
  try {
    const benchmarks = core.api.benchmarks;
    if (values.import) await benchmarks.importDataset(await readFile(values.import, 'utf8'));
    const created = await benchmarks.createRagRun({
      dataset_id: values.dataset,
      modes: values.modes.split(',').map((mode) => mode.trim()) as BenchmarkSearchMode[],
      retrieval: {
        top_k: Number(values['top-k']),
        ...(values['rrf-k'] !== undefined ? { rrf_k: Number(values['rrf-k']) } : {}),
      },
      repeat: Number(values.repeat),
      concurrency: Number(values.concurrency),
      answer_model: answerModel(values.answer),
      ...(comparing && { embedding_models: comparing.ids }),
    });
    await core.idle();
    const report = await benchmarks.report(created.run_id);
    const { run } = report;
    if (run.status !== 'completed' || run.metrics?.kind !== 'rag') {
      throw new Error(`run ${run.status}: ${run.error?.code ?? ''} ${run.error?.message ?? ''}`);
    }
    const snapshot = run.config_snapshot;
    const out = values.out ?? join(tmpdir(), 'notes-agent-bench', `${run.run_id}.json`);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 1)}\n`);

    const cases = run.metrics.by_mode;
    const header = [
      'mode',
      'cases',
      'hit@1',
      'hit@5',
      `recall@${snapshot.retrieval?.top_k ?? ''}`,
      'MRR',
      'citation',
      'p50 ms',
      'p95 ms',
    ];
    const row = (mode: string, m: RagMetrics): string[] => [
      mode,
      String(m.case_count),
      m.hit_at_1.toFixed(3),
      m.hit_at_5.toFixed(3),
      m.recall_at_k.toFixed(3),
      m.mrr.toFixed(3),
      m.citation_hit_rate === null ? 'skipped' : m.citation_hit_rate.toFixed(3),
      m.p50_latency_ms.toFixed(2),
      m.p95_latency_ms.toFixed(2),
    ];
    const perModel = (run.metrics.by_embedding ?? []).flatMap((entry) =>
      Object.entries(entry.by_mode).map(([mode, m]) => row(`${mode} ${entry.model_id}`, m!)),
    );
    const lines = comparing
      ? [header, ...(cases.fts ? [row('fts', cases.fts)] : []), ...perModel]
      : [header, ...Object.entries(cases).map(([mode, m]) => row(mode, m!))];
    console.log(
      `\nBenchmark ${run.run_id}: ${run.dataset_id} (${run.dataset_hash.slice(0, 19)}…), ` +
        `embedding ${snapshot.embedding?.model_id}@${snapshot.embedding?.model_version} (${snapshot.embedding?.dimension}d)`,
    );
    // The first column fits its longest label ("hybrid notes-agent/tiny-bench" when comparing models).
    const first = Math.max(8, ...lines.map((line) => line[0]!.length + 1));
    for (const line of lines) console.log(line.map((cell, i) => cell.padEnd(i === 0 ? first : 10)).join(' '));
    const skipped = Object.values(cases)[0]?.skipped.citation_hit_rate;
    if (skipped) console.log(`citation_hit_rate skipped: ${skipped}`);
    console.log(`report: ${out}`);
  } finally {
    core.dispose();
    await db.delete();
    await chosen?.dispose();
    if (comparing?.root) await rm(comparing.root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
