import { afterEach, describe, expect, it } from 'vitest';
import { NotesAgentDatabase } from './database';
import { MIGRATIONS } from './schema';
import {
  emptyTally,
  IndexRepository,
  PACK_NOTES,
  SEGMENT_STORE_FORMAT,
  type SegmentTally,
} from './index-repository';
import { NotesRepository, type NoteChange } from './notes-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

const model = { model_id: 'hash-v1', model_version: '1', dimension: 4, normalization: 'l2' as const };
const meta = {
  last_completed_at: '2026-01-01T00:00:00.000Z',
  full_text_built_at: null,
  vectors_built_at: null,
};

const segment = (generation: number, note_id: string, updated_at = 'u1') => ({
  generation,
  note_id,
  updated_at,
  full_text: { any: 'json' },
  vectors: { block_ids: [`${note_id}#b`], folder: '', tags: [], data: new Float32Array([1, 0, 0, 0]) },
});
const segmentsMeta = (generation: number) => ({
  ...meta,
  segments: { generation, full_text_format: 'f', vector_model: model },
});

describe('IndexRepository', () => {
  it('loads nothing from a fresh database', async () => {
    db = freshDatabase();
    expect(await new IndexRepository(db).load()).toEqual({
      meta: undefined,
      segments: [],
      dirty: [],
      live: new Map(),
      stale_rows: 0,
    });
  });

  it('saves the changed rows and clears only the dirty marks it was given, unchanged', async () => {
    db = freshDatabase();
    const store = new IndexRepository(db);
    await store.markDirty([
      { note_id: 'a', token: 't1' },
      { note_id: 'b', token: 't1' },
      { note_id: 'c', token: 't1' },
    ]);
    // b is marked again (an edit during indexing): the save must keep that mark.
    await store.markDirty([{ note_id: 'b', token: 't2' }]);
    await store.save(
      { generation: 1, put: [segment(1, 'a'), segment(1, 'b')], remove: [], meta: segmentsMeta(1) },
      [
        { note_id: 'a', token: 't1' },
        { note_id: 'b', token: 't1' },
      ],
    );
    const loaded = await store.load();
    expect(loaded.segments.map((row) => row.note_id)).toEqual(['a', 'b']);
    expect(loaded.segments[0]!.vectors!.data).toEqual(new Float32Array([1, 0, 0, 0]));
    expect(loaded.meta).toEqual(segmentsMeta(1));
    expect(loaded.dirty.sort((x, y) => x.note_id.localeCompare(y.note_id))).toEqual([
      { note_id: 'b', token: 't2' },
      { note_id: 'c', token: 't1' },
    ]);

    // An update rewrites one row and removes another; the rest stay as they were.
    await store.save(
      { generation: 1, put: [segment(1, 'b', 'u2')], remove: ['a'], meta: segmentsMeta(1) },
      [],
    );
    expect((await store.load()).segments.map((row) => [row.note_id, row.updated_at])).toEqual([['b', 'u2']]);
    await store.clear();
    expect((await store.load()).meta).toBeUndefined();
  });

  it('reads only the live generation; a rebuild switches to its own and drops every other', async () => {
    db = freshDatabase();
    const store = new IndexRepository(db);
    await store.save({ generation: 1, put: [segment(1, 'a')], remove: [], meta: segmentsMeta(1) }, []);
    // Left over by a rebuild that never finished, and one being built now: a pack each.
    await store.putSegments([segment(7, 'stale')]);
    await store.putSegments([segment(2, 'a'), segment(2, 'b')]);
    const during = await store.load();
    expect(during.segments.map((row) => [row.generation, row.note_id])).toEqual([[1, 'a']]);
    expect(during.stale_rows).toBe(2);

    await store.save(
      { generation: 2, put: [segment(2, 'c')], remove: ['b'], meta: segmentsMeta(2), replaceOthers: true },
      [],
    );
    expect((await store.load()).segments.map((row) => [row.generation, row.note_id])).toEqual([
      [2, 'a'],
      [2, 'c'],
    ]);
    // The rebuild's pack, c's row and b's tombstone (b is in that pack).
    expect(await db.search_packs.count()).toBe(1);
    expect((await db.search_segments.toArray()).map((row) => [row.note_id, row.removed ?? false])).toEqual([
      ['b', true],
      ['c', false],
    ]);
    await store.putSegments([segment(3, 'x')]);
    await store.dropGenerationsExcept(2);
    expect(await db.search_packs.count()).toBe(1);
    expect(await db.search_segments.count()).toBe(2);
  });

  it('reads the recent rows in pages in note order, then the packs newest first, each note once', async () => {
    db = freshDatabase();
    const repository = new IndexRepository(db);
    const ids = Array.from({ length: 7 }, (_, i) => `note-${i}`);
    await repository.putSegments([segment(2, 'packed-a'), segment(2, 'packed-b'), segment(2, 'note-3')]);
    await repository.putSegments([segment(2, 'packed-c'), segment(1, 'note-old'), segment(3, 'note-new')]);
    await repository.save(
      { generation: 2, put: ids.map((id) => segment(2, id, 'u2')), remove: [], meta: segmentsMeta(2) },
      [],
    );
    const pages: string[][] = [];
    for await (const page of repository.segmentPages(2, 3)) pages.push(page.map((row) => row.note_id));
    expect(pages).toEqual([
      ids.slice(0, 3),
      ids.slice(3, 6),
      ids.slice(6),
      ['packed-c'],
      // note-3's packed row is hidden by its recent one.
      ['packed-a', 'packed-b'],
    ]);
    // A page size that divides the rows ends without an empty page.
    const even: string[][] = [];
    for await (const page of repository.segmentPages(2, 7)) even.push(page.map((row) => row.note_id));
    expect(even).toEqual([ids, ['packed-c'], ['packed-a', 'packed-b']]);
    const none: unknown[] = [];
    for await (const page of repository.segmentPages(9, 3)) none.push(page);
    expect(none).toEqual([]);
  });

  it('a recent row hides the packed one, a tombstone hides the note, a later pack hides an earlier', async () => {
    db = freshDatabase();
    const store = new IndexRepository(db);
    await store.putSegments([segment(1, 'a'), segment(1, 'b'), segment(1, 'c'), segment(1, 'd')]);
    await store.putSegments([segment(1, 'b', 'u2')]);
    await store.save(
      { generation: 1, put: [segment(1, 'c', 'u3')], remove: ['a'], meta: segmentsMeta(1) },
      [],
    );
    const tally = emptyTally();
    const rows: Array<[string, string]> = [];
    for await (const page of store.segmentPages(1, 500, tally)) {
      rows.push(...page.map((row): [string, string] => [row.note_id, row.updated_at]));
    }
    expect(rows.sort()).toEqual([
      ['b', 'u2'],
      ['c', 'u3'],
      ['d', 'u1'],
    ]);
    expect({ ...tally, recent: tally.recent.sort() }).toEqual<SegmentTally>({
      recent: ['a', 'c'],
      packs: 2,
      packed: 5,
      hidden: 3,
    });
  });

  describe('packing', () => {
    /** Live rows a, c (recent), b (in the second pack), d (in the first), and a tombstone for e. */
    async function mixedStore() {
      const store = new IndexRepository(db);
      await store.save({ generation: 1, put: [], remove: [], meta: segmentsMeta(1) }, []);
      await store.putSegments([segment(1, 'a'), segment(1, 'b'), segment(1, 'd'), segment(1, 'e')]);
      await store.putSegments([segment(1, 'b', 'u2')]);
      await store.save(
        {
          generation: 1,
          put: [segment(1, 'a', 'u3'), segment(1, 'c')],
          remove: ['e'],
          meta: segmentsMeta(1),
        },
        [],
      );
      return store;
    }
    const liveRows = async (store: IndexRepository) =>
      (await store.load()).segments.map((row) => [row.note_id, row.updated_at]);
    const LIVE = [
      ['a', 'u3'],
      ['b', 'u2'],
      ['c', 'u1'],
      ['d', 'u1'],
    ];

    it('compact appends the recent rows as a pack and deletes them, reading the same; and stamps the format', async () => {
      db = freshDatabase();
      const store = await mixedStore();
      expect(await liveRows(store)).toEqual(LIVE);
      await store.compact(1);
      expect(await db.search_segments.count()).toBe(0);
      expect((await db.search_packs.toArray()).map((pack) => pack.rows.map((row) => row.note_id))).toEqual([
        ['a', 'b', 'd', 'e'],
        ['b'],
        // The tombstone stays: e's first packed row is still there to hide.
        ['a', 'c', 'e'],
      ]);
      expect(await liveRows(store)).toEqual(LIVE);
      expect((await store.load()).meta?.segments?.format).toBe(SEGMENT_STORE_FORMAT);
    });

    it('repack rewrites the packs with the live rows only', async () => {
      db = freshDatabase();
      const store = await mixedStore();
      await store.repack(1);
      expect(await db.search_segments.count()).toBe(0);
      const packs = await db.search_packs.toArray();
      expect(packs.flatMap((pack) => pack.rows.map((row) => [row.note_id, row.updated_at])).sort()).toEqual(
        LIVE,
      );
      expect(await liveRows(store)).toEqual(LIVE);
      const tally = emptyTally();
      for await (const _page of store.segmentPages(1, 500, tally));
      expect(tally).toEqual({ recent: [], packs: 1, packed: 4, hidden: 0 });
    });

    it('repack fills whole packs and keeps every note of a large store', async () => {
      db = freshDatabase();
      const store = new IndexRepository(db);
      await store.save({ generation: 1, put: [], remove: [], meta: segmentsMeta(1) }, []);
      const ids = Array.from({ length: PACK_NOTES * 2 + 30 }, (_, i) => `n${String(i).padStart(4, '0')}`);
      for (let i = 0; i < ids.length; i += 10) {
        await store.putSegments(ids.slice(i, i + 10).map((id) => segment(1, id)));
      }
      await store.save(
        { generation: 1, put: [segment(1, ids[5]!, 'u2')], remove: [ids[6]!], meta: segmentsMeta(1) },
        [],
      );
      await store.repack(1);
      expect((await db.search_packs.toArray()).map((pack) => pack.rows.length)).toEqual([
        PACK_NOTES,
        PACK_NOTES,
        29,
      ]);
      const rows = (await store.load()).segments;
      expect(rows.map((row) => row.note_id)).toEqual(ids.filter((id) => id !== ids[6]));
      expect(rows.find((row) => row.note_id === ids[5])?.updated_at).toBe('u2');
    });

    it('compact on a store with no packs yet drops the tombstones', async () => {
      db = freshDatabase();
      const store = new IndexRepository(db);
      await store.save(
        { generation: 1, put: [segment(1, 'a'), segment(1, 'b')], remove: ['gone'], meta: segmentsMeta(1) },
        [],
      );
      await store.compact(1);
      expect((await db.search_packs.toArray()).map((pack) => pack.rows.map((row) => row.note_id))).toEqual([
        ['a', 'b'],
      ]);
    });

    it('does nothing for a generation that is no longer the live one', async () => {
      db = freshDatabase();
      const store = await mixedStore();
      await store.save(
        { generation: 2, put: [], remove: [], meta: segmentsMeta(2), replaceOthers: true },
        [],
      );
      await store.putSegments([segment(1, 'late')]);
      await store.compact(1);
      await store.repack(1);
      expect(await db.search_packs.count()).toBe(1);
      expect((await store.load()).meta?.segments?.format).toBeUndefined();
    });

    for (const how of ['compact', 'repack'] as const) {
      it(`a ${how} that fails after writing its packs leaves every row as it was`, async () => {
        db = freshDatabase();
        // Fails the recent rows' delete, after the packs were written in the same transaction.
        db.use({
          stack: 'dbcore',
          name: 'fail-recent-delete',
          create: (down) => ({
            ...down,
            table: (name) => {
              const table = down.table(name);
              return {
                ...table,
                mutate: (request) =>
                  name === 'search_segments' &&
                  (request.type === 'delete' || request.type === 'deleteRange') &&
                  failing
                    ? Promise.reject(new Error('simulated crash'))
                    : table.mutate(request),
              };
            },
          }),
        });
        let failing = false;
        const store = await mixedStore();
        const packs = await db.search_packs.toArray();
        const recent = await db.search_segments.toArray();
        failing = true;
        await expect(store[how](1)).rejects.toThrow('simulated crash');
        failing = false;
        expect(await db.search_packs.toArray()).toEqual(packs);
        expect(await db.search_segments.toArray()).toEqual(recent);
        expect(await liveRows(store)).toEqual(LIVE);
      });
    }

    it('a pack written from recent rows that were never deleted still reads each note once, newest', async () => {
      db = freshDatabase();
      const store = await mixedStore();
      // As if the pack's write had committed and the recent rows' delete had not.
      const recent = await db.search_segments.toArray();
      await store.putSegments(recent);
      expect(await db.search_segments.count()).toBe(recent.length);
      expect(await liveRows(store)).toEqual(LIVE);
      await store.compact(1);
      expect(await liveRows(store)).toEqual(LIVE);
      await store.repack(1);
      expect(await liveRows(store)).toEqual(LIVE);
    });
  });

  it('version 14 drops the whole-index rows of earlier versions and keeps the dirty marks', async () => {
    const before = MIGRATIONS.filter((migration) => migration.version < 14);
    db = freshDatabase(before);
    await db.search_index.bulkPut([
      { key: 'full_text', snapshot: {}, block_count: 1 },
      { key: 'meta', ...meta },
    ]);
    await db.search_index_dirty.put({ note_id: 'n1', token: 't1' });
    db.close();
    db = new NotesAgentDatabase(db.name);
    expect(db.verno).toBeGreaterThanOrEqual(14);
    const loaded = await new IndexRepository(db).load();
    // The meta row names no segments: the indexer builds the new form once.
    expect(loaded.meta).toEqual(meta);
    expect(loaded.segments).toEqual([]);
    expect(await db.search_index.get('full_text')).toBeUndefined();
    expect(loaded.dirty).toEqual([{ note_id: 'n1', token: 't1' }]);
  });

  it('version 19 adds the packs and keeps the per-note rows of version 18, which load as they are', async () => {
    db = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 19));
    await db.search_index.put({ key: 'meta', ...segmentsMeta(1) });
    await db.search_segments.bulkPut([segment(1, 'a'), segment(1, 'b')]);
    db.close();
    db = new NotesAgentDatabase(db.name);
    expect(db.verno).toBe(MIGRATIONS.at(-1)!.version);
    const loaded = await new IndexRepository(db).load();
    expect(loaded.segments.map((row) => row.note_id)).toEqual(['a', 'b']);
    expect(loaded.meta?.segments?.format).toBeUndefined();
    expect(await db.search_packs.count()).toBe(0);
    await new IndexRepository(db).compact(1);
    expect((await new IndexRepository(db).load()).segments.map((row) => row.note_id)).toEqual(['a', 'b']);
    expect(await db.search_packs.count()).toBe(1);
  });

  it('refuses a pack or a row of the wrong shape with STATE_CONFLICT instead of reading past it', async () => {
    db = freshDatabase();
    const store = new IndexRepository(db);
    await store.putSegments([segment(1, 'a'), segment(1, 'b')]);
    await store.save({ generation: 1, put: [segment(1, 'c')], remove: ['b'], meta: segmentsMeta(1) }, []);
    const codeOfLoad = () =>
      store.load().then(
        () => 'loaded',
        (error: { code?: string }) => error.code ?? 'other',
      );
    expect(await codeOfLoad()).toBe('loaded');
    const [pack] = await db.search_packs.toArray();
    const damage = async (rows: unknown) => db.search_packs.put({ ...pack!, rows } as typeof pack & {});
    // Rows without their full-text part would load as notes with nothing to find, and nothing stale.
    const withoutFullText = pack!.rows.map(({ full_text: _full_text, ...row }) => row);
    for (const rows of [undefined, {}, 'rows', [null], [{ updated_at: 'u1' }], withoutFullText]) {
      await damage(rows);
      expect(await codeOfLoad()).toBe('STATE_CONFLICT');
    }
    await damage(pack!.rows);
    await db.search_segments.put({ ...segment(1, 'c'), updated_at: 7 } as unknown as ReturnType<
      typeof segment
    >);
    expect(await codeOfLoad()).toBe('STATE_CONFLICT');
    // A tombstone carries nothing but its note.
    await db.search_segments.put({ ...segment(1, 'c'), full_text: null, vectors: null, removed: true });
    expect((await store.load()).segments.map((row) => row.note_id)).toEqual(['a']);
  });

  it('lists the live notes with their updated_at, without the trashed ones', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const [a, b] = await notes.createMany([
      { title: 'a', folder: '', body: 'x', tags: [] },
      { title: 'b', folder: '', body: 'y', tags: [] },
    ]);
    await notes.setTrashed(b!.note_id, true);
    const { live } = await new IndexRepository(db).load();
    expect([...live]).toEqual([[a!.note_id, a!.updated_at]]);
  });
});

