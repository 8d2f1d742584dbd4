import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, RERANKER_DOWNLOAD_JOB_KIND } from '../contracts';
import {
  localOnlySource,
  tinyCrossEncoderSpec,
  TINY_CROSS_ENCODER_ID,
  writeTinyCrossEncoder,
} from '../retrieval/__fixtures__/tiny-model';
import { TransformersRerankerHost } from '../retrieval/reranker-host';
import { TransformersReranker } from '../retrieval/transformers-reranker';
import { inThreadRerankerEngine, type RerankerEngine } from './reranker-engine';
import { RERANKER_SETTINGS_KEY } from './reranker-service';
import {
  closeCore,
  restartableCores,
  settledJob as settled,
  type RestartableCore as Core,
} from './test-core';
import { codeOf } from './test-error-code';
import { generatedModelFolder, gatedHost, recordedModelEngine } from './test-model-engine';

/**
 * Choosing the cross-encoder reranker, on the generated tiny cross-encoder
 * loaded by the real transformers.js code (an in-thread host instead of the
 * embed worker). The tiny model scores a pair by the cosine of the query's and
 * the passage's summed token rows, so it prefers the block that shares the
 * query's words over the one that repeats one of them: the opposite of BM25 here.
 */

const TINY_RERANKER = tinyCrossEncoderSpec();

const files = generatedModelFolder('notes-agent-reranker-service-', writeTinyCrossEncoder);

const cores = restartableCores();
const openCore = cores.open;
afterEach(() => cores.closeAll());

/** The tiny cross-encoder from local files, through an engine that records loads and stops. */
function tinyRerankers(engine: RerankerEngine = inThreadRerankerEngine()) {
  return recordedModelEngine(engine, [TINY_RERANKER], localOnlySource(files.models));
}

/** A real in-thread host whose loads wait until `release()`: a download in flight. */
function gatedEngine() {
  const gate = gatedHost(new TransformersRerankerHost(), 'loadReranker');
  return { engine: inThreadRerankerEngine(gate.host), started: gate.started, release: gate.release };
}

// BM25 puts POOLS first (the one block with the rare "thread"); the cross-encoder
// prefers CYCLE, whose words are nearly all query words.
const POOLS = { title: 'Pools', body: 'thread: green tea wants water below boiling' };
const CYCLE = { title: 'Locks', body: 'wait cycle' };
const OTHERS = [
  { title: 'Seasons', body: 'the cycle of seasons and green tea' },
  { title: 'Rain', body: 'the water cycle below the clouds' },
  { title: 'Kettle', body: 'a boiling cycle for the kettle' },
];
const QUERY = 'thread cycle';

async function withNotes(core: Core): Promise<void> {
  for (const note of [POOLS, CYCLE, ...OTHERS]) await core.api.notes.create(note);
  await core.idle();
}

