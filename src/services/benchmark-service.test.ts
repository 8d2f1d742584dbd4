import type { DBCore, DBCoreCursor, DBCoreTable } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type {
  AgentCaseResult,
  BenchmarkRunDto,
  CreateRagBenchmarkInput,
  EventEnvelope,
  RagCaseResult,
  RagDatasetFile,
} from '../contracts';
import {
  AppError,
  MAX_BENCHMARK_NOTE_BODY,
  benchmarkCutNoteSchema,
  benchmarkNoteBlocksSchema,
} from '../contracts';
import { codeOf } from './test-error-code';
import { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { HASH_EMBEDDER_INFO, type Embedder } from '../retrieval';
import { SCRIPT_ANSWER, agentScriptStream, scriptedAgentDataset } from './__fixtures__/openai-agent-script';
import { demoAdapterFactory, type AgentAdapterFactory } from './agent-service';
import { ISOLATED_DATABASE_PREFIX } from './benchmark-service';
import { createCoreApi, type CoreOptions } from './core-api';

type TestCore = ReturnType<typeof createCoreApi> & { db: NotesAgentDatabase };
const cores: TestCore[] = [];

function makeCore(options: CoreOptions = {}): TestCore {
  const db = freshDatabase();
  const core = createCoreApi(db, { indexDebounceMs: 0, ...options });
  const entry = { db, ...core };
  cores.push(entry);
  return entry;
}

afterEach(async () => {
  for (const core of cores.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

/** Latencies of 1, 2 and 4 ms for three cases: start and end readings per case. */
function steppingClock(readings: number[]): () => number {
  let index = 0;
  return () => readings[index++ % readings.length]!;
}

/**
 * Three notes and three cases whose full-text ranks are known: `apple` finds
 * its block first; `cherry` appears once in its expected block and three
 * times in a shorter other block, so the expected block ranks second;
 * `zzzqqq` finds nothing.
 */
const SMALL: RagDatasetFile = {
  dataset_id: 'small-v1',
  kind: 'rag',
  version: '1.0.0',
  description: 'three cases',
  notes: [
    {
      note_id: 'n1',
      title: 'one',
      folder: '',
      tags: [],
      body: 'Apple orchards bloom in spring.\n\nUnrelated text here.',
    },
    { note_id: 'n2', title: 'two', folder: '', tags: [], body: 'Cherry cherry cherry.' },
    {
      note_id: 'n3',
      title: 'three',
      folder: '',
      tags: [],
      body: 'A long paragraph about many fruits such as cherry and plum and pear and fig.',
    },
  ],
  cases: [
    {
      case_id: 'c-apple',
      query: 'apple',
      expected_note_ids: ['n1'],
      expected_block_ids: ['n1#0'],
      citation_required: true,
      tags: [],
    },
    {
      case_id: 'c-cherry',
      query: 'cherry',
      expected_note_ids: ['n3'],
      expected_block_ids: ['n3#0'],
      citation_required: true,
      tags: [],
    },
    {
      case_id: 'c-none',
      query: 'zzzqqq',
      expected_note_ids: ['n2'],
      expected_block_ids: ['n2#0'],
      citation_required: false,
      tags: [],
    },
  ],
};

async function finished(core: TestCore, run: BenchmarkRunDto): Promise<BenchmarkRunDto> {
  await core.idle();
  return core.api.benchmarks.get(run.run_id);
}

async function isolatedDatabases(): Promise<string[]> {
  return (await indexedDB.databases()).flatMap((info) =>
    info.name?.startsWith(ISOLATED_DATABASE_PREFIX) ? [info.name] : [],
  );
}

/** agent-core-v1 on the offline demo model. */
const DEMO_RUN = { dataset_id: 'agent-core-v1', provider_id: 'mock', model: 'mock-1' };

/** A core with the small dataset registered. */
async function smallCore(options: CoreOptions = {}): Promise<TestCore> {
  const core = makeCore(options);
  await core.api.benchmarks.importDataset(JSON.stringify(SMALL));
  return core;
}

/** A finished RAG run of the small dataset (full text only unless the input says otherwise). */
async function runSmall(
  core: TestCore,
  input: Partial<CreateRagBenchmarkInput> = {},
): Promise<BenchmarkRunDto> {
  return finished(
    core,
    await core.api.benchmarks.createRagRun({ dataset_id: 'small-v1', modes: ['fts'], ...input }),
  );
}

/** The user's notebook as stored: a run must leave it exactly so. */
async function notebook(core: TestCore) {
  return {
    notes: await core.db.notes.toArray(),
    blocks: await core.db.blocks.toArray(),
    index: await core.db.search_index.toArray(),
  };
}

/** A note of the user's own, indexed, and the notebook as it then is. */
async function withMyNote(core: TestCore) {
  await core.api.notes.create({ title: 'Mine', body: 'Deadlock notes of my own.', folder: '', tags: [] });
  await core.idle();
  return notebook(core);
}

/** The notebook is as it was, no agent run of the user's exists, and every run's database is gone. */
async function expectUntouched(core: TestCore, before: Awaited<ReturnType<typeof notebook>>): Promise<void> {
  expect(await notebook(core)).toEqual(before);
  expect((await core.api.agent.list()).page.total).toBe(0);
  expect(await isolatedDatabases()).toEqual([]);
}

/** A latency clock that asks for the cancel at its nth reading (a case's start or end). */
function cancellingAt(reading: number): {
  latencyClock: () => number;
  cancelWith: (cancel: () => void) => void;
} {
  let readings = 0;
  let cancel: () => void = () => undefined;
  return {
    latencyClock: () => {
      readings += 1;
      if (readings === reading) cancel();
      return readings;
    },
    cancelWith: (next) => {
      cancel = next;
    },
  };
}

/** What a refused request is: BENCHMARK_CONFIG_INVALID with these details (the field at least). */
function configInvalid(details: Record<string, unknown>) {
  return { code: 'BENCHMARK_CONFIG_INVALID', details };
}

/** The run ended cancelled without metrics, reporting some but not all of its cases, its database gone. */
async function expectCancelledMidway(core: TestCore, run: BenchmarkRunDto, caseCount: number): Promise<void> {
  const done = await finished(core, run);
  expect(done.status).toBe('cancelled');
  expect(done.metrics).toBeNull();
  const report = await core.api.benchmarks.report(run.run_id);
  expect(report.cases.length).toBeGreaterThanOrEqual(1);
  expect(report.cases.length).toBeLessThan(caseCount);
  expect(await isolatedDatabases()).toEqual([]);
}

describe('benchmark datasets', () => {
  it('lists the shipped datasets with their case counts and content hashes', async () => {
    const core = makeCore();
    const { items } = await core.api.benchmarks.listDatasets();
    expect(items.map((item) => [item.dataset_id, item.kind, item.case_count, item.source])).toEqual([
      ['rag-core-v1', 'rag', 279, 'builtin'],
      ['agent-core-v1', 'agent', 5, 'builtin'],
    ]);
    for (const item of items) expect(item.content_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await core.api.benchmarks.listDatasets({ kind: 'agent' })).items).toHaveLength(1);
  });

  it('imports a dataset by its content and hashes a canonical form (key order and spacing do not matter)', async () => {
    const core = makeCore();
    const imported = await core.api.benchmarks.importDataset(JSON.stringify(SMALL));
    expect(imported).toMatchObject({
      dataset_id: 'small-v1',
      kind: 'rag',
      case_count: 3,
      source: 'imported',
    });
    const { cases, notes, ...header } = SMALL;
    const reordered = JSON.stringify({ cases, notes, ...header }, null, 3);
    const again = await core.api.benchmarks.importDataset(reordered);
    expect(again.content_hash).toBe(imported.content_hash);
    const changed = await core.api.benchmarks.importDataset(
      JSON.stringify({ ...SMALL, cases: [{ ...SMALL.cases[0]!, query: 'apples' }, ...SMALL.cases.slice(1)] }),
    );
    expect(changed.content_hash).not.toBe(imported.content_hash);
    expect(
      (await core.api.benchmarks.listDatasets({ kind: 'rag' })).items.map((item) => item.dataset_id),
    ).toEqual(['rag-core-v1', 'small-v1']);
  });

  it('rejects an invalid dataset naming the case and the field, and stores nothing', async () => {
    const core = makeCore();
    const broken = { ...SMALL, cases: [SMALL.cases[0], { ...SMALL.cases[1], query: '' }] };
    await expect(core.api.benchmarks.importDataset(JSON.stringify(broken))).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_INVALID',
      details: { case_id: 'c-cherry', field: 'cases.1.query' },
    });
    const missingBlock = { ...SMALL, cases: [{ ...SMALL.cases[0], expected_block_ids: ['n1#9'] }] };
    await expect(core.api.benchmarks.importDataset(JSON.stringify(missingBlock))).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_INVALID',
      details: { case_id: 'c-apple', field: 'cases.0.expected_block_ids.0' },
    });
    const repeated = { ...SMALL, cases: [SMALL.cases[0], SMALL.cases[0]] };
    await expect(core.api.benchmarks.importDataset(JSON.stringify(repeated))).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_INVALID',
      details: { case_id: 'c-apple', field: 'cases.1.case_id' },
    });
    await expect(core.api.benchmarks.importDataset('{not json')).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_INVALID',
      details: { field: '(root)' },
    });
    await expect(
      core.api.benchmarks.importDataset(JSON.stringify({ ...SMALL, dataset_id: 'rag-core-v1' })),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID', details: { field: 'dataset_id' } });
    expect((await core.api.benchmarks.listDatasets()).items.map((item) => item.source)).toEqual([
      'builtin',
      'builtin',
    ]);
  });

  it('names the notes of a RAG dataset without their bodies; an agent dataset has none', async () => {
    const core = makeCore();
    const rag = await core.api.benchmarks.getDataset('rag-core-v1');
    if (rag.kind !== 'rag') throw new Error('rag-core-v1 is a RAG dataset');
    const titles = await core.api.benchmarks.noteTitles('rag-core-v1');
    expect(titles).toEqual(rag.notes.map(({ note_id, title }) => ({ note_id, title })));
    expect(titles.length).toBeGreaterThan(0);
    expect(Object.keys(titles[0]!).sort()).toEqual(['note_id', 'title']);
    expect(await core.api.benchmarks.noteTitles('agent-core-v1')).toEqual([]);
    await expect(core.api.benchmarks.noteTitles('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers BENCHMARK_DATASET_NOT_FOUND for an unknown id', async () => {
    const core = makeCore();
    await expect(core.api.benchmarks.getDataset('nope')).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_NOT_FOUND',
    });
    await expect(core.api.benchmarks.noteTitles('nope')).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_NOT_FOUND',
    });
    await expect(core.api.benchmarks.createRagRun({ dataset_id: 'nope' })).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_NOT_FOUND',
    });
  });
});