describe('NotesRepository change listener', () => {
  it('reports committed changes that matter to the indexes, and nothing for failed writes', async () => {
    db = freshDatabase();
    const changes: NoteChange[] = [];
    const notes = new NotesRepository(db, { listener: { notesChanged: (change) => changes.push(change) } });
    const [a, b] = await notes.createMany([
      { title: 'a', folder: '', body: 'x', tags: [] },
      { title: 'b', folder: '', body: 'y', tags: [] },
    ]);
    await notes.update(a!.note_id, { body: 'x2' });
    await notes.update(a!.note_id, { body: 'x2', title: 'a' }); // no indexed field changed
    await notes.update(a!.note_id, { tags: ['t'] });
    await expect(
      notes.update(a!.note_id, { body: 'refused' }, () => {
        throw new Error('conflict');
      }),
    ).rejects.toThrow('conflict');
    await notes.setTrashed(b!.note_id, true);
    await notes.setTrashed(b!.note_id, false);
    await notes.setTrashed(b!.note_id, true);
    await notes.purge(b!.note_id);
    expect(await notes.purge('missing')).toBe(false);
    await notes.deleteMany([a!.note_id]);
    expect(changes).toEqual([
      { kind: 'upserted', note_ids: [a!.note_id, b!.note_id] },
      { kind: 'upserted', note_ids: [a!.note_id] },
      { kind: 'upserted', note_ids: [a!.note_id] },
      { kind: 'removed', note_ids: [b!.note_id] },
      { kind: 'upserted', note_ids: [b!.note_id] },
      { kind: 'removed', note_ids: [b!.note_id] },
      { kind: 'removed', note_ids: [b!.note_id] },
      { kind: 'removed', note_ids: [a!.note_id] },
    ]);
  });

  it('a throwing listener does not fail the write', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db, {
      listener: {
        notesChanged: () => {
          throw new Error('listener bug');
        },
      },
    });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const note = await notes.create({ title: 't', folder: '', body: 'b', tags: [] });
      expect(await notes.get(note.note_id)).toMatchObject({ title: 't' });
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });

  it('counts the blocks of most of a notebook as one per-note sum would', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const created = await notes.createMany(
      Array.from({ length: 80 }, (_, i) => ({
        title: `n${i}`,
        folder: '',
        tags: [],
        // 1 to 4 blocks each, so a wrong subtraction shows.
        body: Array.from({ length: (i % 4) + 1 }, (_, b) => `para ${i}.${b}`).join('\n\n'),
      })),
    );
    const perNote = async (ids: string[]) => {
      let total = 0;
      for (const id of ids) total += await notes.countBlocks([id]);
      return total;
    };
    const ids = created.map((note) => note.note_id);
    // All, all but a few (counted as the store less those), a few, and ids that do not exist.
    for (const asked of [ids, ids.slice(5), [...ids.slice(0, 70), 'missing'], ids.slice(0, 3)]) {
      expect(await notes.countBlocks(asked)).toBe(await perNote(asked.filter((id) => id !== 'missing')));
    }
    expect(await notes.countBlocks(ids)).toBe(await db.blocks.count());
    expect(await notes.countBlocks([])).toBe(0);
  });

  it('reads the live notes with their blocks in order for the indexer', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const live = await notes.create({
      title: 'live',
      folder: 'f',
      body: '# h\n\npara\n\n- item',
      tags: ['t'],
    });
    const trashed = await notes.create({ title: 'gone', folder: '', body: 'z', tags: [] });
    await notes.setTrashed(trashed.note_id, true);
    const sources = await notes.indexSources([live.note_id, trashed.note_id, 'missing']);
    expect(sources).toHaveLength(1);
    expect(sources[0]?.note.title).toBe('live');
    expect(sources[0]?.blocks.map((block) => [block.type, block.position])).toEqual([
      ['heading', 0],
      ['paragraph', 1],
      ['list', 2],
    ]);
    expect(await notes.liveNoteIds()).toEqual([live.note_id]);
    expect(await notes.countBlocks([live.note_id])).toBe(3);
    const [first, missing] = await notes.blocksById([sources[0]!.blocks[1]!.block_id, 'block_missing']);
    expect(first).toMatchObject({ type: 'paragraph', start_line: 2 });
    expect(missing).toBeUndefined();
  });
});
