import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, EMBEDDING_DOWNLOAD_JOB_KIND } from '../contracts';
import {
  localOnlySource,
  tinyModelSpec,
  TINY_MODEL_ID,
  writeTinyEmbeddingModel,
} from '../retrieval/__fixtures__/tiny-model';
import { TransformersEmbedderHost } from '../retrieval/embedder-host';
import { TransformersEmbedder } from '../retrieval/transformers-embedder';
import { inThreadEmbeddingEngine, type EmbeddingEngine } from './embedding-engine';
import { closeCore, restartableCores, settledJob as settled } from './test-core';
import { codeOf } from './test-error-code';
import { generatedModelFolder, gatedHost, recordedModelEngine } from './test-model-engine';

/**
 * Choosing the embedding model, on the generated tiny model loaded by the real
 * transformers.js code (an in-thread host instead of the embed worker). The
 * tiny model's catalog entry carries e5-style prefixes, so the tests can tell
 * queries and passages apart.
 */

const TINY = tinyModelSpec({ query_prefix: 'query: ', passage_prefix: 'passage: ' });
const files = generatedModelFolder('notes-agent-embedding-service-', (models) =>
  writeTinyEmbeddingModel(models, TINY_MODEL_ID),
);

const cores = restartableCores();
const openCore = cores.open;
afterEach(() => cores.closeAll());

/** The tiny model from local files, through an engine that records what it was asked to load. */
function tinyEmbedding(engine: EmbeddingEngine = inThreadEmbeddingEngine()) {
  return recordedModelEngine(engine, [TINY], localOnlySource(files.models));
}

const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, value, index) => sum + value * (b[index] ?? 0), 0);

const DEADLOCK = {
  title: 'Deadlock',
  body: 'A deadlock needs four conditions: mutual exclusion and a wait cycle.',
};
const TEA = { title: 'Tea', body: 'Green tea wants water below boiling.' };

