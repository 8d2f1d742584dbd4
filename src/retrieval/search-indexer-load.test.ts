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
import { SearchIndexer } from './search-indexer';

/** The indexer as the core wires it, over `db`: notes written through `notes` are reported to it. */
function openIndexer(db: NotesAgentDatabase, store = new IndexRepository(db)) {
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
function session(db?: NotesAgentDatabase, store?: (db: NotesAgentDatabase) => IndexRepository): Opened {
  const database = db ? new NotesAgentDatabase(db.name) : freshDatabase();
  const it = openIndexer(database, store?.(database));
  opened.push(it);
  return it;
}

/** Ends a session once its work is done and stored; its database stays open for the test to look at. */
async function close(it: Opened): Promise<void> {
  await it.indexer.flush();
  await it.runtime.idle();
  it.indexer.dispose();
}

/** The notes a full-text query finds in the complete (not partial) view. */
async function found(it: Opened, query: string): Promise<string[]> {
  const view = await it.indexer.view();
  return [...new Set(view.fullText.search(query, { limit: 20 }).map((hit) => hit.note_id))].sort();
}

const note = (title: string, body: string) => ({ title, folder: '', tags: [], body });

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
