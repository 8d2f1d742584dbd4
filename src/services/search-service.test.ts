import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AppError,
  INDEX_REBUILD_JOB_KIND,
  INDEX_UPDATE_JOB_KIND,
  type EventEnvelope,
  type SearchResultDto,
} from '../contracts';
import { IndexRepository, NotesAgentDatabase, NotesRepository } from '../db';
import { SEGMENT_STORE_FORMAT } from '../db/index-repository';
import {
  DEFAULT_RETRIEVAL_PROFILE,
  FULL_TEXT_SEGMENT_FORMAT,
  FullTextIndex,
  HASH_EMBEDDER_INFO,
  hashEmbed,
  type Embedder,
  type EmbeddingModelInfo,
  type Reranker,
} from '../retrieval';
import { PRUNE_FINISHED_EVERY } from '../core/job-runtime';
import { KEEP_FINISHED_UPDATE_JOBS } from '../retrieval/search-indexer';
import { closeCore, restartableCores } from './test-core';
import { codeOf } from './test-error-code';

/** hash-v1 vectors under any model info, counting what it embeds; `hold()` makes it wait. */
class TestEmbedder implements Embedder {
  texts = 0;
  #gate: Promise<void> | null = null;
  #release: (() => void) | null = null;
  #blocked: Array<() => void> = [];

  constructor(readonly info: EmbeddingModelInfo = HASH_EMBEDDER_INFO) {}

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<Float32Array[]> {
    this.texts += texts.length;
    if (this.#gate) {
      this.#blocked.splice(0).forEach((resolve) => resolve());
      await this.#gate;
    }
    options.signal?.throwIfAborted();
    return texts.map((text) => hashEmbed(text, this.info.dimension));
  }

  /** Later calls wait until `release()`; resolves when one is waiting. */
  hold(): Promise<void> {
    this.#gate = new Promise((resolve) => (this.#release = resolve));
    return new Promise((resolve) => this.#blocked.push(resolve));
  }

  release(): void {
    this.#gate = null;
    this.#release?.();
  }
}

const OTHER_MODEL: EmbeddingModelInfo = {
  model_id: 'test-other',
  model_version: '1',
  dimension: 64,
  normalization: 'l2',
};

const cores = restartableCores();
/** A core over a fresh database, or over the same database again (a restart). */
const openCore = cores.open;

afterEach(async () => {
  await cores.closeAll();
  vi.restoreAllMocks();
});

const noteIdsOf = (result: SearchResultDto) => result.hits.map((hit) => hit.note_id);

interface Write {
  table: string;
  type: string;
  /** The note ids of the rows put or deleted (search_segments); -1 for a range delete. */
  notes: Array<string | number>;
}

/**
 * Records every write that reaches IndexedDB (a Dexie middleware, below any
 * cache), and fails the next write to `failOn.table` when set, which aborts
 * its transaction as a crash would.
 */
function recordWrites(db: NotesAgentDatabase) {
  const writes: Write[] = [];
  const control: { failOn: string | null; onFail?: () => void } = { failOn: null };
  db.use({
    stack: 'dbcore',
    name: 'record-writes',
    create: (down) => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        return {
          ...table,
          mutate: (request) => {
            if (control.failOn === name) {
              control.onFail?.();
              return Promise.reject(new Error(`simulated crash writing ${name}`));
            }
            const notes =
              request.type === 'put' || request.type === 'add'
                ? request.values.map((value: { note_id?: string }) => value.note_id ?? '?')
                : request.type === 'delete'
                  ? request.keys.map((key: unknown) => (Array.isArray(key) ? String(key[1]) : String(key)))
                  : [-1];
            writes.push({ table: name, type: request.type, notes });
            return table.mutate(request);
          },
        };
      },
    }),
  });
  return { writes, control };
}

/** The note ids each indexSources call asked for, from now on. */
function watchIndexing() {
  const spy = vi.spyOn(NotesRepository.prototype, 'indexSources');
  return () => spy.mock.calls.flatMap(([ids]) => [...ids]).sort();
}

const OS_NOTE = {
  title: '操作系统笔记',
  folder: '课程/操作系统',
  tags: ['os'],
  body: '# 第三章\n\n进程调度决定下一个运行的进程，常见算法有时间片轮转。\n\n死锁需要四个必要条件。',
};
const COOKING_NOTE = {
  title: 'Cooking',
  folder: 'home',
  tags: ['food'],
  body: 'Braise the pork belly slowly for an hour.\n\nScheduling dinner: start the rice first.',
};

