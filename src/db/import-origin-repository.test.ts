import { afterEach, describe, expect, it } from 'vitest';
import { NotesAgentDatabase } from './database';
import { ImportOriginRepository, type ImportOriginRow } from './import-origin-repository';
import { MIGRATIONS } from './schema';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase | undefined;
afterEach(async () => db?.delete());

const origin = (note_id: string, source_path: string): ImportOriginRow => ({
  note_id,
  source_path,
  title: source_path.replace(/\.md$/u, ''),
  folder: '',
  body_hash: `hash of ${note_id}`,
  imported_at: '2026-01-01T00:00:00.000Z',
});

describe('ImportOriginRepository', () => {
  it('finds notes by the paths they were imported from, one note per path and one path per note', async () => {
    db = freshDatabase();
    const origins = new ImportOriginRepository(db);
    await origins.record([origin('note_a', 'os/进程调度.md'), origin('note_b', 'os/虚拟内存.md')]);
    expect((await origins.byPaths(['os/进程调度.md', 'os/missing.md'])).map((row) => row.note_id)).toEqual([
      'note_a',
    ]);

    // A later import of the same path into another note (kept both) takes the path over.
    await origins.record([origin('note_c', 'os/进程调度.md')]);
    expect((await origins.byPaths(['os/进程调度.md'])).map((row) => row.note_id)).toEqual(['note_c']);
    expect(await origins.byNotes(['note_a'])).toEqual([]);

    // A note imported again from another path (moved in the vault) keeps one row, at the new path.
    await origins.record([origin('note_b', 'memory/虚拟内存.md')]);
    expect(await origins.byPaths(['os/虚拟内存.md'])).toEqual([]);
    expect((await origins.byNotes(['note_b'])).map((row) => row.source_path)).toEqual(['memory/虚拟内存.md']);

    await origins.forget(['note_b']);
    expect(await origins.byNotes(['note_b'])).toEqual([]);
  });

  it('opens a database of the version before it with its notes intact, and an empty origin store', async () => {
    const before = MIGRATIONS.filter((migration) => migration.version < 24);
    const old = freshDatabase(before);
    db = old;
    await old.notes.add({
      note_id: 'note_old',
      title: 'Old',
      folder: '',
      body: 'kept',
      tags: [],
      version: 1,
      created_at: 'x',
      updated_at: 'x',
      deleted_at: null,
      trashed: 0,
    });
    old.close();

    const upgraded = new NotesAgentDatabase(old.name);
    db = upgraded;
    await upgraded.open();
    expect(upgraded.verno).toBe(24);
    expect((await upgraded.notes.get('note_old'))?.body).toBe('kept');
    const origins = new ImportOriginRepository(upgraded);
    expect(await origins.byPaths(['Old.md'])).toEqual([]);
    await origins.record([origin('note_old', 'Old.md')]);
    expect((await origins.byPaths(['Old.md'])).map((row) => row.note_id)).toEqual(['note_old']);
  });
});