describe('EmbeddingService', () => {
  it('offers the built-in hash-v1 first, then the catalog with sizes', async () => {
    const { api } = openCore({ embedding: tinyEmbedding().options });
    const settings = await api.embedding.settings();
    expect(settings.model_id).toBe('hash-v1');
    expect(settings.active).toMatchObject({ model_id: 'hash-v1', dimension: 256 });
    expect(settings.remote_host).toBeNull();
    expect(settings.default_remote_host).toBe('https://huggingface.co/');
    expect(settings.download_job_id).toBeNull();
    expect(settings.models.map((model) => [model.model_id, model.builtin, model.download_mb])).toEqual([
      ['hash-v1', true, 0],
      [TINY_MODEL_ID, false, 0.5],
    ]);
    // Without an engine (no worker) only the built-in one is offered.
    const bare = openCore();
    expect((await bare.api.embedding.settings()).models.map((model) => model.model_id)).toEqual(['hash-v1']);
  });

  it('downloads the chosen model with progress, then vectors need a rebuild before vector search uses it', async () => {
    const core = openCore({ embedding: tinyEmbedding().options });
    const { api } = core;
    const deadlock = await api.notes.create(DEADLOCK);
    await api.notes.create(TEA);
    await core.idle();
    expect((await api.search.search({ query: 'deadlock cycle', mode: 'vector' })).mode_used).toBe('vector');

    const { job } = await api.embedding.select({ model_id: TINY_MODEL_ID });
    expect(job).toMatchObject({ kind: EMBEDDING_DOWNLOAD_JOB_KIND, status: 'queued' });
    const done = await settled(core, job!);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({
      model_id: TINY_MODEL_ID,
      dimension: 32,
      dtype: 'fp32',
      device: 'cpu',
    });

    const events = (await api.events.list(job!.job_id)).items;
    const phases = events
      .filter((event) => event.event === 'Progress')
      .map((event) => (event.data as { phase: string }).phase);
    expect(phases[0]).toBe('download');
    expect(phases.at(-1)).toBe('ready');
    expect(events.at(-1)?.event).toBe('Completed');

    const settings = await api.embedding.settings();
    expect(settings).toMatchObject({ model_id: TINY_MODEL_ID, download_job_id: null });
    const status = await api.search.status();
    expect(status.embedding.model_id).toBe(TINY_MODEL_ID);
    expect(status.vector_index).toMatchObject({ model_id: 'hash-v1', compatible: false });
    // Old vectors are never queried with the new model: mismatch, or full-text on request.
    expect(await codeOf(api.search.search({ query: 'deadlock', mode: 'vector' }))).toBe(
      'INDEX_MODEL_MISMATCH',
    );
    const fallback = await api.search.search({ query: 'deadlock', mode: 'hybrid', fallback: 'fts' });
    expect(fallback).toMatchObject({ mode_used: 'fts', fallback_reason: 'INDEX_MODEL_MISMATCH' });

    const rebuild = await api.search.rebuild({ scope: 'vectors' });
    expect((await settled(core, rebuild)).status).toBe('completed');
    expect((await api.search.status()).vector_index).toMatchObject({
      model_id: TINY_MODEL_ID,
      compatible: true,
      block_count: 2,
    });
    const result = await api.search.search({ query: 'deadlock wait cycle', mode: 'vector' });
    expect(result).toMatchObject({ mode_used: 'vector', fallback_reason: null });
    expect(result.hits[0]?.note_id).toBe(deadlock.note_id);

    // The score is the cosine of "query: …" against "passage: …": the e5 prefixes are applied.
    const direct = await TransformersEmbedder.load({ model: TINY, source: localOnlySource(files.models) });
    const [query, passage, unprefixed] = await Promise.all([
      direct.embed(['deadlock wait cycle'], { input: 'query' }),
      direct.embed([DEADLOCK.body], { input: 'passage' }),
      direct.embed([DEADLOCK.body], { input: 'query' }),
    ]);
    expect(result.hits[0]!.score).toBeCloseTo(cosine(query[0]!, passage[0]!), 5);
    expect(cosine(query[0]!, passage[0]!)).not.toBeCloseTo(cosine(query[0]!, unprefixed[0]!), 5);
    await direct.dispose();
  });

  it('restores the chosen model after a restart without downloading it again', async () => {
    const first = openCore({ embedding: tinyEmbedding().options });
    const note = await first.api.notes.create(DEADLOCK);
    const { job } = await first.api.embedding.select({ model_id: TINY_MODEL_ID });
    await settled(first, job!);
    await settled(first, await first.api.search.rebuild({ scope: 'vectors' }));
    await closeCore(first);

    const second = tinyEmbedding();
    const core = openCore({ embedding: second.options }, true);
    const status = await core.api.search.status();
    expect(status.embedding.model_id).toBe(TINY_MODEL_ID);
    expect(status.vector_index).toMatchObject({ model_id: TINY_MODEL_ID, compatible: true });
    const result = await core.api.search.search({ query: 'deadlock', mode: 'vector' });
    expect(result.hits[0]?.note_id).toBe(note.note_id);
    // No second download: the model was loaded on the first query.
    expect(second.configs).toEqual([]);
    expect((await core.api.jobs.list({ kind: EMBEDDING_DOWNLOAD_JOB_KIND })).items).toHaveLength(1);
  });

  it('switches back to hash-v1 at once, without a job', async () => {
    const core = openCore({ embedding: tinyEmbedding().options });
    const { job } = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    await settled(core, job!);
    const back = await core.api.embedding.select({ model_id: 'hash-v1' });
    expect(back.job).toBeNull();
    expect(back.settings.model_id).toBe('hash-v1');
    expect((await core.api.search.status()).embedding.model_id).toBe('hash-v1');
    // Choosing the model in use again is a no-op, not a second download.
    expect((await core.api.embedding.select({ model_id: 'hash-v1' })).job).toBeNull();
  });

  it('downloads from the configured model host', async () => {
    const tiny = tinyEmbedding();
    const core = openCore({ embedding: tiny.options });
    const updated = await core.api.embedding.updateSource({ remote_host: 'https://models.example.org/' });
    expect(updated.remote_host).toBe('https://models.example.org/');
    const { job } = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    await settled(core, job!);
    expect(tiny.configs[0]?.source).toMatchObject({ remote_host: 'https://models.example.org/' });
    // '' goes back to the default host.
    expect((await core.api.embedding.updateSource({ remote_host: '' })).remote_host).toBeNull();
  });

  it('rejects invalid input with VALIDATION_FAILED', async () => {
    const { api } = openCore({ embedding: tinyEmbedding().options });
    expect(await codeOf(api.embedding.select({ model_id: '' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.embedding.select({ model_id: 7 as unknown as string }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.embedding.select(undefined as unknown as { model_id: string }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.embedding.updateSource({ remote_host: 'ftp://models.example.org/' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.embedding.updateSource({ remote_host: 'not a url' }))).toBe('VALIDATION_FAILED');
    expect((await api.embedding.settings()).remote_host).toBeNull();
  });

  it('an unknown model, or no engine, is EMBEDDING_MODEL_UNAVAILABLE', async () => {
    const { api } = openCore({ embedding: tinyEmbedding().options });
    const error = await api.embedding
      .select({ model_id: 'nobody/no-model' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'EMBEDDING_MODEL_UNAVAILABLE',
      details: { reason: 'unknown_model' },
    });
    const bare = openCore();
    expect(await codeOf(bare.api.embedding.select({ model_id: TINY_MODEL_ID }))).toBe(
      'EMBEDDING_MODEL_UNAVAILABLE',
    );
  });

  it('a second choice while one downloads is a STATE_CONFLICT', async () => {
    const gate = gatedEngine();
    const core = openCore({ embedding: { ...tinyEmbedding().options, engine: gate.engine } });
    const { job } = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    await gate.started;
    expect((await core.api.embedding.settings()).download_job_id).toBe(job!.job_id);
    expect(await codeOf(core.api.embedding.select({ model_id: 'hash-v1' }))).toBe('STATE_CONFLICT');
    gate.release();
    expect((await settled(core, job!)).status).toBe('completed');
  });

  it('a download that fails leaves the model in use, with the reason on the job', async () => {
    const core = openCore({
      embedding: { ...tinyEmbedding().options, source: localOnlySource(join(files.root, 'nowhere')) },
    });
    await core.api.notes.create(DEADLOCK);
    const { job } = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    const failed = await settled(core, job!);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'EMBEDDING_MODEL_UNAVAILABLE' });
    expect((await core.api.embedding.settings()).model_id).toBe('hash-v1');
    const status = await core.api.search.status();
    expect(status.embedding.model_id).toBe('hash-v1');
    expect(status.vector_index?.compatible).toBe(true);
    expect((await core.api.search.search({ query: 'deadlock', mode: 'vector' })).mode_used).toBe('vector');
  });

  it('cancelling a download stops the engine and keeps the model in use', async () => {
    const gate = gatedEngine();
    const tiny = tinyEmbedding(gate.engine);
    const core = openCore({ embedding: tiny.options });
    const { job } = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    await gate.started;
    await core.api.jobs.cancel(job!.job_id);
    const cancelled = await settled(core, job!);
    expect(cancelled.status).toBe('cancelled');
    expect(tiny.stops()).toBe(1);
    expect((await core.api.embedding.settings()).model_id).toBe('hash-v1');
    expect((await core.api.search.status()).embedding.model_id).toBe('hash-v1');
    gate.release();
    // The user can choose again.
    const again = await core.api.embedding.select({ model_id: TINY_MODEL_ID });
    expect((await settled(core, again.job!)).status).toBe('completed');
  });
});

/** A real in-thread host whose loads wait until `release()`: a download in flight. */
function gatedEngine() {
  const gate = gatedHost(new TransformersEmbedderHost(), 'load');
  return { engine: inThreadEmbeddingEngine(gate.host), started: gate.started, release: gate.release };
}
