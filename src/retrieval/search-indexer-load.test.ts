import { afterEach, describe, expect, it, vi } from 'vitest';
import { INDEX_REBUILD_JOB_KIND } from '../contracts';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import { NotesAgentDatabase } from '../db/database';
import { EventRepository } from '../db/event-repository';
import { IndexRepository } from '../db/index-repository';
import { JobRepository } from '../db/job-repository';
import { NotesRepository } from '../db/notes-repository';
import { freshDatabase } from '../db/test-database';
import { HashEmbedder } from './hash-embedder';
import { SearchIndexer, type IndexView } from './search-indexer';

/** The indexer as the core wires it, over `db`: notes written through `notes` are reported to it. */
function openIndexer(db: NotesAgentDatabase) {
  const store = new IndexRepository(db);
  const events = new EventRepository(db);
  const runtime = new JobRuntime(new JobRepository(db, events), new EventLog(events));
  const indexer = new SearchIndexer({
    notes: new NotesRepository(db),
    store,
    runtime,
    embedder: new HashEmbedder(),
  });
  const notes = new NotesRepository(db, { listener: indexer });
  const rebuilds = async () =>
    (await runtime.list({ kind: INDEX_REBUILD_JOB_KIND, limit: 100, offset: 0 })).page.total;
  return { db, runtime, indexer, notes, store, rebuilds };
}
type Opened = ReturnType<typeof openIndexer>;

const opened: Opened[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  const name = opened[0]?.db.name;
  for (const { indexer, runtime, db } of opened.splice(0)) {
    indexer.dispose();
    await runtime.idle().catch(() => undefined);
    db.close();
  }
  if (name) await new NotesAgentDatabase(name).delete();
});

/** A session over a fresh database, or with `db`, a restart over the same data. */
function session(db?: NotesAgentDatabase): Opened {
  const started = openIndexer(db ? new NotesAgentDatabase(db.name) : freshDatabase());
  opened.push(started);
  return started;
}

/** Ends a session once its work is done and stored; its database stays open for the test to look at. */
async function close(ended: Opened): Promise<void> {
  await ended.indexer.flush();
  await ended.runtime.idle();
  ended.indexer.dispose();
}

/** The notes a view's full-text index finds for `query`, in id order. */
function notesIn(view: IndexView, query: string): string[] {
  return [...new Set(view.fullText.search(query, { limit: 20 }).map((hit) => hit.note_id))].sort();
}

/** The notes a full-text query finds in the complete (not partial) view. */
async function found(started: Opened, query: string): Promise<string[]> {
  return notesIn(await started.indexer.view(), query);
}

const note = (title: string, body: string) => ({ title, folder: '', tags: [], body });

/**
 * Holds a start's two reads apart. The stored rows come one to a page, and
 * those after the first wait for `releaseRows()`; the walk over the notes'
 * stamps waits for `releaseStamps()` before it reads. `events` says in which
 * order the reads began and ended.
 */
function holdLoad() {
  const events: string[] = [];
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };
  const rows = gate();
  const stamps = gate();
  const firstRowTaken = gate();
  const rowsRead = gate();
  const pages = IndexRepository.prototype.segmentPages;
  vi.spyOn(IndexRepository.prototype, 'segmentPages').mockImplementation(async function* (
    this: IndexRepository,
    generation: number,
    size: number,
  ) {
    events.push('rows started');
    for await (const page of pages.call(this, generation, size)) {
      for (const row of page) {
        yield [row];
        firstRowTaken.open();
        await rows.opened;
      }
    }
    events.push('rows read');
    rowsRead.open();
  });
  const liveStamps = IndexRepository.prototype.liveStamps;
  vi.spyOn(IndexRepository.prototype, 'liveStamps').mockImplementation(async function (
    this: IndexRepository,
  ) {
    events.push('stamps started');
    await stamps.opened;
    const read = await liveStamps.call(this);
    events.push('stamps read');
    return read;
  });
  return {
    events,
    firstRowTaken: firstRowTaken.opened,
    rowsRead: rowsRead.opened,
    releaseRows: rows.open,
    releaseStamps: stamps.open,
  };
}

