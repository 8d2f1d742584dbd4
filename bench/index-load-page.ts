// Runs in Chromium (bundled by bench/index-load-chromium.ts): a notebook's
// search index built and stored in the browser's own IndexedDB through the
// app's SearchIndexer, then started again and again from what is stored, with
// the parts of a start timed apart: the raw read of the stored pieces (the
// floor), the in-memory build from pieces already read, and the whole start.
import { EventLog } from '../src/core/event-log';
import { JobRuntime } from '../src/core/job-runtime';
import { EventRepository } from '../src/db/event-repository';
import { NotesAgentDatabase } from '../src/db/database';
import { IndexRepository } from '../src/db/index-repository';
import { JobRepository } from '../src/db/job-repository';
import { NotesRepository, type NoteDraft } from '../src/db/notes-repository';
import { HashEmbedder } from '../src/retrieval/hash-embedder';
import { SearchIndexer } from '../src/retrieval/search-indexer';

const NAME = 'bench-index-load';

/** The app's indexer over `db`, as the core worker wires it (also used by bench/index-load.ts in Node). */
export function openIndexer(db: NotesAgentDatabase) {
  const events = new EventRepository(db);
  const runtime = new JobRuntime(new JobRepository(db, events), new EventLog(events));
  const indexer = new SearchIndexer({
    notes: new NotesRepository(db),
    store: new IndexRepository(db),
    runtime,
    embedder: new HashEmbedder(),
  });
  return { indexer, runtime };
}

export interface StartFigures {
  /** The head of a start: the meta row, the dirty marks and every live note's id and stamp. */
  headMs: number;
  /** Every stored piece read, nothing built (IndexedDB and deserialising). */
  readMs: number;
  /** The whole start: stored pieces read and the in-memory indexes built, to a full-text + vector view. */
  startMs: number;
  blocks: number;
  vectors: number;
  pendingNotes: number;
  /** Bytes the stored pieces hold (strings as UTF-16 units × 2, typed arrays as bytes). */
  storedBytes: number;
}

function storedBytesOf(rows: unknown[]): number {
  return Math.max(1, sizeOf(rows));
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length * 2;
  if (typeof value === 'number') return 8;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (Array.isArray(value)) return value.reduce<number>((total, item) => total + sizeOf(item), 0);
  if (value && typeof value === 'object') {
    return Object.values(value).reduce<number>((total, item) => total + sizeOf(item), 0);
  }
  return 0;
}

const bench = {
  /** Writes the notes and builds and stores their index; returns the block count. */
  async setup(drafts: NoteDraft[]): Promise<{ blocks: number; buildMs: number }> {
    await new NotesAgentDatabase(NAME).delete();
    const db = new NotesAgentDatabase(NAME);
    const notes = new NotesRepository(db);
    for (let i = 0; i < drafts.length; i += 500) await notes.createMany(drafts.slice(i, i + 500));
    const started = performance.now();
    const { indexer, runtime } = openIndexer(db);
    await indexer.start();
    await indexer.flush();
    await runtime.idle();
    const buildMs = performance.now() - started;
    indexer.dispose();
    const blocks = await db.blocks.count();
    db.close();
    return { blocks, buildMs };
  },

  async start(): Promise<StartFigures> {
    const db = new NotesAgentDatabase(NAME);
    const repository = new IndexRepository(db);
    const headStart = performance.now();
    // What a start reads besides the rows: the head, and the notes' stamps it reads beside the rows.
    const [head] = await Promise.all([repository.loadHead(), repository.liveStamps()]);
    const headMs = performance.now() - headStart;
    const generation = head.meta?.segments?.generation ?? 0;
    let readStart = performance.now();
    let storedBytes = 0;
    for await (const page of repository.segmentPages(generation, 500)) storedBytes += sizeOf(page);
    const readMs = performance.now() - readStart;
    db.close();

    const fresh = new NotesAgentDatabase(NAME);
    const { indexer } = openIndexer(fresh);
    readStart = performance.now();
    await indexer.start();
    const view = await indexer.view();
    const startMs = performance.now() - readStart;
    const status = await indexer.status();
    indexer.dispose();
    fresh.close();
    return {
      headMs,
      readMs,
      startMs,
      blocks: view.fullText.size,
      vectors: view.vectors?.size ?? 0,
      pendingNotes: status.pending_notes,
      storedBytes,
    };
  },

  /**
   * What reading costs per stored record against per byte: the stored rows
   * read raw (getAll and getAllKeys), then the same bytes in a scratch
   * database as many small buffers, as 20 large ones, and the rows grouped
   * 100 to a record. BENCH_INDEX_LOAD_PROBE=1 prints it.
   */
  async probe(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    const request = <T>(r: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const idb = await request(indexedDB.open(NAME));
    for (const [name, run] of [
      ['keys', (store: IDBObjectStore) => request(store.getAllKeys())],
      ['all', (store: IDBObjectStore) => request(store.getAll())],
      ['keys2', (store: IDBObjectStore) => request(store.getAllKeys())],
      ['all2', (store: IDBObjectStore) => request(store.getAll())],
    ] as const) {
      const t = performance.now();
      const result = await run(idb.transaction('search_segments').objectStore('search_segments'));
      out[name] = performance.now() - t;
      out[`${name}_n`] = (result as unknown[]).length;
    }
    // The packs (when this build stores them) read whole, then their rows regrouped below as before.
    let rows = await request(idb.transaction('search_segments').objectStore('search_segments').getAll());
    if (idb.objectStoreNames.contains('search_packs')) {
      const t = performance.now();
      const packs = (await request(
        idb.transaction('search_packs').objectStore('search_packs').getAll(),
      )) as Array<{
        rows: unknown[];
      }>;
      out.packs = performance.now() - t;
      out.packs_n = packs.length;
      rows = [...rows, ...packs.flatMap((pack) => pack.rows)];
    }
    idb.close();
    const scratch = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(`${NAME}-scratch`, 1);
      r.onupgradeneeded = () => r.result.createObjectStore('s');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const bytes = storedBytesOf(rows as unknown[]);
    const variants: Record<string, unknown[]> = {
      rows: rows as unknown[],
      buffers: (rows as unknown[]).map(() => new ArrayBuffer(Math.round(bytes / rows.length))),
      bigBuffers: Array.from({ length: 20 }, () => new ArrayBuffer(Math.round(bytes / 20))),
      rowGroups: Array.from({ length: 20 }, (_, i) => (rows as unknown[]).slice(i * 100, i * 100 + 100)),
      jsonGroups: Array.from({ length: 20 }, (_, i) =>
        JSON.stringify((rows as unknown[]).slice(i * 100, i * 100 + 100), (_key, value) =>
          ArrayBuffer.isView(value) ? Array.from(value as Float32Array) : value,
        ),
      ),
    };
    for (const [name, values] of Object.entries(variants)) {
      await new Promise<void>((resolve, reject) => {
        const tx = scratch.transaction('s', 'readwrite');
        const store = tx.objectStore('s');
        store.clear();
        values.forEach((value, i) => store.put(value, i));
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      const t = performance.now();
      const back = await request(scratch.transaction('s').objectStore('s').getAll());
      out[`v_${name}`] = performance.now() - t;
      out[`v_${name}_n`] = back.length;
    }
    scratch.close();
    return out;
  },

  async drop(): Promise<void> {
    await new NotesAgentDatabase(NAME).delete();
  },
};

(globalThis as { indexLoadBench?: typeof bench }).indexLoadBench = bench;