describe('SearchService', () => {
  it('finds a new note at once, with title, folder, block, snippet and highlights', async () => {
    const { api } = openCore();
    const os = await api.notes.create(OS_NOTE);
    await api.notes.create(COOKING_NOTE);

    const result = await api.search.search({ query: '进程调度' });
    expect(result).toMatchObject({ mode: 'fts', mode_used: 'fts', fallback_reason: null });
    const [hit] = result.hits;
    const blocks = await api.notes.blocks(os.note_id);
    const paragraph = blocks.find((block) => block.text.startsWith('进程调度'))!;
    expect(hit).toMatchObject({
      note_id: os.note_id,
      block_id: paragraph.block_id,
      title: '操作系统笔记',
      folder: '课程/操作系统',
      tags: ['os'],
      block_type: 'paragraph',
      start_line: 2,
      fts_rank: 1,
    });
    const marked = hit!.highlights.map((range) => hit!.snippet.slice(range.start, range.end));
    expect(marked.join('')).toContain('进程调度');

    const english = await api.search.search({ query: 'pork belly', mode: 'hybrid' });
    expect(english.hits[0]?.title).toBe('Cooking');
    expect((await api.search.search({ query: '   ' })).hits).toEqual([]);
  });

  it('follows edits, trash, restore and purge in both indexes', async () => {
    const { api } = openCore();
    const note = await api.notes.create({ title: 'Kernel', body: 'The scheduler picks the next task.' });
    const find = async (query: string, mode: 'fts' | 'vector' = 'fts') =>
      noteIdsOf(await api.search.search({ query, mode }));

    expect(await find('scheduler')).toEqual([note.note_id]);
    expect(await find('scheduler picks the next task', 'vector')).toEqual([note.note_id]);

    await api.notes.update({ note_id: note.note_id, body: 'Interrupts arrive from devices.' });
    expect(await find('interrupts')).toEqual([note.note_id]);
    expect(await find('scheduler')).toEqual([]);
    expect(await find('scheduler picks the next task', 'vector')).toEqual([]);

    await api.notes.trash(note.note_id);
    expect(await find('interrupts')).toEqual([]);
    expect(await find('interrupts arrive from devices', 'vector')).toEqual([]);

    await api.notes.restore(note.note_id);
    expect(await find('interrupts')).toEqual([note.note_id]);

    await api.notes.trash(note.note_id);
    await api.notes.purge(note.note_id);
    expect(await find('interrupts')).toEqual([]);
    const status = await api.search.status();
    expect(status.full_text.block_count).toBe(0);
    expect(status.vector_index?.block_count).toBe(0);
  });

  it('re-indexes in a debounced background job and saves the indexes', async () => {
    // A debounce no test outlives: the update runs when idle() flushes it, never by the clock.
    const core = openCore({ indexDebounceMs: 60_000 });
    const { api } = core;
    // The first start builds the (empty) indexes; then the notes arrive.
    await core.idle();
    await api.notes.create({ title: 'One', body: 'alpha' });
    await api.notes.create({ title: 'Two', body: 'beta' });
    await core.idle();
    const updates = await api.jobs.list({ kind: INDEX_UPDATE_JOB_KIND });
    // Two notes saved within the debounce: one job re-indexed both.
    expect(updates.items.map((job) => [job.status, job.result])).toEqual([
      ['completed', { notes: 2, blocks: 2 }],
    ]);
    const status = await api.search.status();
    expect(status).toMatchObject({ status: 'idle', pending_jobs: 0, pending_notes: 0, error_message: null });
    expect(status.last_completed_at).not.toBeNull();
    expect(await core.db.search_index_dirty.count()).toBe(0);
  });

  it('reranks exactly when a cross-encoder is configured, whatever the base profile says; its failure is the error', async () => {
    const calls: string[][] = [];
    // Prefers the shortest block: the opposite of BM25 here.
    const reranker: Reranker = {
      info: { model_id: 'test-reranker', model_version: '1' },
      async score(_query, texts) {
        calls.push(texts);
        return texts.map((text) => -text.length);
      },
    };
    const long = {
      title: 'Long',
      body: 'scheduler scheduler scheduler: the scheduler runs tasks in a long loop.',
    };
    const short = { title: 'Short', body: 'a scheduler.' };
    // No reranker: a profile asking for reranking gets none, and says so.
    const plain = openCore({ profile: { ...DEFAULT_RETRIEVAL_PROFILE, rerank: true } });
    await plain.api.notes.create(long);
    await plain.api.notes.create(short);
    const unranked = await plain.api.search.search({ query: 'scheduler' });
    expect(unranked.hits.map((hit) => [hit.title, hit.rerank_score])).toEqual([
      ['Long', null],
      ['Short', null],
    ]);
    expect(unranked.reranked_by).toBeNull();

    // A configured reranker turns the default profile's `rerank` on.
    expect(DEFAULT_RETRIEVAL_PROFILE.rerank).toBe(false);
    const reranking = openCore({ reranker });
    await reranking.api.notes.create(long);
    await reranking.api.notes.create(short);
    const result = await reranking.api.search.search({ query: 'scheduler', mode: 'hybrid' });
    expect(result.hits.map((hit) => [hit.title, hit.rerank_score])).toEqual([
      ['Short', -short.body.length],
      ['Long', -long.body.length],
    ]);
    expect(result.reranked_by).toBe('test-reranker');
    expect(calls).toHaveLength(1);

    reranker.score = async () => {
      throw new AppError('EMBEDDING_MODEL_UNAVAILABLE', 'The reranker model failed.', { kind: 'reranker' });
    };
    // A failing reranker does not take search down: the fused order, and why it was not reranked.
    const failed = await reranking.api.search.search({ query: 'scheduler', mode: 'hybrid' });
    expect(failed.hits.map((hit) => [hit.title, hit.rerank_score])).toEqual([
      ['Long', null],
      ['Short', null],
    ]);
    expect(failed.reranked_by).toBeNull();
    expect(failed.rerank_error).toBe('EMBEDDING_MODEL_UNAVAILABLE');
    expect(result.rerank_error).toBeNull();
  });

  it('finds a note that has only a title by its title, in every mode, until it gets text', async () => {
    const { api } = openCore();
    const note = await api.notes.create({ title: 'Quarterly planning 季度计划', body: '' });
    await api.notes.create({ title: 'Groceries', body: 'Milk and planning nothing.' });
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      const result = await api.search.search({ query: 'quarterly', mode });
      expect(result.hits[0]).toMatchObject({
        note_id: note.note_id,
        title: 'Quarterly planning 季度计划',
        block_type: 'title',
        start_line: 0,
      });
    }
    expect(noteIdsOf(await api.search.search({ query: '季度计划' }))).toEqual([note.note_id]);
    // Once the note has text its blocks answer instead, the title still counting.
    await api.notes.update({ note_id: note.note_id, body: 'Budget review.' });
    const hits = (await api.search.search({ query: 'quarterly' })).hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ note_id: note.note_id, block_type: 'paragraph' });
    // An untitled, empty note is not indexed at all.
    await api.notes.create({ title: '', body: '' });
    expect((await api.search.status()).full_text.block_count).toBe(2);
  });

  it('finds a note by a front-matter alias and by its tag, front matter or inline, and forgets a removed alias', async () => {
    const { api } = openCore();
    const deadlock = await api.notes.create({
      title: 'Deadlock',
      // The note's own tags, as an import takes them from the front matter.
      tags: ['os'],
      body: '---\naliases: [死锁]\n---\nFour conditions hold at once.',
    });
    const shell = await api.notes.create({ title: 'Shell', body: 'System calls. #OS' });
    await api.notes.create({ title: 'Mac', body: 'My os is macOS.' });
    expect(noteIdsOf(await api.search.search({ query: '死锁' }))).toEqual([deadlock.note_id]);
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      const tagged = await api.search.search({ query: '#os', mode, group_by: 'note' });
      expect((tagged.groups ?? []).map((group) => group.title)).toEqual(['Deadlock', 'Shell']);
    }
    expect(noteIdsOf(await api.search.search({ query: 'tag:os calls' }))).toEqual([shell.note_id]);
    await api.notes.update({ note_id: deadlock.note_id, body: 'Four conditions hold at once.' });
    expect((await api.search.search({ query: '死锁' })).hits).toEqual([]);
  });

  it("answers a question in a heading's words with the paragraph under it, sent to the model with its heading path", async () => {
    const { api } = openCore();
    const note = await api.notes.create({
      title: 'OS notes',
      body: [
        '# Scheduling',
        '## Round robin',
        'Each process gets a fixed time quantum, then goes to the back of the queue.',
        '## Shortest job first',
        'Needs the length of the next burst in advance.',
        '#os #scheduling',
      ].join('\n\n'),
    });
    const search = await api.search.search({ query: 'round robin' });
    expect(search.hits.map((hit) => hit.snippet)).toEqual([
      'Each process gets a fixed time quantum, then goes to the back of the queue.',
    ]);

    const sources = await api.search.contextSources('How does round robin scheduling work?');
    expect(sources[0]).toMatchObject({
      note_id: note.note_id,
      title: 'OS notes',
      snippet: 'Each process gets a fixed time quantum, then goes to the back of the queue.',
      start_line: 4,
      text: 'Scheduling › Round robin: Each process gets a fixed time quantum, then goes to the back of the queue.',
    });
    // No heading and no line of tags is a source of its own.
    expect(sources.map((source) => source.start_line)).toEqual([4, 8]);
  });

  it('answers a word of a footnote with the claim citing it, shown and sent with the footnote', async () => {
    const { api } = openCore();
    const note = await api.notes.create({
      title: 'Roman concrete',
      body: [
        'Written at the museum.',
        'Harbour concrete grew stronger in seawater.[^1]',
        '[^1]: Jackson et al. 2017: tobermorite crystals in the ash mortar.',
      ].join('\n\n'),
    });
    for (const mode of ['fts', 'vector', 'hybrid'] as const) {
      const search = await api.search.search({ query: 'tobermorite', mode });
      // The claim's block and line, so a citation opens the sentence; the footnote under it.
      expect(
        search.hits.map((hit) => [hit.start_line, hit.snippet]),
        mode,
      ).toEqual([
        [
          2,
          'Harbour concrete grew stronger in seawater.¹\n¹ Jackson et al. 2017: tobermorite crystals in the ash mortar.',
        ],
      ]);
    }
    const sources = await api.search.contextSources('What do we know about tobermorite?');
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ note_id: note.note_id, start_line: 2 });
    expect(sources[0]?.text).toBe(
      'Harbour concrete grew stronger in seawater.[^1]\n\n[^1]: Jackson et al. 2017: tobermorite crystals in the ash mortar.',
    );
  });

  it('keeps only the last few finished index updates, and their events, pruned in batches', async () => {
    const core = openCore({ indexDebounceMs: 1 });
    const { api } = core;
    await core.idle();
    const bound = KEEP_FINISHED_UPDATE_JOBS + PRUNE_FINISHED_EVERY;
    let newest = '';
    // The first update to end prunes, then every PRUNE_FINISHED_EVERY-th; three more end after the last.
    for (let i = 0; i < 1 + PRUNE_FINISHED_EVERY + 3; i++) {
      await api.notes.create({ title: `Note ${i}`, body: `word${i}` });
      await core.idle();
      const stored = (await api.jobs.list({ kind: INDEX_UPDATE_JOB_KIND, limit: 100 })).items;
      // Never more than the bound, and the newest update is always kept.
      expect(stored.length).toBeLessThanOrEqual(bound);
      expect(stored.length).toBeGreaterThanOrEqual(Math.min(i + 1, KEEP_FINISHED_UPDATE_JOBS));
      expect(stored[0]!.job_id).not.toBe(newest);
      newest = stored[0]!.job_id;
    }
    const updates = await api.jobs.list({ kind: INDEX_UPDATE_JOB_KIND, limit: 100 });
    expect(updates.items).toHaveLength(KEEP_FINISHED_UPDATE_JOBS + 3);
    expect(updates.items.every((job) => job.status === 'completed')).toBe(true);
    const jobIds = new Set((await core.db.jobs.toArray()).map((job) => job.job_id));
    const orphans = (await core.db.events.toArray()).filter(
      (event) => event.resource_id.startsWith('job_') && !jobIds.has(event.resource_id),
    );
    expect(orphans).toEqual([]);
    // Every note is still indexed; the rebuild job that built the first index is kept.
    expect((await api.search.search({ query: 'word0' })).hits).toHaveLength(1);
    expect((await api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).items).toHaveLength(1);
  });

  it('indexes imported notes, and drops them when the import is rolled back', async () => {
    const core = openCore();
    const { api } = core;
    const job = await api.archive.importFiles({
      files: [
        { path: 'os/调度.md', content: '# 调度\n\n多级反馈队列调度会动态调整优先级。' },
        { path: 'os/memory.md', content: 'Paging splits memory into frames.' },
      ],
    });
    await core.idle();
    expect((await api.jobs.get(job.job_id)).status).toBe('completed');
    expect((await api.search.search({ query: '多级反馈队列' })).hits[0]?.title).toBe('调度');
    expect((await api.search.search({ query: 'paging' })).hits).toHaveLength(1);

    const notes = await api.notes.list();
    for (const note of notes.items) await api.notes.trash(note.note_id);
    expect((await api.search.search({ query: 'paging' })).hits).toEqual([]);
  });

  it('filters by folder (and below) and by tags', async () => {
    const { api } = openCore();
    await api.notes.create({ title: 'A', folder: 'work/os', tags: ['os', 'exam'], body: 'semaphore basics' });
    await api.notes.create({ title: 'B', folder: 'work', tags: ['os'], body: 'semaphore in practice' });
    await api.notes.create({ title: 'C', folder: 'home', tags: [], body: 'semaphore flags on boats' });
    const titles = async (input: { folder?: string; tags?: string[] }) =>
      (await api.search.search({ query: 'semaphore', ...input })).hits.map((hit) => hit.title).sort();
    expect(await titles({})).toEqual(['A', 'B', 'C']);
    expect(await titles({ folder: 'work' })).toEqual(['A', 'B']);
    expect(await titles({ folder: 'work/os' })).toEqual(['A']);
    expect(await titles({ tags: ['os'] })).toEqual(['A', 'B']);
    expect(await titles({ tags: ['#os', 'exam'] })).toEqual(['A']);
    expect(await titles({ folder: 'home', tags: ['os'] })).toEqual([]);
  });

  it('groups hits by note, best block first, pages over notes and gives the true totals', async () => {
    const { api } = openCore();
    // 25 notes with one match each, and one note with four matching blocks.
    for (let i = 0; i < 25; i++) {
      await api.notes.create({
        title: `Single ${i}`,
        folder: '',
        tags: [],
        body: `kubernetes note number ${i}`,
      });
    }
    const many = await api.notes.create({
      title: 'Cluster',
      folder: 'ops',
      tags: ['k8s'],
      body: 'kubernetes kubernetes pods\n\nkubernetes nodes\n\nkubernetes services\n\nkubernetes ingress',
    });
    const first = await api.search.search({ query: 'kuber', prefix: true, group_by: 'note', limit: 20 });
    expect(first).toMatchObject({ total_hits: 29, total_notes: 26, total_capped: false, offset: 0 });
    expect(first.groups).toHaveLength(20);
    const cluster = first.groups?.find((group) => group.note_id === many.note_id);
    expect(cluster).toMatchObject({ title: 'Cluster', folder: 'ops', tags: ['k8s'] });
    expect(cluster?.hits).toHaveLength(4);
    // Best block first: the one that says it twice.
    expect(cluster?.hits[0]?.snippet).toBe('kubernetes kubernetes pods');
    const scores = cluster?.hits.map((hit) => hit.score) ?? [];
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(first.hits).toHaveLength(first.groups?.reduce((sum, group) => sum + group.hits.length, 0) ?? -1);

    const second = await api.search.search({
      query: 'kuber',
      prefix: true,
      group_by: 'note',
      limit: 20,
      offset: 20,
    });
    expect(second.groups).toHaveLength(6);
    const seen = [...(first.groups ?? []), ...(second.groups ?? [])].map((group) => group.note_id);
    expect(new Set(seen).size).toBe(26);

    // Ungrouped, a page is blocks; the first page keeps the profile's recall and says it may be cut.
    const blocks = await api.search.search({ query: 'kuber', prefix: true, limit: 20 });
    expect(blocks).toMatchObject({ groups: [], total_capped: true });
    expect(blocks.hits).toHaveLength(20);
    const rest = await api.search.search({ query: 'kuber', prefix: true, limit: 20, offset: 20 });
    expect(rest).toMatchObject({ total_hits: 29, total_capped: false });
    expect(rest.hits).toHaveLength(9);
    expect(await codeOf(api.search.search({ query: 'x', offset: -1 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.search.search({ query: 'x', group_by: 'folder' as 'note' }))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('shows the readable text of a block, marked where it matches, and the marks in the title', async () => {
    const { api } = openCore();
    await api.notes.create({
      title: 'Deploying Kubernetes',
      body: 'Intro line.\n\nSetting up **kubernetes** with [kubeadm](https://kubernetes.io/docs/kubeadm)\n\n- [ ] check the [[Cluster|cluster]] `kubectl get nodes`',
    });
    const result = await api.search.search({ query: 'kubeadm', group_by: 'note' });
    const marked = (text: string, ranges: readonly { start: number; end: number }[]) =>
      ranges.map((range) => text.slice(range.start, range.end));
    const [hit] = result.hits;
    expect(hit?.snippet).toBe('Setting up kubernetes with kubeadm');
    expect(marked(hit!.snippet, hit!.highlights)).toEqual(['kubeadm']);
    expect(hit?.title_highlights).toEqual([]);

    const list = (await api.search.search({ query: 'kubectl' })).hits[0];
    expect(list?.snippet).toBe('check the cluster kubectl get nodes');
    expect(marked(list!.snippet, list!.highlights)).toEqual(['kubectl']);

    const titled = (await api.search.search({ query: 'deploy', prefix: true })).hits[0];
    expect(marked(titled!.title, titled!.title_highlights ?? [])).toEqual(['Deploying']);
  });

  it('a match in the title alone shows the beginning of the note', async () => {
    const { api } = openCore();
    const body = Array.from({ length: 12 }, (_, index) => `Paragraph ${index} of the runbook.`).join('\n\n');
    const note = await api.notes.create({ title: 'Failover drill', body });
    const result = await api.search.search({ query: 'failover', group_by: 'note' });
    const [group] = result.groups ?? [];
    expect(group?.note_id).toBe(note.note_id);
    expect(group?.hits).toHaveLength(12);
    expect(group?.hits.map((hit) => hit.start_line)).toEqual(
      Array.from({ length: 12 }, (_, index) => index * 2),
    );
    expect(group?.hits[0]?.snippet).toBe('Paragraph 0 of the runbook.');
    expect(group?.hits[0]?.highlights).toEqual([]);
    expect(group?.hits[0]?.title_highlights).toEqual([{ start: 0, end: 8 }]);
  });

  it('rejects invalid requests with VALIDATION_FAILED', async () => {
    const { api } = openCore();
    expect(await codeOf(api.search.search({ query: 'x', mode: 'semantic' as 'fts' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.search.search({ query: 'x', limit: 0 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.search.search({ query: 'x', limit: 101 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.search.search({ query: 'x'.repeat(1001) }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.search.search({ query: 'x', folder: '../etc' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.search.search({ query: 'x', tags: 'os' as unknown as string[] }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.search.search({ query: 'x', fallback: 'vector' as 'fts' }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.search.search(undefined as unknown as { query: string }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.search.rebuild({ scope: 'notes' as 'all' }))).toBe('VALIDATION_FAILED');
  });

  it('ignores changes reported for notes that do not exist', async () => {
    const core = openCore();
    const { api } = core;
    const note = await api.notes.create({ title: 'Kept', body: 'still here' });
    core.searchIndexer.notesChanged({ kind: 'upserted', note_ids: ['note_missing'] });
    core.searchIndexer.notesChanged({ kind: 'removed', note_ids: ['note_gone', 'note_gone'] });
    core.searchIndexer.notesChanged({ kind: 'upserted', note_ids: [] });
    expect(noteIdsOf(await api.search.search({ query: 'still' }))).toEqual([note.note_id]);
    await core.idle();
    expect(await api.search.status()).toMatchObject({
      status: 'idle',
      pending_notes: 0,
      error_message: null,
    });
    expect(await codeOf(api.notes.trash('note_missing'))).toBe('NOTE_NOT_FOUND');
  });
});

describe('persistence', () => {
  it('a restart loads the saved indexes instead of rebuilding', async () => {
    const embedder = new TestEmbedder();
    const first = openCore({ embedder });
    const os = await first.api.notes.create(OS_NOTE);
    await first.api.notes.create(COOKING_NOTE);
    await first.idle();
    const before = await first.api.search.status();
    const rebuildsBefore = (await first.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total;
    await closeCore(first);

    const addSegments = vi.spyOn(FullTextIndex.prototype, 'addSegments');
    const indexed = watchIndexing();
    const restartedEmbedder = new TestEmbedder();
    const second = openCore({ embedder: restartedEmbedder }, true);
    const result = await second.api.search.search({ query: '进程调度' });
    expect(noteIdsOf(result)[0]).toBe(os.note_id);
    expect(addSegments).toHaveBeenCalledTimes(1);
    // Nothing was re-indexed: no note was read for the indexes, no block embedded.
    expect(indexed()).toEqual([]);
    expect(restartedEmbedder.texts).toBe(0);
    expect((await second.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(rebuildsBefore);
    const after = await second.api.search.status();
    expect(after).toMatchObject({
      status: 'idle',
      last_completed_at: before.last_completed_at,
      full_text: before.full_text,
      vector_index: before.vector_index,
    });
    // Vector search over the loaded vectors embeds only the query.
    const vector = await second.api.search.search({ query: '进程调度决定下一个运行的进程', mode: 'vector' });
    expect(noteIdsOf(vector)[0]).toBe(os.note_id);
    expect(restartedEmbedder.texts).toBe(1);
  });

  it('stores hash-v1 vectors sparse; a restart loads them, or the dense rows of an earlier version, without re-indexing', async () => {
    const first = openCore();
    const os = await first.api.notes.create(OS_NOTE);
    await first.api.notes.create(COOKING_NOTE);
    await first.idle();
    const query = { query: '进程调度决定下一个运行的进程', mode: 'vector' as const };
    const before = await first.api.search.search(query);
    expect(noteIdsOf(before)[0]).toBe(os.note_id);
    const rows = await first.db.search_segments.toArray();
    expect(rows.map((row) => row.vectors)).toEqual([
      expect.objectContaining({ dims: expect.any(Uint16Array), ends: expect.any(Uint32Array) }),
      expect.objectContaining({ dims: expect.any(Uint16Array), ends: expect.any(Uint32Array) }),
    ]);
    const rebuilds = (await first.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total;
    await closeCore(first);

    const second = openCore({}, true);
    const scoresOf = (result: SearchResultDto) => result.hits.map((hit) => [hit.block_id, hit.score]);
    expect(scoresOf(await second.api.search.search(query))).toEqual(scoresOf(before));
    // Rows written dense, as before the sparse form: read as they are.
    const view = await second.searchIndexer.view();
    await second.db.search_segments.toCollection().modify((row) => {
      row.vectors = view.vectors!.noteSegment(row.note_id) ?? null;
    });
    expect((await second.db.search_segments.toArray())[0]!.vectors).not.toHaveProperty('dims');
    await closeCore(second);

    const indexed = watchIndexing();
    const third = openCore({}, true);
    expect(scoresOf(await third.api.search.search(query))).toEqual(scoresOf(before));
    expect(indexed()).toEqual([]);
    expect((await third.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(rebuilds);
  });

  it('measures the relevance floor on the notebook when the vectors are built, stores it and reads it back at the next start', async () => {
    const embedder = new TestEmbedder(OTHER_MODEL);
    const first = openCore({ embedder });
    await first.api.notes.create(OS_NOTE);
    await first.api.notes.create(COOKING_NOTE);
    await first.api.notes.create({
      title: 'Garden',
      body: [
        'Water tomatoes early.',
        'Mulch keeps the soil damp.',
        'Prune basil weekly.',
        'Compost the leaves.',
      ].join('\n\n'),
    });
    await first.idle();
    const meta = await first.db.search_index.get('meta');
    const stored = meta?.key === 'meta' ? meta.segments?.relevance_calibration : undefined;
    expect(stored).toMatchObject({ model: OTHER_MODEL, calibration_version: 1 });
    // A model with no floor of its own: nonsense finds nothing, and the search only embeds its query.
    const embedded = embedder.texts;
    expect((await first.api.search.search({ query: 'qzxv blorft wug', mode: 'vector' })).hits).toEqual([]);
    expect(embedder.texts).toBe(embedded + 1);
    await closeCore(first);

    const restarted = new TestEmbedder(OTHER_MODEL);
    const second = openCore({ embedder: restarted }, true);
    expect((await second.api.search.search({ query: 'qzxv blorft wug', mode: 'vector' })).hits).toEqual([]);
    const garden = await second.api.search.search({ query: 'Prune basil weekly', mode: 'vector' });
    expect(garden.hits[0]?.snippet).toBe('Prune basil weekly.');
    // Read back, not measured again: only the two queries were embedded.
    expect(restarted.texts).toBe(2);
  });

  it('a change not yet indexed when the tab closed is indexed on the next start', async () => {
    const first = openCore({ indexDebounceMs: 60_000 });
    const note = await first.api.notes.create({ title: 'Draft', body: 'first words' });
    await first.idle();
    await first.api.notes.update({ note_id: note.note_id, body: 'second thoughts' });
    // The tab closes before the debounced update ran; only the dirty mark was written.
    await vi.waitFor(async () => expect(await first.db.search_index_dirty.count()).toBe(1), {
      timeout: 15_000,
    });
    first.dispose();
    expect(await first.db.search_index_dirty.count()).toBe(1);
    await closeCore(first);

    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'thoughts' }))).toEqual([note.note_id]);
    expect(noteIdsOf(await second.api.search.search({ query: 'first' }))).toEqual([]);
    await second.idle();
    expect(await second.db.search_index_dirty.count()).toBe(0);
  });

  it('an index stored before blocks carried their heading paths is rebuilt at the next start, once', async () => {
    const first = openCore();
    const note = await first.api.notes.create({
      title: 'OS notes',
      body: '## Round robin\n\nEach process gets a fixed time quantum.',
    });
    await first.idle();
    // As the previous version stored it: the same segment format, without the documents' version.
    await first.db.search_index
      .where('key')
      .equals('meta')
      .modify((row) => {
        if (row.key === 'meta' && row.segments) row.segments.full_text_format = FULL_TEXT_SEGMENT_FORMAT;
      });
    const rebuildsBefore = (await first.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total;
    await closeCore(first);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    const second = openCore({}, true);
    const found = await second.api.search.search({ query: 'round robin' });
    expect(found.hits.map((hit) => [hit.note_id, hit.snippet])).toEqual([
      [note.note_id, 'Each process gets a fixed time quantum.'],
    ]);
    expect(warn.mock.calls.map(([message]) => String(message))).toContain(
      'search index: the stored full-text index has another format; rebuilding it',
    );
    expect((await second.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(
      rebuildsBefore + 1,
    );
    await second.idle();
    await closeCore(second);

    const third = openCore({}, true);
    expect(noteIdsOf(await third.api.search.search({ query: 'round robin' }))).toEqual([note.note_id]);
    expect((await third.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(rebuildsBefore + 1);
  });

  it('an unreadable stored index is rebuilt from the notes', async () => {
    const first = openCore();
    const note = await first.api.notes.create({ title: 'T', body: 'recoverable text' });
    await first.idle();
    await first.db.search_segments.toCollection().modify({ full_text: { format: 'nonsense' } });
    await closeCore(first);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'recoverable' }))).toEqual([note.note_id]);
    expect(warn).toHaveBeenCalled();
    const rebuilds = await second.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND });
    expect(rebuilds.items[0]?.status).toBe('completed');
  });
});

/**
 * Holds a start's reading of the stored index after its first row: each
 * stored row comes as a page of its own, and the rows after the first wait
 * for `release()`. `held` resolves once the first row has been taken in.
 */
function holdIndexLoad(): { held: Promise<void>; release: () => void } {
  const original = IndexRepository.prototype.segmentPages;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  vi.spyOn(IndexRepository.prototype, 'segmentPages').mockImplementation(async function* (
    this: IndexRepository,
    generation: number,
    size: number,
  ) {
    for await (const page of original.call(this, generation, size)) {
      for (const row of page) {
        yield [row];
        taken();
        await gate;
      }
    }
  });
  return { held, release };
}

describe('search as you type', () => {
  const KERNEL_NOTES = [
    { title: 'Alpha', body: 'The kernel schedules threads.' },
    { title: 'Beta', body: 'A kernel module loads drivers.' },
  ];

  it('answers at once from the notes read so far while the stored index loads, marked index_loading; a plain search waits', async () => {
    const first = openCore();
    for (const note of KERNEL_NOTES) await first.api.notes.create(note);
    await first.idle();
    await closeCore(first);

    const load = holdIndexLoad();
    const second = openCore({}, true);
    void second.start();
    await load.held;
    let plainSettled = false;
    const plain = second.api.search.search({ query: 'kernel' }).finally(() => (plainSettled = true));
    let loaded = false;
    const whenLoaded = second.api.search.loaded().then(() => (loaded = true));

    const partial = await second.api.search.typeahead({ query: 'kern', prefix: true });
    expect(partial).toMatchObject({ index_loading: true, mode_used: 'fts' });
    expect(partial!.hits).toHaveLength(1);
    expect(['Alpha', 'Beta']).toContain(partial!.hits[0]!.title);
    // Vectors are read last: vector and hybrid typeahead wait for the whole index.
    let hybridSettled = false;
    const hybrid = second.api.search
      .typeahead({ query: 'kern', mode: 'hybrid', fallback: 'fts' })
      .finally(() => (hybridSettled = true));
    await second.api.search.typeahead({ query: 'kerne', prefix: true });
    expect({ plainSettled, hybridSettled, loaded }).toEqual({
      plainSettled: false,
      hybridSettled: false,
      loaded: false,
    });

    load.release();
    await whenLoaded;
    expect((await plain).hits.map((hit) => hit.title).sort()).toEqual(['Alpha', 'Beta']);
    expect((await plain).index_loading).toBe(false);
    // Superseded by the 'kerne' request made after it.
    expect(await hybrid).toBeNull();
    const complete = await second.api.search.typeahead({ query: 'kern', prefix: true });
    expect(complete).toMatchObject({ index_loading: false });
    expect(complete!.hits.map((hit) => hit.title).sort()).toEqual(['Alpha', 'Beta']);
  });

  it('a note trashed while the index loads stays out of the partial answers', async () => {
    const first = openCore();
    const notes = [];
    for (const note of KERNEL_NOTES) notes.push(await first.api.notes.create(note));
    await first.idle();
    await closeCore(first);

    const load = holdIndexLoad();
    const second = openCore({}, true);
    void second.start();
    await load.held;
    for (const note of notes) await second.api.notes.trash(note.note_id);
    expect((await second.api.search.typeahead({ query: 'kernel' }))?.hits).toEqual([]);
    load.release();
    await second.api.search.loaded();
    expect((await second.api.search.typeahead({ query: 'kernel' }))?.hits).toEqual([]);
  });

  it('each request supersedes the one before: obsolete ones resolve null without embedding their query', async () => {
    const embedder = new TestEmbedder();
    const first = openCore({ embedder });
    await first.api.notes.create(OS_NOTE);
    await first.api.notes.create(COOKING_NOTE);
    await first.idle();
    await closeCore(first);

    const load = holdIndexLoad();
    const restarted = new TestEmbedder();
    const second = openCore({ embedder: restarted }, true);
    void second.start();
    await load.held;
    // Three keys while vector search waits for the index: only the last one is worth answering.
    const answers = ['进', '进程', '进程调度'].map((query) =>
      second.api.search.typeahead({ query, mode: 'vector' }),
    );
    load.release();
    const [firstKey, secondKey, last] = await Promise.all(answers);
    expect(firstKey).toBeNull();
    expect(secondKey).toBeNull();
    expect(last?.query).toBe('进程调度');
    expect(last?.mode_used).toBe('vector');
    expect(restarted.texts).toBe(1);

    // A query being embedded is aborted by the next key; plain searches are never superseded.
    const held = restarted.hold();
    const slow = second.api.search.typeahead({ query: '死锁', mode: 'vector' });
    const plain = second.api.search.search({ query: '死锁', mode: 'vector' });
    await held;
    const next = second.api.search.typeahead({ query: 'pork', mode: 'fts' });
    expect((await next)?.hits[0]?.title).toBe('Cooking');
    restarted.release();
    expect(await slow).toBeNull();
    expect((await plain).hits[0]?.title).toBe(OS_NOTE.title);
  });

  it('rejects an invalid request with VALIDATION_FAILED', async () => {
    const core = openCore();
    expect(await codeOf(core.api.search.typeahead({ query: 'x', limit: 0 }))).toBe('VALIDATION_FAILED');
  });
});

describe('incremental persistence', () => {
  /** The stored rows as a start reads them: packed or recent, each note once. */
  const rowsOf = async (db: NotesAgentDatabase) =>
    new Map((await new IndexRepository(db).load()).segments.map((row) => [row.note_id, row]));
  const searchTables = (writes: Write[]) => writes.filter((write) => write.table.startsWith('search_'));

  it("an edit rewrites only that note's row, a trash writes only its tombstone", async () => {
    let recorder!: ReturnType<typeof recordWrites>;
    const core = openCore({}, false, (db) => (recorder = recordWrites(db)));
    const notes = [];
    for (let i = 0; i < 30; i++)
      notes.push(await core.api.notes.create({ title: `N${i}`, body: `words ${i}` }));
    await core.idle();
    const before = await rowsOf(core.db);
    expect(before.size).toBe(30);
    const edited = notes[7]!;

    recorder.writes.length = 0;
    await core.api.notes.update({ note_id: edited.note_id, body: 'changed words' });
    await core.idle();
    expect(recorder.writes.filter((write) => write.table === 'search_segments')).toEqual([
      { table: 'search_segments', type: 'put', notes: [edited.note_id] },
    ]);
    // Besides the row: the meta row, and the note's dirty mark set and cleared; no pack.
    expect(recorder.writes.filter((write) => write.table === 'search_index')).toHaveLength(1);
    expect(recorder.writes.filter((write) => write.table === 'search_packs')).toEqual([]);
    const after = await rowsOf(core.db);
    for (const [noteId, row] of after) {
      if (noteId === edited.note_id) expect(row.updated_at).not.toBe(before.get(noteId)!.updated_at);
      else expect(row).toEqual(before.get(noteId));
    }

    recorder.writes.length = 0;
    await core.api.notes.trash(notes[3]!.note_id);
    await core.idle();
    // A tombstone, not a delete: it hides the note's row wherever that is (in a pack, say).
    expect(recorder.writes.filter((write) => write.table === 'search_segments')).toEqual([
      { table: 'search_segments', type: 'put', notes: [notes[3]!.note_id] },
    ]);
    expect(recorder.writes.filter((write) => write.table === 'search_packs')).toEqual([]);
    expect((await rowsOf(core.db)).size).toBe(29);
    expect((await rowsOf(core.db)).has(notes[3]!.note_id)).toBe(false);
  });

  it('after a rebuild the rows are packed; an edit then writes its own row only, and a restart reads it over the pack', async () => {
    let recorder!: ReturnType<typeof recordWrites>;
    const first = openCore({}, false, (db) => (recorder = recordWrites(db)));
    const notes = [];
    for (let i = 0; i < 5; i++)
      notes.push(await first.api.notes.create({ title: `P${i}`, body: `packed ${i}` }));
    await first.idle();
    await first.api.search.rebuild({ scope: 'all' });
    await first.idle();
    expect(await first.db.search_segments.count()).toBe(0);
    expect((await first.db.search_packs.toArray()).map((pack) => pack.rows.length)).toEqual([5]);

    recorder.writes.length = 0;
    await first.api.notes.update({ note_id: notes[2]!.note_id, body: 'rewritten words' });
    await first.idle();
    expect(searchTables(recorder.writes)).toEqual([
      { table: 'search_index_dirty', type: 'put', notes: [notes[2]!.note_id] },
      { table: 'search_segments', type: 'put', notes: [notes[2]!.note_id] },
      { table: 'search_index', type: 'put', notes: ['?'] },
      { table: 'search_index_dirty', type: 'delete', notes: [notes[2]!.note_id] },
    ]);
    await closeCore(first);

    const indexed = watchIndexing();
    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'rewritten' }))).toEqual([notes[2]!.note_id]);
    expect(noteIdsOf(await second.api.search.search({ query: 'packed 2' }))).not.toContain(notes[2]!.note_id);
    expect((await second.api.search.search({ query: 'packed 4' })).hits[0]?.note_id).toBe(notes[4]!.note_id);
    await second.idle();
    expect(indexed()).toEqual([]);
  });

  it('a store of per-note rows from before packs loads without a rebuild, is packed once, and the next start writes nothing', async () => {
    const first = openCore();
    const notes = [];
    for (let i = 0; i < 4; i++)
      notes.push(await first.api.notes.create({ title: `Old ${i}`, body: `legacy ${i}` }));
    await first.idle();
    const rebuilds = (await first.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total;
    const saved = await rowsOf(first.db);
    await closeCore(first);

    // Written as before packs: every row per note, and no format in the meta row.
    const db = new NotesAgentDatabase(cores.databaseName()!);
    await db.search_packs.clear();
    await db.search_segments.clear();
    await db.search_segments.bulkPut([...saved.values()]);
    const meta = await db.search_index.get('meta');
    if (meta?.key !== 'meta' || !meta.segments) throw new Error('no stored index');
    const { format: _format, ...segments } = meta.segments;
    await db.search_index.put({ ...meta, segments });
    db.close();

    const indexed = watchIndexing();
    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'legacy 3' }))[0]).toBe(notes[3]!.note_id);
    await second.idle();
    expect(indexed()).toEqual([]);
    expect((await second.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(rebuilds);
    expect(await second.db.search_segments.count()).toBe(0);
    expect(await second.db.search_packs.count()).toBe(1);
    const packedMeta = await second.db.search_index.get('meta');
    expect(packedMeta?.key === 'meta' && packedMeta.segments?.format).toBe(SEGMENT_STORE_FORMAT);
    expect(await rowsOf(second.db)).toEqual(saved);
    await closeCore(second);

    let recorder!: ReturnType<typeof recordWrites>;
    const third = openCore({}, true, (db) => (recorder = recordWrites(db)));
    expect(noteIdsOf(await third.api.search.search({ query: 'legacy 1' }))[0]).toBe(notes[1]!.note_id);
    await third.idle();
    expect(searchTables(recorder.writes)).toEqual([]);
    expect(indexed()).toEqual([]);
    expect((await third.api.jobs.list({ kind: INDEX_REBUILD_JOB_KIND })).page.total).toBe(rebuilds);
  });

  it('a restart re-indexes only the notes changed while their dirty mark was lost', async () => {
    const first = openCore();
    const [a, b, c] = [
      await first.api.notes.create({ title: 'A', body: 'alpha original' }),
      await first.api.notes.create({ title: 'B', body: 'bravo original' }),
      await first.api.notes.create({ title: 'C', body: 'charlie original' }),
    ];
    await first.idle();
    await closeCore(first);

    // Commits whose dirty marks never got written: the tab closed right after each.
    const db = new NotesAgentDatabase(cores.databaseName()!);
    const bare = new NotesRepository(db);
    await bare.update(a.note_id, { body: 'alpha rewritten' });
    await bare.setTrashed(b.note_id, true);
    const [d] = await bare.createMany([{ title: 'D', folder: '', body: 'delta unseen', tags: [] }]);
    db.close();

    const indexed = watchIndexing();
    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'rewritten' }))).toEqual([a.note_id]);
    expect(noteIdsOf(await second.api.search.search({ query: 'bravo' }))).toEqual([]);
    expect(noteIdsOf(await second.api.search.search({ query: 'delta' }))).toEqual([d!.note_id]);
    expect(noteIdsOf(await second.api.search.search({ query: 'charlie' }))).toEqual([c.note_id]);
    await second.idle();
    expect(indexed()).toEqual([a.note_id, b.note_id, d!.note_id].sort());
    expect([...(await rowsOf(second.db)).keys()].sort()).toEqual([a.note_id, c.note_id, d!.note_id].sort());
  });

  it('an update interrupted inside its transaction leaves the old row and the mark; the next start re-indexes that note only', async () => {
    let recorder!: ReturnType<typeof recordWrites>;
    const first = openCore({}, false, (db) => (recorder = recordWrites(db)));
    const a = await first.api.notes.create({ title: 'A', body: 'first draft' });
    const b = await first.api.notes.create({ title: 'B', body: 'untouched' });
    await first.idle();
    const rowBefore = (await rowsOf(first.db)).get(a.note_id);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    // The meta row is written after the note's row, in the same transaction: failing it undoes both.
    recorder.control.failOn = 'search_index';
    const failed = new Promise<void>((resolve) => (recorder.control.onFail = resolve));
    await first.api.notes.update({ note_id: a.note_id, body: 'second draft' });
    await failed;
    first.dispose();
    await closeCore(first);

    const db = new NotesAgentDatabase(cores.databaseName()!);
    expect((await rowsOf(db)).get(a.note_id)).toEqual(rowBefore);
    expect((await db.search_index_dirty.toArray()).map((row) => row.note_id)).toEqual([a.note_id]);
    db.close();

    const indexed = watchIndexing();
    const second = openCore({}, true);
    expect(noteIdsOf(await second.api.search.search({ query: 'second draft' }))).toEqual([a.note_id]);
    expect(noteIdsOf(await second.api.search.search({ query: 'untouched' }))).toEqual([b.note_id]);
    await second.idle();
    expect(indexed()).toEqual([a.note_id]);
    expect(await second.db.search_index_dirty.count()).toBe(0);
  });

  it('a rebuild interrupted halfway leaves the saved index answering; the next start drops its rows', async () => {
    const first = openCore();
    for (let i = 0; i < 110; i++) await first.api.notes.create({ title: `Note ${i}`, body: `gamma ${i}` });
    await first.idle();
    const saved = await rowsOf(first.db);
    expect(saved.size).toBe(110);
    // More notes than the recent rows kept: the session has packed them as it went.
    const packsBefore = await first.db.search_packs.count();
    expect(packsBefore).toBeGreaterThan(0);

    // The rebuild's second step of notes never comes back (the tab is closing).
    const original = NotesRepository.prototype.indexSources;
    let calls = 0;
    const spy = vi.spyOn(NotesRepository.prototype, 'indexSources').mockImplementation(function (
      this: NotesRepository,
      ids,
    ) {
      calls += 1;
      return calls === 3 ? Promise.reject(new Error('tab closed')) : original.call(this, ids);
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const job = await first.api.search.rebuild({ scope: 'all' });
    await first.idle();
    expect((await first.api.jobs.get(job.job_id)).status).toBe('failed');
    // Settings → Search says it by code: the UI chooses the text, the core's English is a detail.
    expect(await first.api.search.status()).toMatchObject({
      status: 'failed',
      error_code: 'INTERNAL_ERROR',
      error_message: 'Indexing failed.',
    });
    // Its first two steps' rows were written beside the saved ones, as a pack of a new generation.
    expect(await first.db.search_packs.count()).toBe(packsBefore + 1);
    expect((await first.db.search_packs.toArray()).at(-1)).toMatchObject({
      generation: 2,
      rows: { length: 100 },
    });
    expect(noteIdsOf(await first.api.search.search({ query: 'gamma 42' }))[0]).toBe(
      [...saved.values()].find((row) => (row.full_text as { title: string }).title === 'Note 42')?.note_id,
    );
    await closeCore(first);
    spy.mockRestore();

    const indexed = watchIndexing();
    const second = openCore({}, true);
    expect((await second.api.search.search({ query: 'gamma 7' })).hits[0]?.title).toBe('Note 7');
    await second.idle();
    expect(indexed()).toEqual([]);
    expect(await rowsOf(second.db)).toEqual(saved);
    expect(await second.db.search_packs.count()).toBe(packsBefore);
  });
});

describe('rebuild', () => {
  it('reports progress over blocks and swaps the new indexes in when complete', async () => {
    const core = openCore();
    const { api } = core;
    for (let i = 0; i < 60; i++)
      await api.notes.create({ title: `Note ${i}`, body: `alpha ${i}\n\nbeta ${i}` });
    await core.idle();
    const job = await api.search.rebuild({ scope: 'all' });
    expect(job).toMatchObject({ kind: INDEX_REBUILD_JOB_KIND, status: 'queued', input: { scope: 'all' } });
    await core.idle();
    const done = await api.jobs.get(job.job_id);
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ scope: 'all', notes: 60, blocks: 120 });
    const events = await api.events.list(job.job_id);
    const progress = events.items.filter((event) => event.event === 'Progress').map((event) => event.data);
    expect(progress[0]).toMatchObject({ phase: 'indexing', current: 0, total: 120 });
    expect(progress.at(-1)).toMatchObject({ current: 120, total: 120, percent: 100 });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect((await api.search.search({ query: 'alpha 7' })).hits[0]?.title).toBe('Note 7');
  });

  it('a cancelled rebuild leaves the old index answering and saved', async () => {
    const embedder = new TestEmbedder();
    const core = openCore({ embedder });
    const { api } = core;
    const kept = await api.notes.create({ title: 'Kept', body: 'persistent memory' });
    for (let i = 0; i < 80; i++) await api.notes.create({ title: `Filler ${i}`, body: `filler text ${i}` });
    await core.idle();
    const savedBefore = await core.db.search_index.get('meta');

    const blocked = embedder.hold();
    const job = await api.search.rebuild({ scope: 'all' });
    await blocked;
    expect(await api.search.status()).toMatchObject({ status: 'rebuilding', active_job_id: job.job_id });
    // The old index answers while the new one is being built.
    expect(noteIdsOf(await api.search.search({ query: 'persistent' }))).toEqual([kept.note_id]);
    const ended = new Promise<EventEnvelope>((resolve) => {
      api.events.subscribe(job.job_id, 0, (event) => {
        if (event.event === 'Cancelled' || event.event === 'Completed') resolve(event);
      });
    });
    await api.jobs.cancel(job.job_id);
    embedder.release();
    expect((await ended).event).toBe('Cancelled');
    await core.idle();

    expect((await api.jobs.get(job.job_id)).status).toBe('cancelled');
    expect(noteIdsOf(await api.search.search({ query: 'persistent' }))).toEqual([kept.note_id]);
    expect(await core.db.search_index.get('meta')).toEqual(savedBefore);
    expect(await api.search.status()).toMatchObject({
      status: 'idle',
      pending_jobs: 0,
      full_text: { block_count: 81 },
      vector_index: { block_count: 81, compatible: true },
    });
  });

  it('asking again while a rebuild waits or runs returns that job', async () => {
    const embedder = new TestEmbedder();
    const core = openCore({ embedder });
    await core.api.notes.create({ title: 'x', body: 'y' });
    await core.idle();
    const blocked = embedder.hold();
    const first = await core.api.search.rebuild({ scope: 'vectors' });
    await blocked;
    const all = await core.api.search.rebuild({ scope: 'all' });
    expect(all.job_id).not.toBe(first.job_id);
    expect((await core.api.search.rebuild({ scope: 'vectors' })).job_id).toBe(first.job_id);
    expect((await core.api.search.rebuild({})).job_id).toBe(all.job_id);
    expect((await core.api.search.status()).pending_jobs).toBe(2);
    embedder.release();
    await core.idle();
    expect((await core.api.jobs.get(all.job_id)).status).toBe('completed');
  });
});

describe('switching the embedding model', () => {
  it('vector search fails with INDEX_MODEL_MISMATCH until the vectors are rebuilt; fts fallback on request', async () => {
    const first = openCore();
    const os = await first.api.notes.create(OS_NOTE);
    const cooking = await first.api.notes.create(COOKING_NOTE);
    await first.idle();
    await closeCore(first);

    const other = new TestEmbedder(OTHER_MODEL);
    const second = openCore({ embedder: other }, true);
    const { api } = second;
    const status = await api.search.status();
    expect(status.embedding).toEqual(OTHER_MODEL);
    expect(status.vector_index).toMatchObject({ model_id: 'hash-v1', dimension: 256, compatible: false });

    expect(await codeOf(api.search.search({ query: '进程调度', mode: 'vector' }))).toBe(
      'INDEX_MODEL_MISMATCH',
    );
    expect(await codeOf(api.search.search({ query: '进程调度', mode: 'hybrid' }))).toBe(
      'INDEX_MODEL_MISMATCH',
    );
    const fallback = await api.search.search({ query: '进程调度', mode: 'hybrid', fallback: 'fts' });
    expect(fallback).toMatchObject({
      mode: 'hybrid',
      mode_used: 'fts',
      fallback_reason: 'INDEX_MODEL_MISMATCH',
    });
    expect(noteIdsOf(fallback)[0]).toBe(os.note_id);
    expect(fallback.hits[0]?.vector_rank).toBeNull();

    // Edits keep the old vectors apart: the edited note's stale vectors leave, no new ones join.
    const vectorsBefore = status.vector_index!.block_count;
    await api.notes.update({ note_id: cooking.note_id, body: 'Only one block now.' });
    await second.idle();
    const afterEdit = await api.search.status();
    expect(afterEdit.vector_index).toMatchObject({ model_id: 'hash-v1', compatible: false });
    expect(afterEdit.vector_index!.block_count).toBe(vectorsBefore - 2);
    expect(other.texts).toBe(0);

    const rebuild = await api.search.rebuild({ scope: 'vectors' });
    await second.idle();
    expect((await api.jobs.get(rebuild.job_id)).status).toBe('completed');
    const rebuilt = await api.search.status();
    // OS_NOTE's heading is no block of its own: two paragraphs, and the cooking note's one.
    expect(rebuilt.vector_index).toEqual({ ...OTHER_MODEL, compatible: true, block_count: 3 });
    expect(rebuilt.full_text.block_count).toBe(3);
    const vector = await api.search.search({ query: '进程调度决定下一个运行的进程', mode: 'vector' });
    expect(vector).toMatchObject({ mode_used: 'vector', fallback_reason: null });
    expect(noteIdsOf(vector)[0]).toBe(os.note_id);
  });

  it('without stored vectors, vector search asks for a rebuild (or falls back)', async () => {
    const first = openCore();
    await first.api.notes.create({ title: 'v', body: 'vectorless' });
    await first.idle();
    const meta = await first.db.search_index.get('meta');
    if (meta?.key !== 'meta' || !meta.segments) throw new Error('no stored index');
    await first.db.search_index.put({ ...meta, segments: { ...meta.segments, vector_model: null } });
    await closeCore(first);

    const embedder = new TestEmbedder();
    const blocked = embedder.hold();
    const second = openCore({ embedder }, true);
    await second.start();
    await blocked;
    // The vectors are being rebuilt in the background; full-text answers meanwhile.
    expect((await second.api.search.status()).vector_index).toBeNull();
    expect(await codeOf(second.api.search.search({ query: 'vectorless', mode: 'vector' }))).toBe(
      'VECTOR_INDEX_REBUILD_REQUIRED',
    );
    const fallback = await second.api.search.search({ query: 'vectorless', mode: 'vector', fallback: 'fts' });
    expect(fallback).toMatchObject({ mode_used: 'fts', fallback_reason: 'VECTOR_INDEX_REBUILD_REQUIRED' });
    expect(fallback.hits).toHaveLength(1);
    embedder.release();
    await second.idle();
    expect((await second.api.search.status()).vector_index).toMatchObject({
      compatible: true,
      block_count: 1,
    });
  });
});
