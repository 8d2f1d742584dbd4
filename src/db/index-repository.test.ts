import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import { IndexRepository } from './index-repository';
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

describe('IndexRepository', () => {
  it('loads nothing from a fresh database', async () => {
    db = freshDatabase();
    expect(await new IndexRepository(db).load()).toEqual({
      fullText: undefined,
      vectors: undefined,
      meta: undefined,
      dirty: [],
    });
  });

  it('saves the indexes and clears only the dirty marks it was given, unchanged', async () => {
    db = freshDatabase();
    const store = new IndexRepository(db);
    await store.markDirty([
      { note_id: 'a', token: 't1' },
      { note_id: 'b', token: 't1' },
      { note_id: 'c', token: 't1' },
    ]);
    // b is marked again (an edit during indexing): the save must keep that mark.
    await store.markDirty([{ note_id: 'b', token: 't2' }]);
    const buffer = new Float32Array([1, 0, 0, 0]).buffer;
    await store.save(
      {
        fullText: { snapshot: { any: 'json' }, block_count: 1 },
        vectors: { model, buffer, block_count: 1 },
        meta,
      },
      [
        { note_id: 'a', token: 't1' },
        { note_id: 'b', token: 't1' },
      ],
    );
    const loaded = await store.load();
    expect(loaded.fullText).toEqual({ snapshot: { any: 'json' }, block_count: 1 });
    expect(loaded.vectors?.model).toEqual(model);
    expect(new Float32Array(loaded.vectors!.buffer)).toEqual(new Float32Array([1, 0, 0, 0]));
    expect(loaded.meta).toEqual(meta);
    expect(loaded.dirty.sort((x, y) => x.note_id.localeCompare(y.note_id))).toEqual([
      { note_id: 'b', token: 't2' },
      { note_id: 'c', token: 't1' },
    ]);

    // Without vectors, the stored vectors stay.
    await store.save({ fullText: { snapshot: {}, block_count: 0 }, meta }, []);
    expect((await store.load()).vectors?.block_count).toBe(1);
    await store.clear();
    expect((await store.load()).meta).toBeUndefined();
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
