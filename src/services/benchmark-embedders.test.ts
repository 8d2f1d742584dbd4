import { afterEach, describe, expect, it } from 'vitest';
import type { BenchmarkRunDto, CreateRagBenchmarkInput, RagCaseResult, RagDatasetFile } from '../contracts';
import type { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { HASH_EMBEDDER_INFO, hashEmbed } from '../retrieval';
import { tinyModelSpec } from '../retrieval/__fixtures__/tiny-model/tiny-model-spec';
import { HostedEmbedder, type EmbedderHostApi } from '../retrieval/embedder-host';
import { toEmbeddingModelError } from '../retrieval/model-load-errors';
import type { TransformersEmbedderConfig } from '../retrieval/transformers-embedder';
import { ISOLATED_DATABASE_PREFIX } from './benchmark-service';
import { createCoreApi, type CoreOptions } from './core-api';
import type { EmbeddingEngine } from './embedding-engine';

/**
 * RAG runs that compare embedding models: each model is loaded in the
 * benchmark's own engine (a double here, whose vectors are hash vectors of the
 * model's dimension), never the user's, and searched in its own database.
 */

const MODEL_A = 'test/embed-a';
const MODEL_B = 'test/embed-b';
const CATALOG = [
  tinyModelSpec({ model_id: MODEL_A, dimension: 32 }),
  tinyModelSpec({ model_id: MODEL_B, dimension: 48 }),
];

const DATASET: RagDatasetFile = {
  dataset_id: 'compare-v1',
  kind: 'rag',
  version: '1.0.0',
  description: 'two cases',
  notes: [
    { note_id: 'n1', title: 'one', folder: '', tags: [], body: 'Apple orchards bloom in spring.' },
    { note_id: 'n2', title: 'two', folder: '', tags: [], body: 'Cherry trees need cold winters.' },
  ],
  cases: [
    {
      case_id: 'c-apple',
      query: 'apple orchards',
      expected_note_ids: ['n1'],
      expected_block_ids: ['n1#0'],
      citation_required: false,
      tags: [],
    },
    {
      case_id: 'c-cherry',
      query: 'cherry winters',
      expected_note_ids: ['n2'],
      expected_block_ids: ['n2#0'],
      citation_required: false,
      tags: [],
    },
  ],
};

interface EngineDouble {
  engine: EmbeddingEngine;
  /** Model ids in the order they were loaded. */
  loads: string[];
  stops: () => number;
}

/**
 * An engine whose models embed with hash vectors of their catalog dimension.
 * `missing` models are not on the device; `failEmbed` breaks a model's
 * embeds; `beforeLoad` runs as a load starts (a test cancels there).
 */
function engineDouble(
  options: { missing?: string[]; failEmbed?: string; beforeLoad?: (modelId: string) => Promise<void> } = {},
): EngineDouble {
  const loads: string[] = [];
  let stops = 0;
  const infoOf = (config: TransformersEmbedderConfig) => ({
    model_id: config.model.model_id,
    model_version: `${config.model.model_id}@fake-1`,
    dimension: config.model.dimension,
    normalization: 'l2' as const,
  });
  const host: EmbedderHostApi = {
    load: async (config) => {
      const id = config.model.model_id;
      loads.push(id);
      await options.beforeLoad?.(id);
      if (options.missing?.includes(id)) {
        throw toEmbeddingModelError(new Error(`file was not found locally at "${id}/config.json"`), id);
      }
      return { info: infoOf(config), device: 'wasm', dtype: 'fp32', load_ms: 0 };
    },
    embed: async (config, texts) => {
      if (options.failEmbed === config.model.model_id) throw new Error('the model ran out of memory');
      return { info: infoOf(config), vectors: texts.map((text) => hashEmbed(text, config.model.dimension)) };
    },
    unload: async () => undefined,
  };
  return {
    engine: {
      load: (config, loadOptions) => HostedEmbedder.load(host, config, loadOptions),
      restore: (config, loaded) => new HostedEmbedder(host, config, loaded),
      stop: () => {
        stops += 1;
      },
    },
    loads,
    stops: () => stops,
  };
}

type TestCore = ReturnType<typeof createCoreApi> & { db: NotesAgentDatabase };
const cores: TestCore[] = [];

afterEach(async () => {
  for (const core of cores.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

/** A core whose user engine and benchmark engine are separate doubles, with the dataset registered. */
async function compareCore(
  bench: EngineDouble,
  user: EngineDouble = engineDouble(),
  options: CoreOptions = {},
) {
  const db = freshDatabase();
  const core = {
    db,
    ...createCoreApi(db, {
      indexDebounceMs: 0,
      embedding: { engine: user.engine, models: CATALOG },
      benchmarks: { embeddingEngine: bench.engine },
      ...options,
    }),
  };
  cores.push(core);
  await core.api.benchmarks.importDataset(JSON.stringify(DATASET));
  return core;
}

async function finished(core: TestCore, run: BenchmarkRunDto): Promise<BenchmarkRunDto> {
  await core.idle();
  return core.api.benchmarks.get(run.run_id);
}

function compare(
  core: TestCore,
  models: string[],
  input: Partial<CreateRagBenchmarkInput> = {},
): Promise<BenchmarkRunDto> {
  return core.api.benchmarks.createRagRun({
    dataset_id: 'compare-v1',
    modes: ['fts', 'vector', 'hybrid'],
    embedding_models: models,
    ...input,
  });
}

async function isolatedDatabases(): Promise<string[]> {
  return (await indexedDB.databases()).flatMap((info) =>
    info.name?.startsWith(ISOLATED_DATABASE_PREFIX) ? [info.name] : [],
  );
}

const rows = (cases: readonly unknown[]) =>
  (cases as RagCaseResult[]).map((entry) => `${entry.mode}/${entry.embedding_model_id}/${entry.case_id}`);

describe('RAG runs comparing embedding models', () => {
  it('searches vector and hybrid once per model, full text once, with metrics and a snapshot per model', async () => {
    const bench = engineDouble();
    const core = await compareCore(bench);
    const run = await finished(core, await compare(core, ['hash-v1', MODEL_B]));
    expect(run.status).toBe('completed');
    expect(run.config_snapshot.embedding_models).toEqual([
      HASH_EMBEDDER_INFO,
      { model_id: MODEL_B, model_version: `${MODEL_B}@fake-1`, dimension: 48, normalization: 'l2' },
    ]);
    // Full text ran on the first model's index: that model is the run's `embedding`.
    expect(run.config_snapshot.embedding).toEqual(HASH_EMBEDDER_INFO);
    const metrics = run.metrics?.kind === 'rag' ? run.metrics : undefined;
    expect(Object.keys(metrics?.by_mode ?? {})).toEqual(['fts', 'vector', 'hybrid']);
    expect(metrics?.by_embedding?.map((entry) => [entry.model_id, Object.keys(entry.by_mode)])).toEqual([
      ['hash-v1', ['vector', 'hybrid']],
      [MODEL_B, ['vector', 'hybrid']],
    ]);
    // Both cases share terms with their blocks only: every model finds them first.
    for (const entry of metrics?.by_embedding ?? []) {
      expect(entry.by_mode.vector).toMatchObject({ hit_at_1: 1, case_count: 2 });
    }
    const report = await core.api.benchmarks.report(run.run_id);
    expect(rows(report.cases)).toEqual([
      'fts/null/c-apple',
      'fts/null/c-cherry',
      'vector/hash-v1/c-apple',
      'vector/hash-v1/c-cherry',
      'hybrid/hash-v1/c-apple',
      'hybrid/hash-v1/c-cherry',
      `vector/${MODEL_B}/c-apple`,
      `vector/${MODEL_B}/c-cherry`,
      `hybrid/${MODEL_B}/c-apple`,
      `hybrid/${MODEL_B}/c-cherry`,
    ]);
    // The per-case events say the same, in the same order.
    const events = (await core.api.benchmarks.events(run.run_id)).items.filter(
      (item) => item.event === 'CaseResult',
    );
    expect(rows(events.map((item) => item.data))).toEqual(rows(report.cases));
    // hash-v1 runs in the run itself: the engine loaded model B only, and was let go after.
    expect(bench.loads).toEqual([MODEL_B]);
    expect(bench.stops()).toBe(1);
    expect(await isolatedDatabases()).toEqual([]);
    const csv = (await core.api.benchmarks.exportReport(run.run_id, 'csv')).text;
    expect(csv.split('\r\n')[0]).toMatch(/,embedding_model_id$/u);
  });

  it("leaves the user's chosen model, its engine and the notebook index as they were", async () => {
    const bench = engineDouble();
    const user = engineDouble();
    const core = await compareCore(bench, user);
    const chosen = await core.api.embedding.select({ model_id: MODEL_A });
    await core.idle();
    expect((await core.api.jobs.get(chosen.job!.job_id)).status).toBe('completed');
    await core.api.notes.create({ title: 'Mine', body: 'Apple pie of my own.', folder: '', tags: [] });
    await core.api.search.rebuild({ scope: 'vectors' });
    await core.idle();
    const before = {
      settings: await core.api.embedding.settings(),
      status: await core.api.search.status(),
      index: await core.db.search_index.toArray(),
    };
    expect(before.settings.active.model_id).toBe(MODEL_A);

    const run = await finished(core, await compare(core, [MODEL_B, MODEL_A]));
    expect(run.status).toBe('completed');
    // The run loaded both in its own engine; the user's engine loaded A once (the choice) and was never stopped.
    expect(bench.loads).toEqual([MODEL_B, MODEL_A]);
    expect(user.loads).toEqual([MODEL_A]);
    expect(user.stops()).toBe(0);
    expect(await core.api.embedding.settings()).toEqual(before.settings);
    const status = await core.api.search.status();
    expect(status.embedding).toEqual(before.status.embedding);
    expect(status.vector_index).toEqual(before.status.vector_index);
    expect(await core.db.search_index.toArray()).toEqual(before.index);
    const hits = await core.api.search.search({ query: 'apple', mode: 'vector' });
    expect(hits.hits.map((hit) => hit.title)).toEqual(['Mine']);
  });

  it('refuses a bad list, a model it cannot load and a list beside `embedding`, storing no run', async () => {
    const core = await compareCore(engineDouble());
    const invalid = (field: string) => ({ code: 'BENCHMARK_CONFIG_INVALID', details: { field } });
    await expect(compare(core, [])).rejects.toMatchObject(invalid('embedding_models'));
    await expect(compare(core, ['hash-v1', 'hash-v1'])).rejects.toMatchObject(invalid('embedding_models'));
    await expect(compare(core, ['a', 'b', 'c', 'd', 'e'])).rejects.toMatchObject(invalid('embedding_models'));
    await expect(compare(core, ['hash-v1'], { modes: ['fts'] })).rejects.toMatchObject(
      invalid('embedding_models'),
    );
    await expect(compare(core, ['hash-v1'], { embedding: { model_id: 'hash-v1' } })).rejects.toMatchObject(
      invalid('embedding_models'),
    );
    await expect(compare(core, ['hash-v1', 'nobody/model'])).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { model_id: 'nobody/model', reason: 'unknown_model' },
    });
    expect((await core.api.benchmarks.list()).page.total).toBe(0);
  });

  it('without a benchmark engine only hash-v1 can be compared', async () => {
    const db = freshDatabase();
    const core = { db, ...createCoreApi(db, { indexDebounceMs: 0 }) };
    cores.push(core);
    await core.api.benchmarks.importDataset(JSON.stringify(DATASET));
    await expect(compare(core, ['hash-v1', MODEL_B])).rejects.toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { model_id: MODEL_B },
    });
    const run = await finished(core, await compare(core, ['hash-v1'], { modes: ['vector'] }));
    expect(run.status).toBe('completed');
  });

  it("a model that is not on the device fails the run naming it; the first model's cases are kept", async () => {
    const bench = engineDouble({ missing: [MODEL_B] });
    const core = await compareCore(bench);
    const run = await finished(core, await compare(core, [MODEL_A, MODEL_B], { modes: ['vector'] }));
    expect(run.status).toBe('failed');
    expect(run.metrics).toBeNull();
    expect(run.error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { model_id: MODEL_B, reason: 'not_downloaded' },
    });
    expect(run.error?.message).toContain(MODEL_B);
    const report = await core.api.benchmarks.report(run.run_id);
    expect(rows(report.cases)).toEqual([`vector/${MODEL_A}/c-apple`, `vector/${MODEL_A}/c-cherry`]);
    // What A loaded as is recorded; B keeps the catalog's description.
    expect(run.config_snapshot.embedding_models?.map((model) => model.model_version)).toEqual([
      `${MODEL_A}@fake-1`,
      'main',
    ]);
    expect(bench.stops()).toBe(1);
    expect(await isolatedDatabases()).toEqual([]);
  });

  it('a first model that is not on the device still leaves full text and the other models searched', async () => {
    const bench = engineDouble({ missing: [MODEL_B] });
    const core = await compareCore(bench);
    const run = await finished(core, await compare(core, [MODEL_B, MODEL_A], { modes: ['fts', 'vector'] }));
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { model_id: MODEL_B, reason: 'not_downloaded' },
    });
    // Full text needs no model; A's vectors were built and searched; nothing of B.
    const report = await core.api.benchmarks.report(run.run_id);
    expect(rows(report.cases)).toEqual([
      'fts/null/c-apple',
      'fts/null/c-cherry',
      `vector/${MODEL_A}/c-apple`,
      `vector/${MODEL_A}/c-cherry`,
    ]);
    expect(bench.stops()).toBe(1);
    expect(await isolatedDatabases()).toEqual([]);
  });

  it("a model that fails while indexing fails the run with BENCHMARK_RUN_FAILED naming it; A's results stay", async () => {
    const bench = engineDouble({ failEmbed: MODEL_B });
    const core = await compareCore(bench);
    const run = await finished(core, await compare(core, [MODEL_A, MODEL_B], { modes: ['fts', 'hybrid'] }));
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'BENCHMARK_RUN_FAILED', details: { model_id: MODEL_B } });
    const report = await core.api.benchmarks.report(run.run_id);
    expect(rows(report.cases)).toEqual([
      'fts/null/c-apple',
      'fts/null/c-cherry',
      `hybrid/${MODEL_A}/c-apple`,
      `hybrid/${MODEL_A}/c-cherry`,
    ]);
    expect(bench.stops()).toBe(1);
    expect(await isolatedDatabases()).toEqual([]);
  });

  it('cancels while the second model loads: the first model’s cases are kept, nothing else', async () => {
    let cancel: () => Promise<unknown> = async () => undefined;
    const bench = engineDouble({
      beforeLoad: async (modelId) => {
        if (modelId === MODEL_B) await cancel();
      },
    });
    const core = await compareCore(bench);
    const run = await compare(core, [MODEL_A, MODEL_B], { modes: ['vector'] });
    cancel = () => core.api.benchmarks.cancel(run.run_id);
    const done = await finished(core, run);
    expect(done.status).toBe('cancelled');
    expect(done.metrics).toBeNull();
    expect(rows((await core.api.benchmarks.report(run.run_id)).cases)).toEqual([
      `vector/${MODEL_A}/c-apple`,
      `vector/${MODEL_A}/c-cherry`,
    ]);
    expect(bench.loads).toEqual([MODEL_A, MODEL_B]);
    // The abort stopped the engine (a load in flight ends with it), and the run let it go.
    expect(bench.stops()).toBeGreaterThanOrEqual(1);
    expect(await isolatedDatabases()).toEqual([]);
  });

  it('cancels while the first model loads: no case, no second load', async () => {
    let cancel: () => Promise<unknown> = async () => undefined;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const bench = engineDouble({
      beforeLoad: async () => {
        await cancel();
        await held;
      },
    });
    const core = await compareCore(bench);
    const run = await compare(core, [MODEL_A, MODEL_B]);
    cancel = () => core.api.benchmarks.cancel(run.run_id);
    const done = await finished(core, run);
    release();
    expect(done.status).toBe('cancelled');
    expect((await core.api.benchmarks.report(run.run_id)).cases).toEqual([]);
    expect(bench.loads).toEqual([MODEL_A]);
    expect(bench.stops()).toBeGreaterThanOrEqual(1);
    expect(await isolatedDatabases()).toEqual([]);
  });

  it('compares two comparing runs case by case per mode and model', async () => {
    const core = await compareCore(engineDouble());
    const first = await finished(core, await compare(core, ['hash-v1', MODEL_B], { modes: ['vector'] }));
    const second = await finished(core, await compare(core, ['hash-v1', MODEL_B], { modes: ['vector'] }));
    const comparison = await core.api.benchmarks.compare(first.run_id, second.run_id);
    expect(comparison.counts).toEqual({ better: 0, worse: 0, same: 4, added: 0, removed: 0 });
    expect(comparison.items.map((item) => item.mode)).toContain(`vector · ${MODEL_B}`);
  });
});