describe('RerankerService', () => {
  it('is off by default and offers the catalog with sizes; without an engine it offers nothing', async () => {
    const core = openCore({ rerankers: tinyRerankers().options });
    await withNotes(core);
    expect(await core.api.rerankers.settings()).toEqual({
      model_id: null,
      model_version: null,
      download_job_id: null,
      models: [
        {
          model_id: TINY_CROSS_ENCODER_ID,
          label: 'Tiny cross-encoder (generated)',
          languages: ['zh', 'en'],
          download_mb: 0.4,
        },
      ],
    });
    const result = await core.api.search.search({ query: QUERY, mode: 'fts' });
    expect(result.reranked_by).toBeNull();
    expect(result.hits[0]?.title).toBe('Pools');
    expect(result.hits.map((hit) => hit.title)).toContain('Locks');
    expect(result.hits.every((hit) => hit.rerank_score === null)).toBe(true);
    const bare = openCore();
    expect((await bare.api.rerankers.settings()).models).toEqual([]);
    expect(
      await bare.api.rerankers.select({ model_id: 'Xenova/ms-marco-MiniLM-L-6-v2' }).catch((e: unknown) => e),
    ).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { kind: 'reranker', reason: 'runtime_unavailable' },
    });
  });

  it('downloads the chosen reranker with progress; then search and "ask your notes" rerank with it', async () => {
    const tiny = tinyRerankers();
    const core = openCore({ rerankers: tiny.options });
    await withNotes(core);
    await core.api.embedding.updateSource({ remote_host: 'https://models.example.org/' });

    const { job, settings } = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    expect(job).toMatchObject({ kind: RERANKER_DOWNLOAD_JOB_KIND, status: 'queued' });
    expect(settings).toMatchObject({ model_id: null, download_job_id: job!.job_id });
    const done = await settled(core, job!);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ model_id: TINY_CROSS_ENCODER_ID, dtype: 'fp32', device: 'cpu' });
    const events = (await core.api.events.list(job!.job_id)).items;
    const phases = events
      .filter((event) => event.event === 'Progress')
      .map((event) => (event.data as { phase: string }).phase);
    expect(phases[0]).toBe('download');
    expect(phases.at(-1)).toBe('ready');
    expect(events.at(-1)?.event).toBe('Completed');
    // Rerankers come from the model host set for embedding models.
    expect(tiny.configs[0]?.source).toMatchObject({ remote_host: 'https://models.example.org/' });

    const chosen = await core.api.rerankers.settings();
    expect(chosen).toMatchObject({ model_id: TINY_CROSS_ENCODER_ID, download_job_id: null });
    expect(chosen.model_version).toMatch(/^main\.fp32\.[0-9a-f]{16}$/);
    expect(await core.db.settings.get(RERANKER_SETTINGS_KEY)).toMatchObject({
      value: { model_id: TINY_CROSS_ENCODER_ID, loaded: { dtype: 'fp32', device: 'cpu' } },
    });

    // The scores are the cross-encoder's own, and they set the order.
    const direct = await TransformersReranker.load({
      model: TINY_RERANKER,
      source: localOnlySource(files.models),
    });
    const [pools, cycle] = await direct.score(QUERY, [POOLS.body, CYCLE.body]);
    await direct.dispose();
    expect(cycle).toBeGreaterThan(pools!);
    for (const mode of ['fts', 'hybrid'] as const) {
      const result = await core.api.search.search({ query: QUERY, mode });
      expect(result.reranked_by).toBe(TINY_CROSS_ENCODER_ID);
      expect(result.hits[0]).toMatchObject({ title: 'Locks' });
      expect(result.hits[0]!.rerank_score).toBeCloseTo(cycle!, 5);
      const scores = result.hits.map((hit) => hit.rerank_score!);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    }
    // "Ask your notes" builds its context from the same reranked search.
    const sources = await core.api.search.contextSources(QUERY);
    expect(sources[0]?.title).toBe('Locks');
    expect(sources.map((source) => source.title)).toContain('Pools');
  });

  it('turning it off stops reranking at once and is remembered', async () => {
    const core = openCore({ rerankers: tinyRerankers().options });
    await withNotes(core);
    const { job } = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    await settled(core, job!);
    // Choosing the one in use again is not a second download.
    expect((await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID })).job).toBeNull();

    const off = await core.api.rerankers.select({ model_id: null });
    expect(off).toMatchObject({ job: null, settings: { model_id: null, model_version: null } });
    const result = await core.api.search.search({ query: QUERY, mode: 'fts' });
    expect(result.reranked_by).toBeNull();
    expect(result.hits[0]?.title).toBe('Pools');
    expect(result.hits.every((hit) => hit.rerank_score === null)).toBe(true);
    const sources = await core.api.search.contextSources(QUERY);
    expect(sources[0]?.title).toBe('Pools');
    await closeCore(core);

    const again = openCore({ rerankers: tinyRerankers().options }, true);
    expect((await again.api.rerankers.settings()).model_id).toBeNull();
    expect((await again.api.search.search({ query: QUERY, mode: 'fts' })).reranked_by).toBeNull();
  });

  it('restores the chosen reranker after a restart without downloading it again', async () => {
    const first = openCore({ rerankers: tinyRerankers().options });
    await withNotes(first);
    const { job } = await first.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    await settled(first, job!);
    const version = (await first.api.rerankers.settings()).model_version;
    await closeCore(first);

    const second = tinyRerankers();
    const core = openCore({ rerankers: second.options }, true);
    expect(await core.api.rerankers.settings()).toMatchObject({
      model_id: TINY_CROSS_ENCODER_ID,
      model_version: version,
    });
    const result = await core.api.search.search({ query: QUERY, mode: 'fts' });
    expect(result.reranked_by).toBe(TINY_CROSS_ENCODER_ID);
    expect(result.hits[0]?.title).toBe('Locks');
    // No second download: the first query loaded it (from the cache in the app).
    expect(second.configs).toEqual([]);
    expect((await core.api.jobs.list({ kind: RERANKER_DOWNLOAD_JOB_KIND })).items).toHaveLength(1);
  });

  it('rejects invalid input with VALIDATION_FAILED and changes nothing', async () => {
    const core = openCore({ rerankers: tinyRerankers().options });
    const { api } = core;
    expect(await codeOf(api.rerankers.select({ model_id: '' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.rerankers.select({ model_id: 7 as unknown as string }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.rerankers.select({} as unknown as { model_id: null }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.rerankers.select(undefined as unknown as { model_id: null }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await codeOf(api.rerankers.select({ model_id: null, extra: 1 } as unknown as { model_id: null })),
    ).toBe('VALIDATION_FAILED');
    expect((await api.rerankers.settings()).model_id).toBeNull();
    expect(await core.db.settings.get(RERANKER_SETTINGS_KEY)).toBeUndefined();
    expect((await api.jobs.list({ kind: RERANKER_DOWNLOAD_JOB_KIND })).items).toEqual([]);
  });

  it('an unknown model is EMBEDDING_MODEL_UNAVAILABLE for the reranker, without a job', async () => {
    const { api } = openCore({ rerankers: tinyRerankers().options });
    const error = await api.rerankers
      .select({ model_id: 'nobody/no-reranker' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { kind: 'reranker', reason: 'unknown_model', available: [TINY_CROSS_ENCODER_ID] },
    });
    expect((error as AppError).message).toContain('nobody/no-reranker');
    expect((await api.jobs.list({ kind: RERANKER_DOWNLOAD_JOB_KIND })).items).toEqual([]);
  });

  it('another choice while one downloads is a STATE_CONFLICT', async () => {
    const gate = gatedEngine();
    const core = openCore({ rerankers: tinyRerankers(gate.engine).options });
    const { job } = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    await gate.started;
    expect((await core.api.rerankers.settings()).download_job_id).toBe(job!.job_id);
    const conflict = await core.api.rerankers.select({ model_id: null }).catch((caught: unknown) => caught);
    expect(conflict).toMatchObject({ code: 'STATE_CONFLICT', details: { job_id: job!.job_id } });
    expect(await codeOf(core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID }))).toBe(
      'STATE_CONFLICT',
    );
    gate.release();
    expect((await settled(core, job!)).status).toBe('completed');
    expect((await core.api.rerankers.settings()).model_id).toBe(TINY_CROSS_ENCODER_ID);
  });

  it('a download that fails leaves reranking off, with the reason on the job', async () => {
    const core = openCore({
      rerankers: { ...tinyRerankers().options, source: localOnlySource(join(files.root, 'nowhere')) },
    });
    await withNotes(core);
    const { job } = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    const failed = await settled(core, job!);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'EMBEDDING_MODEL_UNAVAILABLE' });
    expect(failed.error?.message).toContain('reranker');
    expect(await core.api.rerankers.settings()).toMatchObject({ model_id: null, download_job_id: null });
    expect(await core.db.settings.get(RERANKER_SETTINGS_KEY)).toBeUndefined();
    expect((await core.api.search.search({ query: QUERY, mode: 'fts' })).reranked_by).toBeNull();
  });

  it('cancelling a download stops the engine and leaves reranking off; choosing again works', async () => {
    const gate = gatedEngine();
    const tiny = tinyRerankers(gate.engine);
    const core = openCore({ rerankers: tiny.options });
    await withNotes(core);
    const { job } = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    await gate.started;
    await core.api.jobs.cancel(job!.job_id);
    expect((await settled(core, job!)).status).toBe('cancelled');
    expect(tiny.stops()).toBe(1);
    expect((await core.api.rerankers.settings()).model_id).toBeNull();
    expect((await core.api.search.search({ query: QUERY, mode: 'fts' })).reranked_by).toBeNull();
    gate.release();
    const again = await core.api.rerankers.select({ model_id: TINY_CROSS_ENCODER_ID });
    expect((await settled(core, again.job!)).status).toBe('completed');
    expect((await core.api.search.search({ query: QUERY, mode: 'fts' })).reranked_by).toBe(
      TINY_CROSS_ENCODER_ID,
    );
  });
});