describe('RAG benchmark runs', () => {
  it('computes the hand-worked metrics of a small dataset through the service', async () => {
    const core = await smallCore({ benchmarks: { latencyClock: steppingClock([0, 1, 10, 12, 20, 24]) } });
    const created = await core.api.benchmarks.createRagRun({
      dataset_id: 'small-v1',
      modes: ['fts'],
      retrieval: { top_k: 5 },
    });
    expect(created).toMatchObject({ kind: 'rag', dataset_id: 'small-v1', metrics: null, error: null });
    expect(['queued', 'running']).toContain(created.status);
    const run = await finished(core, created);
    expect(run.status).toBe('completed');
    const report = await core.api.benchmarks.report(run.run_id);
    const ranks = (report.cases as RagCaseResult[]).map((entry) => [
      entry.case_id,
      entry.first_hit_rank,
      entry.failure_reason,
    ]);
    expect(ranks).toEqual([
      ['c-apple', 1, null],
      ['c-cherry', 2, null],
      ['c-none', null, 'no results'],
    ]);
    expect(run.metrics).toEqual({
      kind: 'rag',
      by_mode: {
        fts: {
          hit_at_1: 1 / 3,
          hit_at_5: 2 / 3,
          recall_at_k: 2 / 3,
          mrr: 0.5,
          citation_hit_rate: null,
          p50_latency_ms: 2,
          p95_latency_ms: 3.8,
          case_count: 3,
          skipped: { citation_hit_rate: 'no answer model was chosen' },
        },
      },
    });
  });

  it('records the config snapshot, runs every mode and leaves the user notebook untouched', async () => {
    const core = await smallCore();
    const mine = await core.api.notes.create({
      title: 'Mine',
      body: 'Apple pie recipe.',
      folder: '',
      tags: [],
    });
    await core.idle();
    const before = await notebook(core);
    const run = await runSmall(core, {
      modes: ['fts', 'vector', 'hybrid'],
      retrieval: { top_k: 3, rrf_k: 30 },
      metadata: { note: 'x' },
    });
    expect(run.status).toBe('completed');
    expect(run.config_snapshot).toMatchObject({
      dataset_id: 'small-v1',
      dataset_hash: run.dataset_hash,
      modes: ['fts', 'vector', 'hybrid'],
      retrieval: { top_k: 3, rrf_k: 30, rerank: false },
      embedding: HASH_EMBEDDER_INFO,
      reranker: null,
      index_version: { full_text: 1, vectors: 1 },
      environment: { runtime: 'node', webgpu_available: false, embedding_backend: 'js' },
    });
    expect(run.metadata).toEqual({ note: 'x' });
    expect(Object.keys(run.metrics?.kind === 'rag' ? run.metrics.by_mode : {})).toEqual([
      'fts',
      'vector',
      'hybrid',
    ]);
    const report = await core.api.benchmarks.report(run.run_id);
    expect(report.cases).toHaveLength(9);
    // The dataset's notes never reached the user's notebook, and its database is gone.
    await expectUntouched(core, before);
    expect((await core.api.search.search({ query: 'cherry' })).hits).toEqual([]);
    expect((await core.api.search.search({ query: 'apple' })).hits.map((hit) => hit.note_id)).toEqual([
      mine.note_id,
    ]);
  });

  it('publishes lifecycle and per-case events in order', async () => {
    const core = await smallCore();
    const run = await runSmall(core);
    const page = await core.api.benchmarks.events(run.run_id);
    const names = page.items.map((item) => item.event);
    expect(names[0]).toBe('Queued');
    expect(names[1]).toBe('Started');
    expect(names.at(-1)).toBe('Completed');
    expect(
      page.items
        .filter((item) => item.event === 'CaseResult')
        .map((item) => (item.data as RagCaseResult).case_id),
    ).toEqual(['c-apple', 'c-cherry', 'c-none']);
    const later = await core.api.benchmarks.events(run.run_id, { after_sequence: page.items[2]!.sequence });
    expect(later.items[0]!.sequence).toBe(page.items[3]!.sequence);
  });

  // Indexes all of rag-core-v1 first: heavy on a loaded machine, hence the longer timeout.
  it('cancels a run mid-way: no metrics, the finished cases in the report, the isolated database deleted', async () => {
    // The second case starts (the clock's third reading): ask for the cancel while the run is mid-way.
    const clock = cancellingAt(3);
    const core = makeCore({ benchmarks: { latencyClock: clock.latencyClock } });
    const run = await core.api.benchmarks.createRagRun({ dataset_id: 'rag-core-v1', modes: ['fts'] });
    clock.cancelWith(() => void core.api.benchmarks.cancel(run.run_id));
    await expectCancelledMidway(core, run, 279);
    expect((await core.api.benchmarks.events(run.run_id)).items.at(-1)?.event).toBe('Cancelled');
    await expect(core.api.benchmarks.cancel(run.run_id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  }, 60_000);

  it('rejects an index built with another embedding model', async () => {
    const core = makeCore();
    await expect(
      core.api.benchmarks.createRagRun({
        dataset_id: 'rag-core-v1',
        embedding: { model_id: 'bge-m3', dimension: 1024 },
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_INDEX_INCOMPATIBLE', details: { index: HASH_EMBEDDER_INFO } });
    await expect(
      core.api.benchmarks.createRagRun({
        dataset_id: 'rag-core-v1',
        embedding: { model_id: 'hash-v1', dimension: 64 },
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_INDEX_INCOMPATIBLE' });
    // Full text alone needs no vectors, so the model does not matter.
    const fts = await core.api.benchmarks.createRagRun({
      dataset_id: 'rag-core-v1',
      modes: ['fts'],
      embedding: { model_id: 'bge-m3' },
    });
    await core.api.benchmarks.cancel(fts.run_id);
    expect((await core.api.benchmarks.list()).items).toHaveLength(1);
  });

  it('answers BENCHMARK_CONFIG_INVALID for a bad request, naming the field', async () => {
    const core = makeCore();
    await expect(
      core.api.benchmarks.createRagRun({ dataset_id: 'rag-core-v1', modes: ['bm25' as 'fts'] }),
    ).rejects.toMatchObject(configInvalid({ field: 'modes.0' }));
    await expect(
      core.api.benchmarks.createRagRun({ dataset_id: 'rag-core-v1', repeat: 0 }),
    ).rejects.toMatchObject(configInvalid({ field: 'repeat' }));
    await expect(core.api.benchmarks.createRagRun({ dataset_id: 'agent-core-v1' })).rejects.toMatchObject(
      configInvalid({ field: 'dataset_id' }),
    );
    await expect(
      core.api.benchmarks.createRagRun({
        dataset_id: 'rag-core-v1',
        answer_model: { provider_id: 'nowhere', model: 'm' },
      }),
    ).rejects.toMatchObject(
      configInvalid({ field: 'answer_model.provider_id', cause: 'RESOURCE_NOT_FOUND' }),
    );
    expect((await core.api.benchmarks.list()).page.total).toBe(0);
  });

  it('fails with BENCHMARK_RUN_FAILED when indexing the dataset fails, and cleans up', async () => {
    const failing: Embedder = {
      info: HASH_EMBEDDER_INFO,
      embed: async () => {
        throw new Error('out of memory');
      },
    };
    const core = await smallCore({ embedder: failing });
    const run = await runSmall(core, { modes: ['vector'] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatchObject({ code: 'BENCHMARK_RUN_FAILED' });
    expect(run.completed_at).not.toBeNull();
    expect(await isolatedDatabases()).toEqual([]);
  });

  it('lists runs newest first with kind and status filters and paging; unknown runs are BENCHMARK_RUN_NOT_FOUND', async () => {
    const core = await smallCore();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await core.api.benchmarks.createRagRun({
        dataset_id: 'small-v1',
        modes: ['fts'],
        metadata: { i },
      });
      ids.push(run.run_id);
      await core.idle();
    }
    const all = await core.api.benchmarks.list();
    expect(all.page).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(new Set(all.items.map((item) => item.run_id))).toEqual(new Set(ids));
    const page = await core.api.benchmarks.list({ kind: 'rag', status: 'completed', limit: 1, offset: 1 });
    expect(page.page).toEqual({ total: 3, limit: 1, offset: 1 });
    expect(page.items).toHaveLength(1);
    expect((await core.api.benchmarks.list({ kind: 'agent' })).page.total).toBe(0);
    expect((await core.api.benchmarks.list({ status: 'failed' })).page.total).toBe(0);
    await expect(core.api.benchmarks.list({ limit: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    for (const call of [
      () => core.api.benchmarks.get('benchmark_missing'),
      () => core.api.benchmarks.report('benchmark_missing'),
      () => core.api.benchmarks.events('benchmark_missing'),
      () => core.api.benchmarks.cancel('benchmark_missing'),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'BENCHMARK_RUN_NOT_FOUND' });
    }
  });
});

/** An OpenAI-compatible answer as one streamed text chunk. */
function answerStream(text: string): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'a', object: 'chat.completion.chunk', model: 'script-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  return `${chunk({ role: 'assistant', content: text }, null)}${chunk({}, 'stop')}data: [DONE]\n\n`;
}

interface ChatBody {
  messages: Array<{ role: string; content: string }>;
}

/**
 * A fake OpenAI-compatible host: it lists `script-model`, and `chat` answers
 * every other request from its parsed body (with the request's URL and abort
 * signal).
 */
function fakeHost(
  chat: (body: ChatBody, url: URL, signal: AbortSignal | undefined) => Response | Promise<Response>,
): typeof globalThis.fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if (url.pathname.endsWith('/models')) {
      return Response.json({ object: 'list', data: [{ id: 'script-model', object: 'model' }] });
    }
    return chat(JSON.parse(String(init?.body)) as ChatBody, url, init?.signal ?? undefined);
  }) as typeof globalThis.fetch;
}

/** Rejects with an AbortError when the request is aborted; never resolves. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) =>
    signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
  );
}

function eventStream(text: string): Response {
  return new Response(text, { headers: { 'Content-Type': 'text/event-stream' } });
}

/**
 * An OpenAI-compatible host whose model cites, as `[n, m]`, every source in
 * its system prompt that contains the question. `hold` keeps a request open
 * until it is aborted.
 */
function citingProvider(options: { hold?: boolean } = {}) {
  const bodies: Array<{ system: string; question: string }> = [];
  let requested: () => void = () => undefined;
  const firstRequest = new Promise<void>((resolve) => (requested = resolve));
  const fetch = fakeHost(async (body, _url, signal) => {
    const system = body.messages.find((message) => message.role === 'system')?.content ?? '';
    const question = body.messages.at(-1)!.content.toLowerCase();
    bodies.push({ system, question });
    requested();
    if (options.hold) await untilAborted(signal);
    const cited = [...system.matchAll(/^\[(\d+)\] .* \u2014 (.*)$/gmu)]
      .filter((match) => match[2]!.toLowerCase().includes(question))
      .map((match) => match[1]);
    return eventStream(answerStream(`From your notes [${cited.join(', ')}].`));
  });
  return { fetch, bodies, firstRequest };
}

describe('citation_hit_rate through "ask your notes"', () => {
  it('asks the mock model each citation-required case with the mode\u2019s hits as sources (hand-worked)', async () => {
    const core = await smallCore({ providers: { sleep: async () => undefined } });
    const before = await withMyNote(core);
    const run = await runSmall(core, { answer_model: { provider_id: 'mock', model: 'mock-1' } });
    expect(run.status).toBe('completed');
    expect(run.config_snapshot.answer_model).toEqual({ provider_id: 'mock', model: 'mock-1' });
    // The mock always cites source [1]: the apple case's top hit is its block, the cherry case's is not.
    const cases = (await core.api.benchmarks.report(run.run_id)).cases as RagCaseResult[];
    expect(
      cases.map((entry) => [entry.case_id, entry.cited_block_ids, entry.passed, entry.failure_reason]),
    ).toEqual([
      ['c-apple', ['n1#0'], true, null],
      ['c-cherry', ['n2#0'], false, 'the answer did not cite the expected block'],
      ['c-none', null, false, 'no results'],
    ]);
    expect(run.metrics).toMatchObject({
      kind: 'rag',
      by_mode: { fts: { citation_hit_rate: 0.5, hit_at_1: 1 / 3, skipped: {} } },
    });
    // The questions and answers lived in the run's database: the user has no new conversation.
    expect(await core.db.conversations.count()).toBe(0);
    await expectUntouched(core, before);
  });

  it('measures a configured OpenAI-compatible model per mode, from the [n] markers of its answers', async () => {
    const remote = citingProvider();
    const core = await coreOn(remote);
    await core.api.benchmarks.importDataset(JSON.stringify(SMALL));
    const run = await runSmall(core, {
      modes: ['fts', 'hybrid'],
      retrieval: { top_k: 3 },
      answer_model: { provider_id: 'local', model: 'script-model' },
    });
    expect(run.status).toBe('completed');
    // Two citation-required cases in two modes: four questions, each with its sources in the prompt.
    expect(remote.bodies.map((body) => body.question)).toEqual(['apple', 'cherry', 'apple', 'cherry']);
    for (const body of remote.bodies) expect(body.system).toContain('Sources from the user\u2019s notes:');
    const fts = ((await core.api.benchmarks.report(run.run_id)).cases as RagCaseResult[]).filter(
      (entry) => entry.mode === 'fts',
    );
    // "cherry" is in both hits (ranks 1 and 2): the answer cites [1, 2], the expected block among them.
    expect(fts.map((entry) => entry.cited_block_ids)).toEqual([['n1#0'], ['n2#0', 'n3#0'], null]);
    expect(run.metrics).toMatchObject({
      by_mode: { fts: { citation_hit_rate: 1 }, hybrid: { citation_hit_rate: 1 } },
    });
    expect(await core.db.conversations.count()).toBe(0);
  });

  it('refuses a disabled answer provider before a run exists', async () => {
    const core = await coreOn(citingProvider(), { enabled: false });
    await expect(
      core.api.benchmarks.createRagRun({
        dataset_id: 'rag-core-v1',
        answer_model: { provider_id: 'local', model: 'script-model' },
      }),
    ).rejects.toMatchObject(configInvalid({ field: 'answer_model.provider_id', cause: 'STATE_CONFLICT' }));
    expect((await core.api.benchmarks.list()).page.total).toBe(0);
  });

  it('cancels while the model answers: the request is aborted and the run database deleted', async () => {
    const remote = citingProvider({ hold: true });
    const core = await coreOn(remote);
    await core.api.benchmarks.importDataset(JSON.stringify(SMALL));
    const created = await core.api.benchmarks.createRagRun({
      dataset_id: 'small-v1',
      modes: ['fts'],
      answer_model: { provider_id: 'local', model: 'script-model' },
    });
    await remote.firstRequest;
    await core.api.benchmarks.cancel(created.run_id);
    const run = await finished(core, created);
    expect(run).toMatchObject({ status: 'cancelled', metrics: null });
    expect(remote.bodies).toHaveLength(1);
    expect(await isolatedDatabases()).toEqual([]);
  });
});

describe('benchmark my notes', () => {
  it('builds a dataset from picked blocks of the user notes and runs it on a copy', async () => {
    const core = makeCore();
    const a = await core.api.notes.create({
      title: 'Deadlock',
      body: 'Coffman conditions: mutual exclusion, hold and wait.\n\nBanker algorithm avoids it.',
      folder: '',
      tags: [],
    });
    const b = await core.api.notes.create({
      title: 'Paging',
      body: 'A TLB caches page table entries.',
      folder: '',
      tags: [],
    });
    await core.idle();
    const blocksA = await core.db.blocks.where('note_id').equals(a.note_id).sortBy('position');
    const blocksB = await core.db.blocks.where('note_id').equals(b.note_id).sortBy('position');
    const before = await notebook(core);
    const dataset = await core.api.benchmarks.createDatasetFromNotes({
      dataset_id: 'my-notes',
      cases: [
        { block_id: blocksA[1]!.block_id, query: 'banker algorithm' },
        { block_id: blocksB[0]!.block_id, query: 'what caches page table entries' },
      ],
    });
    expect(dataset).toMatchObject({ dataset_id: 'my-notes', kind: 'rag', case_count: 2, source: 'imported' });
    // Every note fits the dataset bound: nothing was cut.
    expect(dataset.cut_notes).toEqual([]);
    const run = await finished(
      core,
      await core.api.benchmarks.createRagRun({ dataset_id: 'my-notes', modes: ['fts', 'hybrid'] }),
    );
    expect(run.status).toBe('completed');
    const report = await core.api.benchmarks.report(run.run_id);
    expect(
      (report.cases as RagCaseResult[])
        .filter((entry) => entry.mode === 'fts')
        .map((entry) => entry.first_hit_rank),
    ).toEqual([1, 1]);
    await expectUntouched(core, before);
    await expect(
      core.api.benchmarks.createDatasetFromNotes({
        dataset_id: 'x',
        cases: [{ block_id: 'block_gone', query: 'q' }],
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID', details: { field: 'cases.0.block_id' } });
  });

  it('copies a note over the dataset bound up to its last whole block within it, and runs', async () => {
    const core = makeCore();
    // Long paragraphs: few blocks for the test's in-memory database to index.
    const paragraph = `${'A line of the capybara log. '.repeat(70)}\n\n`;
    const body = `# Log\n\nThe first paragraph names the quokka.\n\n${paragraph.repeat(560)}The last names the wombat.\n`;
    expect(body.length).toBeGreaterThan(MAX_BENCHMARK_NOTE_BODY);
    const log = await core.api.notes.create({ title: 'Log', body, folder: '', tags: [] });
    await core.api.notes.create({
      title: 'Paging',
      body: 'A TLB caches page table entries.',
      folder: '',
      tags: [],
    });
    await core.idle();
    const blocks = await core.db.blocks.where('note_id').equals(log.note_id).sortBy('position');
    const first = blocks.find((block) => block.text.includes('quokka'))!;
    const last = blocks.find((block) => block.text.includes('wombat'))!;

    const created = await core.api.benchmarks.createDatasetFromNotes({
      dataset_id: 'my-log',
      cases: [{ block_id: first.block_id, query: 'which animal does the first paragraph name' }],
    });
    const dataset = await core.api.benchmarks.getDataset('my-log');
    const copy = dataset.notes.find((note) => note.note_id === log.note_id)!;
    // The user is told which note was cut and how much of it the dataset holds; the short note is not listed.
    expect(created.cut_notes).toEqual([
      {
        note_id: log.note_id,
        title: 'Log',
        body_length: body.length,
        kept_chars: copy.body.length,
        kept_block_count: copy.block_ids!.length,
        block_count: blocks.length,
      },
    ]);
    expect(benchmarkCutNoteSchema.parse(created.cut_notes[0])).toEqual(created.cut_notes[0]);
    expect(copy.block_ids!.length).toBeLessThan(blocks.length);
    expect(copy.body.length).toBeLessThanOrEqual(MAX_BENCHMARK_NOTE_BODY);
    expect(body.startsWith(copy.body)).toBe(true);
    expect(copy.body.endsWith(paragraph.slice(0, -2))).toBe(true);
    expect(copy.block_ids).toEqual(blocks.slice(0, copy.block_ids!.length).map((block) => block.block_id));
    const run = await finished(
      core,
      await core.api.benchmarks.createRagRun({ dataset_id: 'my-log', modes: ['fts'] }),
    );
    expect(run.status).toBe('completed');

    await expect(
      core.api.benchmarks.createDatasetFromNotes({
        dataset_id: 'my-log-2',
        cases: [{ block_id: last.block_id, query: 'which animal does the last paragraph name' }],
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID', details: { field: 'cases.0.block_id' } });
  });
});

describe('benchmark my notes: refused requests', () => {
  async function oneNote(core: ReturnType<typeof makeCore>) {
    const note = await core.api.notes.create({ title: 'Paging', body: 'A TLB caches page table entries.' });
    await core.idle();
    const [block] = await core.db.blocks.where('note_id').equals(note.note_id).sortBy('position');
    return { note, block: block! };
  }

  it('refuses an invalid request and registers nothing', async () => {
    const core = makeCore();
    const { block } = await oneNote(core);
    for (const input of [
      { dataset_id: 'no cases', cases: [] },
      { dataset_id: 'has spaces', cases: [{ block_id: block.block_id, query: 'q' }] },
      { dataset_id: 'blank-question', cases: [{ block_id: block.block_id, query: '   ' }] },
    ]) {
      expect(await codeOf(core.api.benchmarks.createDatasetFromNotes(input))).toBe('VALIDATION_FAILED');
    }
    expect(
      (await core.api.benchmarks.listDatasets()).items.filter((item) => item.source === 'imported'),
    ).toEqual([]);
  });

  it('refuses a case whose note is gone (trashed, or its block deleted), naming the case, and registers nothing', async () => {
    const core = makeCore();
    const { note, block } = await oneNote(core);
    const other = await oneNote(core);
    await core.api.notes.trash(note.note_id);
    await expect(
      core.api.benchmarks.createDatasetFromNotes({
        dataset_id: 'trashed-note',
        cases: [
          { block_id: other.block.block_id, query: 'what caches page table entries' },
          { block_id: block.block_id, query: 'what caches page table entries' },
        ],
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID' });
    await core.api.notes.purge(note.note_id);
    await expect(
      core.api.benchmarks.createDatasetFromNotes({
        dataset_id: 'purged-note',
        cases: [{ block_id: block.block_id, query: 'what caches page table entries' }],
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID', details: { field: 'cases.0.block_id' } });
    expect(
      (await core.api.benchmarks.listDatasets()).items.filter((item) => item.source === 'imported'),
    ).toEqual([]);
  });
});

/**
 * Counts the rows a core reads from the `blocks` and `notes` stores (gets,
 * queries and cursors alike), from before the database opens.
 */
function makeCountingCore(): { core: TestCore; rows: { blocks: number; notes: number } } {
  const rows = { blocks: 0, notes: 0 };
  const db = freshDatabase();
  db.use({
    stack: 'dbcore',
    name: 'count-rows-read',
    create: (down: DBCore) => ({
      ...down,
      table: (name: string): DBCoreTable => {
        const table = down.table(name);
        if (name !== 'blocks' && name !== 'notes') return table;
        const add = (count: number) => (rows[name] += count);
        return {
          ...table,
          get: async (request) => {
            const value: unknown = await table.get(request);
            if (value !== undefined) add(1);
            return value;
          },
          getMany: async (request) => {
            const values: unknown[] = await table.getMany(request);
            add(values.filter((value) => value !== undefined).length);
            return values;
          },
          query: async (request) => {
            const result = await table.query(request);
            if (request.values) add(result.result.length);
            return result;
          },
          openCursor: async (request) => {
            const cursor = await table.openCursor(request);
            if (!cursor || !request.values) return cursor;
            return Object.create(cursor, {
              start: {
                value: (onNext: () => void) =>
                  cursor.start(() => {
                    add(1);
                    onNext();
                  }),
              },
            }) as DBCoreCursor;
          },
        };
      },
    }),
  });
  const core = { db, ...createCoreApi(db, { indexDebounceMs: 0 }) };
  cores.push(core);
  return { core, rows };
}

/** A note over the dataset bound of long paragraphs (few blocks for the in-memory database to index). */
function overTheCut(paragraphs: number): { body: string; paragraph: string } {
  const paragraph = `${'A line of the capybara log. '.repeat(70)}\n\n`;
  const body = `# Log\n\nThe first paragraph names the quokka.\n\n${paragraph.repeat(paragraphs)}The last names the wombat.\n`;
  return { body, paragraph };
}

describe('benchmark my notes: the blocks the picker lists', () => {
  it('lists a note by its blocks, each by id and a short label, with the counts', async () => {
    const core = makeCore();
    const note = await core.api.notes.create({
      title: 'Deadlock',
      body: `# Deadlock\n\nCoffman conditions: mutual exclusion, hold and wait.\n\n${'Banker algorithm avoids it. '.repeat(10)}`,
    });
    await core.idle();
    const stored = await core.db.blocks.where('note_id').equals(note.note_id).sortBy('position');
    const listed = await core.api.benchmarks.noteBlocks({ note_id: note.note_id });
    expect(benchmarkNoteBlocksSchema.parse(listed)).toEqual(listed);
    expect(listed).toEqual({
      note_id: note.note_id,
      title: 'Deadlock',
      items: [
        { block_id: stored[0]!.block_id, label: 'Deadlock', type: 'heading', level: 1, answerable: false },
        {
          block_id: stored[1]!.block_id,
          label: 'Coffman conditions: mutual exclusion, hold and wait.',
          type: 'paragraph',
          answerable: true,
        },
        {
          block_id: stored[2]!.block_id,
          label: 'Banker algorithm avoids it. Banker algorithm avoids it. Banker algorithm avoids…',
          type: 'paragraph',
          answerable: true,
        },
      ],
      kept_block_count: 3,
      block_count: 3,
      cut: null,
    });
    // A limit lists the first blocks only, and says how many there are.
    const first = await core.api.benchmarks.noteBlocks({ note_id: note.note_id, limit: 1 });
    expect(first.items.map((item) => item.block_id)).toEqual([stored[0]!.block_id]);
    expect(first).toMatchObject({ kept_block_count: 3, block_count: 3 });
  });

  it('refuses a note that does not exist or is in the trash with RESOURCE_NOT_FOUND', async () => {
    const core = makeCore();
    await expect(core.api.benchmarks.noteBlocks({ note_id: 'note_nowhere' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { note_id: 'note_nowhere' },
    });
    const note = await core.api.notes.create({ title: 'Gone', body: 'Soon in the trash.' });
    await core.api.notes.trash(note.note_id);
    expect(await codeOf(core.api.benchmarks.noteBlocks({ note_id: note.note_id }))).toBe(
      'RESOURCE_NOT_FOUND',
    );
  });

  it('refuses invalid input with VALIDATION_FAILED', async () => {
    const core = makeCore();
    const note = await core.api.notes.create({ title: 'Paging', body: 'A TLB caches page table entries.' });
    for (const input of [
      { note_id: '' },
      { note_id: note.note_id, limit: 0 },
      { note_id: note.note_id, limit: 2.5 },
      { note_id: note.note_id, limit: 1_000_000 },
      { note_id: note.note_id, extra: true },
      {},
    ]) {
      expect(
        await codeOf(
          core.api.benchmarks.noteBlocks(input as Parameters<typeof core.api.benchmarks.noteBlocks>[0]),
        ),
      ).toBe('VALIDATION_FAILED');
    }
  });

  it('lists only the blocks a dataset keeps of a note over the cut, and the counts the dataset reports', async () => {
    const core = makeCore();
    const { body } = overTheCut(560);
    expect(body.length).toBeGreaterThan(MAX_BENCHMARK_NOTE_BODY);
    const log = await core.api.notes.create({ title: 'Log', body });
    await core.idle();
    const stored = await core.db.blocks.where('note_id').equals(log.note_id).sortBy('position');
    const listed = await core.api.benchmarks.noteBlocks({ note_id: log.note_id, limit: 2000 });
    expect(benchmarkNoteBlocksSchema.parse(listed)).toEqual(listed);
    expect(listed.items[1]!.label).toBe('The first paragraph names the quokka.');
    expect(listed.block_count).toBe(stored.length);
    expect(listed.kept_block_count).toBe(listed.items.length);
    expect(listed.kept_block_count).toBeLessThan(stored.length);
    expect(listed.items.map((item) => item.block_id)).toEqual(
      stored.slice(0, listed.kept_block_count).map((block) => block.block_id),
    );
    // The wombat's block lies past the cut: it is not offered.
    const wombat = stored.find((block) => block.text.includes('wombat'))!;
    expect(listed.items.some((item) => item.block_id === wombat.block_id)).toBe(false);

    // The same cut the dataset then reports, and the last block offered makes a valid case.
    const created = await core.api.benchmarks.createDatasetFromNotes({
      dataset_id: 'my-log',
      cases: [{ block_id: listed.items.at(-1)!.block_id, query: 'the last capybara line kept' }],
    });
    expect(listed.cut).toEqual(created.cut_notes[0]);
    expect(listed.cut).toMatchObject({
      kept_block_count: listed.kept_block_count,
      block_count: stored.length,
    });
    // The next block is the first one past the cut: a case on it is refused.
    await expect(
      core.api.benchmarks.createDatasetFromNotes({
        dataset_id: 'my-log-2',
        cases: [{ block_id: stored[listed.kept_block_count]!.block_id, query: 'past the cut' }],
      }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_DATASET_INVALID' });
  });

  it('reads a bounded number of rows however long the note: never its body, never its blocks past the cut or the limit', async () => {
    const { core, rows } = makeCountingCore();
    // Over the cut: 1,500 paragraphs of about 2,000 characters (3 MB), of which a dataset keeps about 500.
    const log = await core.api.notes.create({ title: 'Log', body: overTheCut(1500).body });
    // Under the cut, in many blocks: 4,000 short lines.
    const lines = await core.api.notes.create({
      title: 'Lines',
      body: Array.from({ length: 4000 }, (_, index) => `Line ${index}.`).join('\n\n'),
    });
    await core.idle();
    const stored = await core.db.blocks.where('note_id').equals(log.note_id).sortBy('position');
    const logBlocks = stored.length;
    /** The blocks whose text reaches the cut, the one crossing it included. */
    let upToCut = 0;
    for (let chars = 0; chars <= MAX_BENCHMARK_NOTE_BODY; upToCut += 1) chars += stored[upToCut]!.text.length;

    // The counter sees a whole-note read: the old picker's (`notes.blocks`) reads every block and the body.
    rows.blocks = 0;
    rows.notes = 0;
    expect(await core.api.notes.blocks(log.note_id)).toHaveLength(logBlocks);
    expect(rows).toEqual({ blocks: logBlocks, notes: 1 });

    rows.blocks = 0;
    rows.notes = 0;
    const listed = await core.api.benchmarks.noteBlocks({ note_id: log.note_id, limit: 50 });
    expect(listed.items).toHaveLength(50);
    expect(listed.block_count).toBe(logBlocks);
    // The blocks up to the cut and the one crossing it; the body is not read.
    expect(rows.notes).toBe(0);
    expect(rows.blocks).toBeGreaterThanOrEqual(listed.kept_block_count);
    expect(rows.blocks).toBeLessThanOrEqual(upToCut + 1);
    expect(rows.blocks).toBeLessThan(logBlocks / 2);

    rows.blocks = 0;
    rows.notes = 0;
    const short = await core.api.benchmarks.noteBlocks({ note_id: lines.note_id, limit: 50 });
    expect(short).toMatchObject({ kept_block_count: 4000, block_count: 4000, cut: null });
    expect(short.items).toHaveLength(50);
    // A note kept whole: only the rows listed.
    expect(rows).toEqual({ blocks: 50, notes: 0 });
  });
});

describe('the isolated database', () => {
  it('is a separately named database, not the user one', async () => {
    const opened: string[] = [];
    const core = makeCore({
      benchmarks: {
        openIsolated: (runId) => {
          const db = new NotesAgentDatabase(`${ISOLATED_DATABASE_PREFIX}${runId}`);
          opened.push(db.name);
          return db;
        },
      },
    });
    await core.api.benchmarks.importDataset(JSON.stringify(SMALL));
    const run = await runSmall(core);
    expect(opened).toEqual([`${ISOLATED_DATABASE_PREFIX}${run.run_id}`]);
    expect(opened[0]).not.toBe(core.db.name);
  });
});

describe('agent benchmark runs', () => {
  it('runs agent-core-v1 on the demo provider through the agent runtime, scored from the traces', async () => {
    const core = makeCore();
    const before = await withMyNote(core);
    const created = await core.api.benchmarks.createAgentRun(DEMO_RUN);
    expect(created).toMatchObject({
      kind: 'agent',
      config_snapshot: { provider_id: 'mock', model: 'mock-1', max_steps: 10 },
    });
    const run = await finished(core, created);
    expect(run.status).toBe('completed');
    const report = await core.api.benchmarks.report(run.run_id);
    const cases = report.cases as AgentCaseResult[];
    expect(cases.map((entry) => [entry.case_id, entry.passed, entry.failure_reason])).toEqual([
      // The demo answers what it cannot do without calling a tool ("the demo only …; choose a model").
      [
        'agent-os-search-001',
        false,
        'expected tools not called: rag.search; citation_required: no note was searched or read successfully',
      ],
      // The write case: tasks.create asked for permission, was allowed inside the copy, and wrote 3 tasks.
      ['agent-os-review-001', true, null],
      [
        'agent-os-note-001',
        false,
        'expected tools not called: rag.search, notes.create; notes_created: expected 1, got 0',
      ],
      ['agent-math-001', false, 'expected tools not called: math.evaluate; answer does not contain "391"'],
      ['agent-tasks-list-001', false, 'expected tools not called: tasks.list'],
    ]);
    expect(cases[1]!.tools_called).toEqual(['rag.search', 'notes.read', 'tasks.create']);
    expect(run.metrics).toMatchObject({
      kind: 'agent',
      task_success_rate: 0.2,
      // Jaccard: only the review case called any (all of its expected) tools.
      tool_selection_accuracy: 1 / 5,
      // Per case: the four that called no expected tool score 0, not left out (§9.7).
      tool_argument_accuracy: 1 / 5,
      invalid_tool_call_rate: 0,
      average_steps: (1 + 4 + 1 + 1 + 1) / 5,
      case_count: 5,
    });
    // A failed case opens its trace, kept with the run after its database is gone.
    const trace = await core.api.benchmarks.caseTrace(run.run_id, 'agent-os-review-001');
    expect(trace[0]).toMatchObject({ event: 'RunStarted', resource_id: cases[1]!.trace_run_id });
    expect(trace.map((event) => event.event)).toContain('PermissionResolved');
    expect(trace.at(-1)?.event).toBe('RunCompleted');
    await expect(core.api.benchmarks.caseTrace(run.run_id, 'nope')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    // Writes landed only in the run's own database: the user's notebook is as it was.
    await expectUntouched(core, before);
    expect((await core.api.benchmarks.list({ kind: 'agent' })).items.map((item) => item.run_id)).toEqual([
      run.run_id,
    ]);
  });

  it('rejects an unavailable provider, a RAG dataset and a skill with BENCHMARK_CONFIG_INVALID', async () => {
    const core = makeCore();
    const base = DEMO_RUN;
    await expect(
      core.api.benchmarks.createAgentRun({ ...base, provider_id: 'openai' }),
    ).rejects.toMatchObject(configInvalid({ field: 'provider_id' }));
    await expect(
      core.api.benchmarks.createAgentRun({ ...base, dataset_id: 'rag-core-v1' }),
    ).rejects.toMatchObject(configInvalid({ field: 'dataset_id' }));
    await expect(core.api.benchmarks.createAgentRun({ ...base, skill_id: 'review' })).rejects.toMatchObject(
      configInvalid({ field: 'skill_id' }),
    );
    await expect(core.api.benchmarks.createAgentRun({ ...base, max_steps: 0 })).rejects.toMatchObject(
      configInvalid({ field: 'max_steps' }),
    );
    await expect(
      core.api.benchmarks.createAgentRun({ ...base, dataset_id: 'missing' }),
    ).rejects.toMatchObject({
      code: 'BENCHMARK_DATASET_NOT_FOUND',
    });
  });

  it('cancels mid-run after the first case and cleans up', async () => {
    // The first case has ended (the clock's second reading): cancel before the second starts.
    const clock = cancellingAt(2);
    const core = makeCore({ benchmarks: { latencyClock: clock.latencyClock } });
    const run = await core.api.benchmarks.createAgentRun(DEMO_RUN);
    clock.cancelWith(() => void core.api.benchmarks.cancel(run.run_id));
    await expectCancelledMidway(core, run, 5);
  });
});

/** An OpenAI-compatible host that plays the scripted tool-using model; it answers 429 once first. */
function scriptedProvider() {
  const chats: string[] = [];
  let limited = false;
  const fetch = fakeHost((body, url) => {
    chats.push(url.host);
    if (!limited) {
      limited = true;
      return Response.json(
        { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
        { status: 429, headers: { 'Retry-After': '0' } },
      );
    }
    return eventStream(agentScriptStream(body));
  });
  return { fetch, chats };
}

/** A core with the provider `local` at the scripted host (no waits between the router's retries). */
async function coreOn(
  remote: { fetch: typeof globalThis.fetch },
  provider: { display_name?: string; api_key?: string; enabled?: boolean } = {},
): Promise<TestCore> {
  const core = makeCore({ providers: { fetch: remote.fetch, router: { sleep: async () => undefined } } });
  await core.api.providers.create({
    provider_id: 'local',
    preset: 'custom',
    base_url: 'http://script.test/v1',
    default_model: 'script-model',
    ...provider,
  });
  return core;
}

/** Two cases the scripted model can pass only by calling its tools: one expects its 3 tasks, one 1. */
const SCRIPTED = scriptedAgentDataset(
  'scripted-agent-v1',
  'one note, a write case that passes and one that cannot',
  {
    citationRequired: true,
  },
);

describe('agent benchmark runs on a configured provider', () => {
  it('runs the dataset through the OpenAI-compatible provider (router retries included) in its own database', async () => {
    const remote = scriptedProvider();
    const core = await coreOn(remote, { display_name: 'Local', api_key: 'sk-local-0123456789' });
    const before = await withMyNote(core);
    await core.api.benchmarks.importDataset(JSON.stringify(SCRIPTED));

    const created = await core.api.benchmarks.createAgentRun({
      dataset_id: 'scripted-agent-v1',
      provider_id: 'local',
      model: 'script-model',
    });
    expect(created.config_snapshot).toMatchObject({ provider_id: 'local', model: 'script-model' });
    const run = await finished(core, created);
    expect(run.status).toBe('completed');

    const cases = (await core.api.benchmarks.report(run.run_id)).cases as AgentCaseResult[];
    expect(cases.map((entry) => [entry.case_id, entry.passed, entry.failure_reason])).toEqual([
      ['tasks-3', true, null],
      ['tasks-1', false, 'tasks_created: expected 1, got 3'],
    ]);
    for (const entry of cases) {
      expect(entry).toMatchObject({
        status: 'completed',
        tools_called: ['rag.search', 'notes.read', 'tasks.create'],
        tool_calls: 3,
        invalid_tool_calls: 0,
        steps: 4,
        // Four model calls of 140 tokens each, as the scripted server reported them.
        token_usage: 560,
      });
    }
    // One 429 retried, then four model calls per case, all to the configured host.
    expect(remote.chats).toEqual(Array.from({ length: 9 }, () => 'script.test'));

    // The metrics are those of the traces: each case's trace shows the provider it ran on.
    expect(run.metrics).toMatchObject({
      kind: 'agent',
      task_success_rate: 0.5,
      tool_selection_accuracy: 1,
      tool_argument_accuracy: 1,
      invalid_tool_call_rate: 0,
      average_steps: 4,
      average_token_usage: 560,
      case_count: 2,
    });
    for (const entry of cases) {
      const trace: EventEnvelope[] = await core.api.benchmarks.caseTrace(run.run_id, entry.case_id);
      expect(trace[0]).toMatchObject({ event: 'RunStarted', resource_id: entry.trace_run_id });
      const toolCalls = trace.filter((event) => event.event === 'ToolCall');
      expect(toolCalls.map((event) => (event.data as { name: string }).name)).toEqual(entry.tools_called);
      const models = trace.filter((event) => event.event === 'ModelCallStarted').map((event) => event.data);
      expect(models).toHaveLength(entry.steps);
      for (const data of models) expect(data).toMatchObject({ provider_id: 'local', model: 'script-model' });
      expect(trace.at(-1)).toMatchObject({ event: 'RunCompleted', data: { output: SCRIPT_ANSWER } });
    }

    // The tasks went into the run's copy only: the user's notebook is as it was.
    await expectUntouched(core, before);
  });

  it('keeps mock on the demo and refuses a disabled provider with BENCHMARK_CONFIG_INVALID', async () => {
    const remote = scriptedProvider();
    const core = await coreOn(remote, { enabled: false });
    await expect(
      core.api.benchmarks.createAgentRun({ dataset_id: 'agent-core-v1', provider_id: 'local', model: 'm' }),
    ).rejects.toMatchObject(configInvalid({ field: 'provider_id', cause: 'PROVIDER_UNAVAILABLE' }));
    const run = await finished(core, await core.api.benchmarks.createAgentRun(DEMO_RUN));
    expect(run).toMatchObject({ status: 'completed', metrics: { task_success_rate: 0.2 } });
    expect(remote.chats).toEqual([]);
  });
});

/**
 * An OpenAI-compatible host playing the scripted model without a 429 first.
 * `tokensPerCall` is the usage it reports per call; `failPrompt` is the
 * case prompt it answers with a 400; `gate` holds each chat
 * request until it resolves (or the request is aborted); `requests` resolves
 * once that many chat requests are waiting at once.
 */
function agentHost(options: { tokensPerCall?: number; gate?: Promise<void>; failPrompt?: string } = {}) {
  const prompts: string[] = [];
  let waiting = 0;
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  const fetch = fakeHost(async (body, _url, signal) => {
    const prompt = body.messages.find((message) => message.role === 'user')?.content ?? '';
    prompts.push(prompt);
    if (prompt === options.failPrompt) {
      return Response.json(
        { error: { message: 'The model is misconfigured', type: 'invalid_request_error' } },
        { status: 400 },
      );
    }
    if (options.gate) {
      waiting += 1;
      for (const watcher of watchers) if (waiting >= watcher.count) watcher.resolve();
      try {
        await Promise.race([options.gate, untilAborted(signal)]);
      } finally {
        waiting -= 1;
      }
    }
    let stream = agentScriptStream(body);
    if (options.tokensPerCall !== undefined) {
      const total = options.tokensPerCall;
      stream = stream.replaceAll(
        '"prompt_tokens":120,"completion_tokens":20,"total_tokens":140',
        `"prompt_tokens":${total - 20},"completion_tokens":20,"total_tokens":${total}`,
      );
    }
    return eventStream(stream);
  });
  const requests = (count: number) =>
    new Promise<void>((resolve) => {
      if (waiting >= count) resolve();
      else watchers.push({ count, resolve });
    });
  return { fetch, prompts, requests };
}

const SCRIPTED_RUN = { dataset_id: 'scripted-agent-v1', provider_id: 'local', model: 'script-model' };

/** The CaseResult events of a run, by case id, in the order they were published. */
async function publishedCases(core: TestCore, runId: string): Promise<string[]> {
  return (await core.api.benchmarks.events(runId)).items
    .filter((item) => item.event === 'CaseResult')
    .map((item) => (item.data as AgentCaseResult).case_id);
}

describe('agent benchmark runs: concurrency and the token budget', () => {
  it('runs cases concurrently, each lane in its own copy, and reports them in case order', async () => {
    // Every chat request waits until two are waiting: run one at a time, the first case would wait forever.
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const remote = agentHost({ gate });
    void remote.requests(2).then(open);
    const core = await coreOn(remote);
    const before = await withMyNote(core);
    await core.api.benchmarks.importDataset(JSON.stringify(SCRIPTED));
    const run = await finished(
      core,
      await core.api.benchmarks.createAgentRun({ ...SCRIPTED_RUN, concurrency: 2 }),
    );
    expect(run).toMatchObject({ status: 'completed', config_snapshot: { concurrency: 2 } });
    expect(new Set(remote.prompts.slice(0, 2))).toEqual(
      new Set(['deadlock review tasks', 'deadlock one task']),
    );
    const cases = (await core.api.benchmarks.report(run.run_id)).cases as AgentCaseResult[];
    // Each lane has its own notebook: the one-task case counts its own 3 tasks, not the other case's too.
    expect(cases.map((entry) => [entry.case_id, entry.passed, entry.failure_reason])).toEqual([
      ['tasks-3', true, null],
      ['tasks-1', false, 'tasks_created: expected 1, got 3'],
    ]);
    expect(await publishedCases(core, run.run_id)).toEqual(['tasks-3', 'tasks-1']);
    expect(run.metrics).toMatchObject({ task_success_rate: 0.5, case_count: 2 });
    await expectUntouched(core, before);
  });

  it('records concurrency 1 by default and refuses one outside 1..8', async () => {
    const core = makeCore();
    const run = await core.api.benchmarks.createAgentRun(DEMO_RUN);
    expect(run.config_snapshot).toMatchObject({ concurrency: 1 });
    for (const concurrency of [0, 9, 1.5]) {
      await expect(core.api.benchmarks.createAgentRun({ ...DEMO_RUN, concurrency })).rejects.toMatchObject(
        configInvalid({ field: 'concurrency' }),
      );
    }
    await core.idle();
    expect((await core.api.benchmarks.list()).page.total).toBe(1);
  });

  it('cancel stops every case in flight, publishes no metrics and deletes every lane', async () => {
    const remote = agentHost({ gate: new Promise<void>(() => undefined) });
    const core = await coreOn(remote);
    const before = await withMyNote(core);
    await core.api.benchmarks.importDataset(JSON.stringify(SCRIPTED));
    const run = await core.api.benchmarks.createAgentRun({ ...SCRIPTED_RUN, concurrency: 2 });
    await remote.requests(2);
    await core.api.benchmarks.cancel(run.run_id);
    const done = await finished(core, run);
    expect(done).toMatchObject({ status: 'cancelled', metrics: null });
    expect((await core.api.benchmarks.report(run.run_id)).cases).toEqual([]);
    expect((await core.api.benchmarks.events(run.run_id)).items.at(-1)?.event).toBe('Cancelled');
    // Both model calls were cut off; nothing else was asked.
    expect(remote.prompts).toHaveLength(2);
    await expectUntouched(core, before);
  });

  it('a case whose model answers an error fails alone; the others run and the order holds', async () => {
    const remote = agentHost({ failPrompt: 'deadlock review tasks' });
    const core = await coreOn(remote);
    await core.api.benchmarks.importDataset(JSON.stringify(SCRIPTED));
    const run = await finished(
      core,
      await core.api.benchmarks.createAgentRun({ ...SCRIPTED_RUN, concurrency: 2 }),
    );
    expect(run.status).toBe('completed');
    const cases = (await core.api.benchmarks.report(run.run_id)).cases as AgentCaseResult[];
    expect(cases.map((entry) => [entry.case_id, entry.status, entry.tools_called])).toEqual([
      ['tasks-3', 'failed', []],
      ['tasks-1', 'completed', ['rag.search', 'notes.read', 'tasks.create']],
    ]);
    expect(cases[0]!.failure_reason).toMatch(/^run failed \(PROVIDER_[A-Z_]+: /u);
    expect(await publishedCases(core, run.run_id)).toEqual(['tasks-3', 'tasks-1']);
  });

  it('a case whose model is gone before its loop starts is a failed case, not a run that waits forever', async () => {
    const demo = demoAdapterFactory();
    let calls = 0;
    // Call 1 checks the run; the first case asks at its start (2) and again in its job (3).
    const agentAdapters: AgentAdapterFactory = async (choice) => {
      calls += 1;
      if (calls === 3) throw new AppError('PROVIDER_UNAVAILABLE', 'The model went away.');
      return demo(choice);
    };
    const core = makeCore({ agentAdapters });
    const run = await finished(core, await core.api.benchmarks.createAgentRun(DEMO_RUN));
    expect(run).toMatchObject({ status: 'completed', metrics: { case_count: 5 } });
    const cases = (await core.api.benchmarks.report(run.run_id)).cases as AgentCaseResult[];
    expect(cases[0]).toMatchObject({
      case_id: 'agent-os-search-001',
      status: 'failed',
      passed: false,
      steps: 0,
    });
    expect(cases[0]!.failure_reason).toMatch(/^run failed \(PROVIDER_UNAVAILABLE: The model went away\.\)/u);
    expect(cases[1]).toMatchObject({ case_id: 'agent-os-review-001', passed: true });
  });

  it('fails the run with BENCHMARK_RUN_FAILED when cases cannot start, deleting every lane', async () => {
    const demo = demoAdapterFactory();
    let calls = 0;
    const agentAdapters: AgentAdapterFactory = async (choice) => {
      calls += 1;
      if (calls > 1) throw new Error('the adapter crashed');
      return demo(choice);
    };
    const core = makeCore({ agentAdapters });
    const before = await withMyNote(core);
    const run = await finished(
      core,
      await core.api.benchmarks.createAgentRun({ ...DEMO_RUN, concurrency: 2 }),
    );
    expect(run).toMatchObject({ status: 'failed', metrics: null, error: { code: 'BENCHMARK_RUN_FAILED' } });
    expect(await publishedCases(core, run.run_id)).toEqual([]);
    await expectUntouched(core, before);
  });

  it('stops a case mid-run when it spends its token budget and records it as failed with the reason', async () => {
    // Each model call reports 4990 tokens: the budget of 5000 allows the first call, not a second.
    const remote = agentHost({ tokensPerCall: 4990 });
    const core = await coreOn(remote);
    await core.api.benchmarks.importDataset(JSON.stringify(SCRIPTED));
    const run = await finished(
      core,
      await core.api.benchmarks.createAgentRun({ ...SCRIPTED_RUN, token_budget: 5000 }),
    );
    expect(run).toMatchObject({ status: 'completed', config_snapshot: { token_budget: 5000 } });
    const cases = (await core.api.benchmarks.report(run.run_id)).cases as AgentCaseResult[];
    for (const entry of cases) {
      expect(entry).toMatchObject({
        passed: false,
        status: 'failed',
        tools_called: ['rag.search'],
        token_usage: 4990,
      });
      expect(entry.failure_reason).toMatch(
        /^token budget exceeded: the run was stopped at 4990 of 5000 tokens; expected tools not called: notes.read, tasks.create; tasks_created: expected \d, got 0/u,
      );
      const trace = await core.api.benchmarks.caseTrace(run.run_id, entry.case_id);
      expect(trace.at(-1)).toMatchObject({ event: 'RunFailed', data: { reason: 'token_budget' } });
      expect(trace.filter((event) => event.event === 'ModelCallStarted')).toHaveLength(1);
    }
    // One model call per case instead of four: the runtime stopped each before its second.
    expect(remote.prompts).toHaveLength(2);
    expect(run.metrics).toMatchObject({ task_success_rate: 0, average_token_usage: 4990 });
  });
});

/** A host whose model answers every request with `content`, recording the request bodies. */
function answeringHost(content: string, status = 200) {
  const bodies: Array<Record<string, unknown>> = [];
  const fetch = fakeHost((body) => {
    bodies.push(body as unknown as Record<string, unknown>);
    if (status !== 200) {
      return Response.json({ error: { message: 'Bad request', type: 'invalid_request_error' } }, { status });
    }
    return eventStream(answerStream(content));
  });
  return { fetch, bodies };
}

const PROPOSAL_RUN = { provider_id: 'local', model: 'script-model' };

describe('"benchmark my notes": questions proposed for headings', () => {
  /** Two notes of the user's: one with two headings (one empty), one without any. */
  async function notesWithHeadings(core: TestCore) {
    const os = await core.api.notes.create({
      title: 'OS',
      body: '# Deadlock\n\nFour conditions must hold at once.\n\n## Empty\n\n## 页表\n\nTLB 缓存页表项。',
      folder: '',
      tags: [],
    });
    await core.api.notes.create({ title: 'Plain', body: 'No headings here.', folder: '', tags: [] });
    await core.idle();
    const blocks = await core.db.blocks.where('note_id').equals(os.note_id).sortBy('position');
    return { os, blocks };
  }

  it('asks the chosen model once, by JSON schema, and returns one question per section to accept', async () => {
    const answer = JSON.stringify({
      questions: [
        { section: 1, question: 'What must hold for a deadlock?' },
        { section: 2, question: '什么缓存页表项?' },
      ],
    });
    const remote = answeringHost(answer);
    const core = await coreOn(remote);
    const { os, blocks } = await notesWithHeadings(core);
    const before = await notebook(core);
    const { items } = await core.api.benchmarks.proposeQuestions(PROPOSAL_RUN);
    const paragraph = (text: string) => blocks.find((block) => block.text === text)!.block_id;
    expect(items).toEqual([
      {
        note_id: os.note_id,
        note_title: 'OS',
        heading: 'Deadlock',
        block_id: paragraph('Four conditions must hold at once.'),
        query: 'What must hold for a deadlock?',
      },
      {
        note_id: os.note_id,
        note_title: 'OS',
        heading: '页表',
        block_id: paragraph('TLB 缓存页表项。'),
        query: '什么缓存页表项?',
      },
    ]);
    expect(remote.bodies).toHaveLength(1);
    expect(remote.bodies[0]).toMatchObject({
      model: 'script-model',
      response_format: { type: 'json_schema', json_schema: { name: 'heading_questions' } },
    });
    // Only the sections went to the model: the headingless note did not.
    expect(JSON.stringify(remote.bodies[0])).not.toContain('No headings here.');
    expect(await notebook(core)).toEqual(before);
    // Accepted as they are, they make a dataset that runs.
    const dataset = await core.api.benchmarks.createDatasetFromNotes({
      dataset_id: 'my-headings',
      cases: items.map((item) => ({ block_id: item.block_id, query: item.query })),
    });
    expect(dataset).toMatchObject({ case_count: 2, source: 'imported' });
  });

  it('asks nothing when the chosen notes have no sections, and limits the headings asked about', async () => {
    const remote = answeringHost(JSON.stringify({ questions: [{ section: 1, question: 'Why?' }] }));
    const core = await coreOn(remote);
    const plain = await core.api.notes.create({ title: 'Plain', body: 'Just text.', folder: '', tags: [] });
    await notesWithHeadings(core);
    expect(
      await core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, note_ids: [plain.note_id] }),
    ).toEqual({
      items: [],
    });
    expect(remote.bodies).toEqual([]);
    const { items } = await core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, limit: 1 });
    expect(items.map((item) => item.heading)).toEqual(['Deadlock']);
    expect(JSON.stringify(remote.bodies[0])).not.toContain('TLB');
  });

  it('refuses a bad request, an unknown note and a disabled provider', async () => {
    const remote = answeringHost('{}');
    const core = await coreOn(remote);
    await expect(core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, limit: 0 })).rejects.toMatchObject(
      configInvalid({ field: 'limit' }),
    );
    await expect(
      core.api.benchmarks.proposeQuestions({ provider_id: 'local' } as typeof PROPOSAL_RUN),
    ).rejects.toMatchObject(configInvalid({ field: 'model' }));
    await expect(
      core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, note_ids: ['note_missing'] }),
    ).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { note_id: 'note_missing' } });
    const disabled = await coreOn(remote, { enabled: false });
    await expect(disabled.api.benchmarks.proposeQuestions(PROPOSAL_RUN)).rejects.toMatchObject(
      configInvalid({ field: 'provider_id', cause: 'PROVIDER_UNAVAILABLE' }),
    );
    expect(remote.bodies).toEqual([]);
  });

  it('answers BENCHMARK_RUN_FAILED when the model answers prose or fails', async () => {
    const prose = await coreOn(answeringHost('Sure! Here are some questions you could ask.'));
    await notesWithHeadings(prose);
    await expect(prose.api.benchmarks.proposeQuestions(PROPOSAL_RUN)).rejects.toMatchObject({
      code: 'BENCHMARK_RUN_FAILED',
      details: { reason: 'invalid_answer' },
    });
    const failing = await coreOn(answeringHost('', 400));
    await notesWithHeadings(failing);
    await expect(failing.api.benchmarks.proposeQuestions(PROPOSAL_RUN)).rejects.toMatchObject({
      code: 'BENCHMARK_RUN_FAILED',
      details: { provider_id: 'local' },
    });
  });
});

/** A host whose model holds every request until it is aborted; `requested` resolves on the first. */
function holdingHost() {
  let seen: () => void = () => undefined;
  const requested = new Promise<void>((resolve) => (seen = resolve));
  const aborted: boolean[] = [];
  const fetch = fakeHost(async (_body, _url, signal) => {
    seen();
    try {
      return await untilAborted(signal);
    } finally {
      aborted.push(signal?.aborted ?? false);
    }
  });
  return { fetch, requested, aborted };
}

describe('"benchmark my notes": cancelling a proposal', () => {
  async function headings(core: TestCore): Promise<void> {
    await core.api.notes.create({
      title: 'OS',
      body: '# Deadlock\n\nFour conditions.',
      folder: '',
      tags: [],
    });
    await core.idle();
  }

  it('cancels a proposal waiting on its model: the call fails with JOB_CANCELLED and nothing is kept', async () => {
    const remote = holdingHost();
    const core = await coreOn(remote);
    await headings(core);
    const before = await notebook(core);
    const datasets = await core.api.benchmarks.listDatasets();
    const proposal = core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'p-1' });
    const outcome = proposal.then(
      () => null,
      (error: unknown) => error,
    );
    await remote.requested;
    expect(await core.api.benchmarks.cancelProposal('p-1')).toEqual({
      proposal_id: 'p-1',
      status: 'cancelling',
    });
    expect(await outcome).toMatchObject({ code: 'JOB_CANCELLED', details: { proposal_id: 'p-1' } });
    // The model's request itself was aborted, not left running.
    expect(remote.aborted).toEqual([true]);
    expect(await notebook(core)).toEqual(before);
    expect(await core.api.benchmarks.listDatasets()).toEqual(datasets);
    // Settled, the id names nothing any more.
    await expect(core.api.benchmarks.cancelProposal('p-1')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { proposal_id: 'p-1' },
    });
  });

  it('refuses a bad id, an unknown proposal, a second proposal with a running id and a second cancel', async () => {
    const remote = holdingHost();
    const core = await coreOn(remote);
    await headings(core);
    await expect(core.api.benchmarks.cancelProposal('')).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'has spaces' }),
    ).rejects.toMatchObject(configInvalid({ field: 'proposal_id' }));
    await expect(core.api.benchmarks.cancelProposal('p-unknown')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    const outcome = core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'p-2' }).then(
      () => null,
      (error: unknown) => error,
    );
    await remote.requested;
    await expect(
      core.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'p-2' }),
    ).rejects.toMatchObject({ code: 'STATE_CONFLICT', details: { proposal_id: 'p-2' } });
    const first = core.api.benchmarks.cancelProposal('p-2');
    const second = core.api.benchmarks.cancelProposal('p-2');
    expect(await first).toMatchObject({ status: 'cancelling' });
    await expect(second).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
    expect(await outcome).toMatchObject({ code: 'JOB_CANCELLED' });
    // The refused duplicate sent nothing: one request, aborted.
    expect(remote.aborted).toEqual([true]);
  });

  it('a failed proposal keeps its failure code and frees its id', async () => {
    const failing = await coreOn(answeringHost('', 400));
    await headings(failing);
    await expect(
      failing.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'p-3' }),
    ).rejects.toMatchObject({ code: 'BENCHMARK_RUN_FAILED', details: { provider_id: 'local' } });
    await expect(failing.api.benchmarks.cancelProposal('p-3')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    const answer = JSON.stringify({ questions: [{ section: 1, question: 'What must hold?' }] });
    const working = await coreOn(answeringHost(answer));
    await headings(working);
    const { items } = await working.api.benchmarks.proposeQuestions({ ...PROPOSAL_RUN, proposal_id: 'p-3' });
    expect(items.map((item) => item.query)).toEqual(['What must hold?']);
  });

  it('stops at an in-process signal, before asking when it is already aborted', async () => {
    const remote = holdingHost();
    const core = await coreOn(remote);
    await headings(core);
    const early = new AbortController();
    early.abort();
    await expect(core.api.benchmarks.proposeQuestions(PROPOSAL_RUN, early.signal)).rejects.toMatchObject({
      code: 'JOB_CANCELLED',
    });
    expect(remote.aborted).toEqual([]);
    const controller = new AbortController();
    const outcome = core.api.benchmarks.proposeQuestions(PROPOSAL_RUN, controller.signal).then(
      () => null,
      (error: unknown) => error,
    );
    await remote.requested;
    controller.abort();
    expect(await outcome).toMatchObject({ code: 'JOB_CANCELLED', details: { proposal_id: null } });
    expect(remote.aborted).toEqual([true]);
  });
});

describe('RAG runs with concurrency', () => {
  it('searches up to N cases at a time with the same results, and records N in the snapshot', async () => {
    const core = await smallCore();
    const one = await runSmall(core);
    const two = await runSmall(core, { concurrency: 2 });
    expect(two.status).toBe('completed');
    expect(one.config_snapshot.concurrency).toBe(1);
    expect(two.config_snapshot.concurrency).toBe(2);
    const ranks = async (runId: string) =>
      ((await core.api.benchmarks.report(runId)).cases as RagCaseResult[]).map((entry) => [
        entry.case_id,
        entry.first_hit_rank,
      ]);
    expect(await ranks(two.run_id)).toEqual(await ranks(one.run_id));
  });

  it('refuses a concurrency outside 1..8 with the field named', async () => {
    const core = await smallCore();
    for (const concurrency of [0, 9, 1.5]) {
      await expect(
        core.api.benchmarks.createRagRun({ dataset_id: 'small-v1', modes: ['fts'], concurrency }),
      ).rejects.toMatchObject(configInvalid({ field: 'concurrency' }));
    }
    expect((await core.api.benchmarks.list()).page.total).toBe(0);
  });
});

describe('reports: comparison and export', () => {
  it('compares two runs case by case and exports JSON and CSV', async () => {
    const core = await smallCore();
    const fts = await runSmall(core);
    // The same dataset with the apple case made harder: its block now ranks below another.
    const harder: RagDatasetFile = {
      ...SMALL,
      notes: [
        ...SMALL.notes,
        { note_id: 'n4', title: 'four', folder: '', tags: [], body: 'Apple apple apple.' },
      ],
    };
    await core.api.benchmarks.importDataset(JSON.stringify(harder));
    const second = await runSmall(core);
    const comparison = await core.api.benchmarks.compare(fts.run_id, second.run_id);
    expect(
      comparison.items.map((item) => [item.case_id, item.baseline, item.candidate, item.change]),
    ).toEqual([
      ['c-apple', 'rank 1', 'rank 2', 'worse'],
      ['c-cherry', 'rank 2', 'rank 2', 'same'],
      ['c-none', 'miss', 'miss', 'same'],
    ]);
    expect(comparison.counts).toEqual({ better: 0, worse: 1, same: 2, added: 0, removed: 0 });

    const csv = await core.api.benchmarks.exportReport(fts.run_id, 'csv');
    expect(csv.mime_type).toBe('text/csv');
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'case_id,mode,repeat,query,expected_block_ids,first_hit_rank,passed,failure_reason,latency_ms,ranked_block_ids',
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/^c-none,fts,1,zzzqqq,n2#0,,false,no results,/);
    const json = await core.api.benchmarks.exportReport(fts.run_id, 'json');
    expect(JSON.parse(json.text)).toEqual(await core.api.benchmarks.report(fts.run_id));
    await expect(core.api.benchmarks.exportReport(fts.run_id, 'xml' as 'csv')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(core.api.benchmarks.compare(fts.run_id, 'benchmark_missing')).rejects.toMatchObject({
      code: 'BENCHMARK_RUN_NOT_FOUND',
    });
  });
});