describe('loading a damaged stored index', () => {
  it('a pack whose rows lost their full-text part is rebuilt, and its notes are found again', async () => {
    const first = session();
    await first.indexer.start();
    const [zebra] = await first.notes.createMany([note('Zebra', 'stripes on the savanna')]);
    await first.indexer.rebuild('all');
    await close(first);
    expect(await first.db.search_packs.count()).toBe(1);
    const rebuildsBefore = await first.rebuilds();
    // Rows that read as notes with nothing to find, and stamps that still match.
    await first.db.search_packs.toCollection().modify((pack) => {
      pack.rows = pack.rows.map(
        ({ full_text: _full_text, ...row }) => row as typeof row & { full_text: never },
      );
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);

    const second = session(first.db);
    expect(await found(second, 'savanna')).toEqual([zebra!.note_id]);
    expect(await second.rebuilds()).toBe(rebuildsBefore + 1);
    expect(warn.mock.calls.map(([message]) => String(message))).toContain(
      'search index: the stored index is damaged; rebuilding it',
    );
    expect((await second.indexer.status()).error_message).toBeNull();
    await close(second);

    // The rebuilt index is stored whole: the next start reads it and builds nothing.
    const third = session(first.db);
    expect(await found(third, 'savanna')).toEqual([zebra!.note_id]);
    expect(await third.rebuilds()).toBe(rebuildsBefore + 1);
  });

  it('a sound stored index is loaded, not rebuilt', async () => {
    const first = session();
    await first.indexer.start();
    const [zebra] = await first.notes.createMany([note('Zebra', 'stripes on the savanna')]);
    await first.indexer.rebuild('all');
    await close(first);
    const rebuildsBefore = await first.rebuilds();

    const second = session(first.db);
    expect(await found(second, 'savanna')).toEqual([zebra!.note_id]);
    await second.indexer.flush();
    expect(await second.rebuilds()).toBe(rebuildsBefore);
  });
});

describe('a start', () => {
  const KERNEL_NOTES = [
    note('Alpha', 'The kernel schedules threads.'),
    note('Beta', 'A kernel module loads drivers.'),
  ];

  it("reads the notes' stamps beside the stored rows; a partial view answers meanwhile, a plain view waits for both", async () => {
    const first = session();
    await first.indexer.start();
    const [alpha, beta] = await first.notes.createMany(KERNEL_NOTES);
    await close(first);
    const rebuildsBefore = await first.rebuilds();

    const load = holdLoad();
    const second = session(first.db);
    void second.indexer.start();
    await load.firstRowTaken;
    // The walk began before the rows were all read, and is not waited for by a partial answer.
    expect(load.events).toEqual(['stamps started', 'rows started']);
    const early = await second.indexer.view({ partial: true });
    expect(early.loading).toBe(true);
    expect(notesIn(early, 'kernel')).toHaveLength(1);
    const plain = second.indexer.view().then((view) => {
      load.events.push('plain view');
      return view;
    });

    load.releaseRows();
    await load.rowsRead;
    // Every row is in, but the stamps are not: still loading, still partial.
    const rowsIn = await second.indexer.view({ partial: true });
    expect(rowsIn.loading).toBe(true);
    expect(notesIn(rowsIn, 'kernel')).toEqual([alpha!.note_id, beta!.note_id].sort());

    load.releaseStamps();
    const complete = await plain;
    expect(load.events).toEqual(['stamps started', 'rows started', 'rows read', 'stamps read', 'plain view']);
    expect(complete.loading).toBe(false);
    expect(notesIn(complete, 'kernel')).toEqual([alpha!.note_id, beta!.note_id].sort());
    expect((await second.indexer.view({ partial: true })).loading).toBe(false);
    // Nothing was stale: nothing re-indexed, nothing rebuilt.
    expect((await second.indexer.status()).pending_notes).toBe(0);
    expect(await second.rebuilds()).toBe(rebuildsBefore);
  });

  it('keeps the edits made while it reads: a plain view shows them, and so does the next start', async () => {
    const first = session();
    await first.indexer.start();
    const [alpha, beta] = await first.notes.createMany(KERNEL_NOTES);
    await close(first);
    const rebuildsBefore = await first.rebuilds();

    const load = holdLoad();
    const second = session(first.db);
    void second.indexer.start();
    await load.firstRowTaken;
    await second.notes.update(alpha!.note_id, { body: 'The scheduler runs threads.' });
    await second.notes.setTrashed(beta!.note_id, true);
    const [delta] = await second.notes.createMany([note('Delta', 'A kernel in lockdown mode.')]);
    // The trashed note leaves the partial answers at once; the others wait for the load.
    expect(notesIn(await second.indexer.view({ partial: true }), 'drivers')).toEqual([]);
    const plain = second.indexer.view();
    load.releaseRows();
    load.releaseStamps();

    const view = await plain;
    expect(view.loading).toBe(false);
    expect(notesIn(view, 'kernel')).toEqual([delta!.note_id]);
    expect(notesIn(view, 'scheduler')).toEqual([alpha!.note_id]);
    expect(notesIn(view, 'drivers')).toEqual([]);
    await close(second);
    vi.restoreAllMocks();

    const third = session(first.db);
    expect(await found(third, 'kernel')).toEqual([delta!.note_id]);
    expect(await found(third, 'scheduler')).toEqual([alpha!.note_id]);
    expect((await third.indexer.status()).pending_notes).toBe(0);
    expect(await third.rebuilds()).toBe(rebuildsBefore);
  });
});

describe('flush', () => {
  it('waits for the vectors rebuild a start began, so the rebuilt vectors are stored before it returns', async () => {
    const first = session();
    await first.indexer.start();
    const [alpha] = await first.notes.createMany([note('Alpha', 'The kernel schedules threads.')]);
    await close(first);
    const rebuildsBefore = await first.rebuilds();
    // Stored without vectors (as when they could not be read): the start keeps the full text and rebuilds them.
    await first.db.search_index.toCollection().modify((row) => {
      if (row.key === 'meta' && row.segments) row.segments.vector_model = null;
    });

    const second = session(first.db);
    await second.indexer.start();
    await second.indexer.flush();
    expect(await second.rebuilds()).toBe(rebuildsBefore + 1);
    const meta = await second.db.search_index.get('meta');
    expect(meta?.key === 'meta' && meta.segments?.vector_model?.model_id).toBe('hash-v1');
    expect((await second.indexer.status()).vector_index?.block_count).toBe(1);
    second.indexer.dispose();
    await second.runtime.idle();

    // The next start loads the vectors the flush waited for: no rebuild.
    const third = session(first.db);
    const view = await third.indexer.view();
    expect(view.vectors?.size).toBe(1);
    expect(notesIn(view, 'kernel')).toEqual([alpha!.note_id]);
    await third.indexer.flush();
    expect(await third.rebuilds()).toBe(rebuildsBefore + 1);
  });
});
