// The search workflows against the real core services, in-thread over fake-indexeddb.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api/core-client', async () =>
  (await import('../../services/test-core')).coreClientDouble({}, { jobEvents: false }),
);

const { core } = await import('../api/core-client');
const { testCore } = (await import('../api/core-client')) as unknown as {
  testCore: { close: () => Promise<void> };
};
const { search, indexStatus } = await import('./search.svelte');
const service = await import('./search.service');
const { notes } = await import('../notes/notes.svelte');
const { editor } = await import('../editor/editor.svelte');
const { openResult } = await import('../editor/editor.service');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The first search waits for the index to load and build; on a busy machine that is over a second.
const settles = { timeout: 5000 };

afterAll(() => testCore.close());
beforeEach(() => {
  search.reset();
  notes.reset();
  indexStatus.reset();
  vi.restoreAllMocks();
});

describe('search workflows', () => {
  it('searches as you type after a short pause, once, with the sidebar filters and the fts fallback', async () => {
    const work = await core.notes.create({
      title: '周报',
      folder: 'work',
      body: '本周完成了进程调度的实验。',
    });
    await core.notes.create({ title: '随笔', folder: 'home', body: '进程调度也出现在家里的闲谈中。' });
    // Loaded first: a search during the load is answered twice (partial, then complete).
    await core.search.loaded();
    const spy = vi.spyOn(core.search, 'typeahead');
    notes.setFolder('work');
    service.setSearchQuery('进');
    service.setSearchQuery('进程');
    service.setSearchQuery('进程调度');
    expect(search.active).toBe(true);
    expect(spy).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(search.result?.hits.length).toBe(1), settles);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toMatchObject({
      query: '进程调度',
      mode: 'fts',
      fallback: 'fts',
      folder: 'work',
    });
    expect(search.result?.hits[0]?.note_id).toBe(work.note_id);

    // The mode switch searches again at once; clearing hides the results.
    service.setSearchMode('hybrid');
    await vi.waitFor(() => expect(search.result?.mode).toBe('hybrid'), settles);
    service.clearSearch();
    expect(search.active).toBe(false);
    expect(search.result).toBeNull();
    await sleep(200);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('while the index loads, shows the partial answer as such and searches again once it has loaded', async () => {
    await core.notes.create({ title: 'Loading', body: 'Quetzalcoatl in the notes.' });
    let loaded!: () => void;
    vi.spyOn(core.search, 'loaded').mockReturnValue(new Promise<void>((resolve) => (loaded = resolve)));
    const typeahead = vi.spyOn(core.search, 'typeahead');
    typeahead.mockImplementationOnce(async (input) => ({
      ...(await core.search.search(input)),
      hits: [],
      groups: [],
      index_loading: true,
    }));
    service.setSearchQuery('quetzal');
    await vi.waitFor(() => expect(search.result?.index_loading).toBe(true), settles);
    expect(search.result?.hits).toEqual([]);
    expect(typeahead).toHaveBeenCalledTimes(1);
    loaded();
    await vi.waitFor(() => expect(search.result?.index_loading).toBe(false), settles);
    expect(search.result?.hits.map((hit) => hit.title)).toEqual(['Loading']);
    expect(typeahead).toHaveBeenCalledTimes(2);
  });

  it('a request the core superseded (answered null) leaves the newer answer in place', async () => {
    await core.notes.create({ title: 'Newer', body: 'Axolotl habitats.' });
    const typeahead = vi.spyOn(core.search, 'typeahead');
    let answerOld!: () => void;
    typeahead.mockImplementationOnce(() => new Promise<null>((resolve) => (answerOld = () => resolve(null))));
    service.setSearchQuery('axo');
    await vi.waitFor(() => expect(typeahead).toHaveBeenCalledTimes(1), settles);
    expect(search.loading).toBe(true);
    service.setSearchQuery('axolotl');
    await vi.waitFor(() => expect(search.result?.query).toBe('axolotl'), settles);
    answerOld();
    await Promise.resolve();
    expect(search.result?.query).toBe('axolotl');
    expect(search.result?.hits.map((hit) => hit.title)).toEqual(['Newer']);
    expect(search.loading).toBe(false);
  });

  it('opening a result asks the preview to reveal its block', async () => {
    const note = await core.notes.create({ title: 'Kernel', body: '# Kernel\n\nThe scheduler picks tasks.' });
    service.setSearchQuery('scheduler');
    await vi.waitFor(() => expect(search.result?.hits.length).toBe(1), settles);
    const hit = search.result!.hits[0]!;
    await openResult(hit);
    expect(editor.noteId).toBe(note.note_id);
    expect(editor.reveal).toMatchObject({ noteId: note.note_id, blockId: hit.block_id, line: 2 });
    editor.revealDone(editor.reveal!.token);
    expect(editor.reveal).toBeNull();
  });

  it('a rebuild from Settings is followed to the end and refreshes the status', async () => {
    await service.refreshIndexStatus();
    expect(indexStatus.status?.embedding.model_id).toBe('hash-v1');
    expect(indexStatus.incompatible).toBe(false);
    const rebuild = vi.spyOn(core.search, 'rebuild');
    await service.rebuildIndex('all');
    expect(rebuild).toHaveBeenCalledWith({ scope: 'all' });
    expect(indexStatus.rebuildJobId).not.toBeNull();
    await vi.waitFor(
      async () => expect((await core.jobs.get(indexStatus.rebuildJobId!)).status).toBe('completed'),
      settles,
    );
  });
});
