import type { DBCore, DBCoreTable } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { NotesRepository } from './notes-repository';
import { MIGRATIONS, type NoteRow } from './schema';
import { NotesAgentDatabase as Database } from './database';
import { freshDatabase } from './test-database';

const freshDatabaseNamed = (name: string) => new Database(name);

let db: Database;
afterEach(async () => db?.delete());

/** Ids of every note row the database handed out with its values (body included). */
function recordRowReads(database: Database): string[] {
  const read: string[] = [];
  const record = (values: unknown[]) => {
    for (const value of values) {
      if (value && typeof value === 'object' && 'body' in value) read.push((value as NoteRow).note_id);
    }
  };
  database.use({
    stack: 'dbcore',
    name: 'record-note-reads',
    create: (down: DBCore) => ({
      ...down,
      table: (name: string): DBCoreTable => {
        const table = down.table(name);
        if (name !== 'notes') return table;
        return {
          ...table,
          get: async (request) => {
            const value: unknown = await table.get(request);
            record([value]);
            return value;
          },
          getMany: async (request) => {
            const values: unknown[] = await table.getMany(request);
            record(values);
            return values;
          },
          query: async (request) => {
            const result = await table.query(request);
            if (request.values) record(result.result);
            return result;
          },
          openCursor: async (request) => {
            if (request.values) throw new Error('the note list must not walk rows with a value cursor');
            return table.openCursor(request);
          },
        };
      },
    }),
  });
  return read;
}

function repository() {
  db = freshDatabase();
  return new NotesRepository(db, { now: () => '2026-01-01T00:00:00.000Z' });
}

describe('NotesRepository.list', () => {
  it('reads no note row at all: the page comes from the meta rows, with sizes', async () => {
    const notes = repository();
    const read = recordRowReads(db);
    const drafts = Array.from({ length: 250 }, (_, i) => ({
      title: `Note ${i}`,
      folder: i % 2 === 0 ? 'even' : 'odd',
      body: `body ${i} `.repeat(50),
      tags: i % 3 === 0 ? ['three'] : [],
      updated_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    await notes.createMany(drafts);
    read.length = 0;

    const page = await notes.list({ trashed: false, recursive: true, limit: 100, offset: 100 });
    expect(page.total).toBe(250);
    expect(page.items.map((item) => item.title)).toEqual(
      Array.from({ length: 100 }, (_, i) => `Note ${149 - i}`),
    );
    expect(page.items[0]).toMatchObject({
      excerpt: expect.stringMatching(/^body 149 body 149/),
      body_length: 450,
    });
    expect(page.items[0]).not.toHaveProperty('body');
    expect(read).toEqual([]);

    for (const sort of ['title', 'created_at'] as const) {
      read.length = 0;
      const filtered = await notes.list({
        trashed: false,
        sort,
        folder: 'even',
        recursive: false,
        tag: 'three',
        title_query: 'note',
        limit: 10,
        offset: 0,
      });
      expect(filtered.total).toBe(42);
      expect(filtered.items).toHaveLength(10);
      expect(read).toEqual([]);
    }
  });

  it('pages pinned notes first and keeps ties in one stable order across pages', async () => {
    const notes = repository();
    // Every note has the same times: only the pins and the ids decide the order.
    const created = await notes.createMany(
      Array.from({ length: 23 }, (_, i) => ({
        title: i % 2 === 0 ? 'same' : `t${i}`,
        folder: '',
        body: `b${i}`,
        tags: [],
        pinned: i % 5 === 0,
      })),
    );
    const pinned = new Set(created.filter((note) => note.pinned).map((note) => note.note_id));
    for (const sort of ['updated_at', 'created_at', 'title'] as const) {
      const whole = await notes.list({ trashed: false, sort, recursive: true, limit: 100, offset: 0 });
      const paged: string[] = [];
      for (let offset = 0; offset < whole.total; offset += 4) {
        const page = await notes.list({ trashed: false, sort, recursive: true, limit: 4, offset });
        expect(page.total).toBe(23);
        paged.push(...page.items.map((item) => item.note_id));
      }
      const ids = whole.items.map((item) => item.note_id);
      expect(paged).toEqual(ids);
      expect(new Set(paged).size).toBe(23);
      expect(ids.slice(0, pinned.size).every((id) => pinned.has(id))).toBe(true);
      if (sort !== 'title') {
        // Equal times: newest-change order breaks ties by id, descending.
        const byId = (group: string[]) => [...group].sort().reverse();
        expect(ids.slice(0, pinned.size)).toEqual(byId(ids.slice(0, pinned.size)));
        expect(ids.slice(pinned.size)).toEqual(byId(ids.slice(pinned.size)));
      }
    }
  });
});

/** A row as a version before the meta rows wrote it: straight into the notes store, nothing beside it. */
function legacyRow(noteId: string, body: string, fields: Partial<NoteRow> = {}): NoteRow {
  return {
    note_id: noteId,
    title: noteId,
    folder: '',
    body,
    tags: [],
    version: 1,
    created_at: '2020-01-01T00:00:00.000Z',
    updated_at: '2020-01-01T00:00:00.000Z',
    deleted_at: null,
    trashed: 0,
    ...fields,
  };
}

describe('note meta rows', () => {
  it('a note an older version wrote is read once to list it, and from its meta row from then on', async () => {
    const notes = repository();
    const read = recordRowReads(db);
    await db.notes.add(legacyRow('note_old', `# Old log\n\n${'line of the log\n'.repeat(10_000)}`));
    const first = await notes.list({ trashed: false, recursive: true, limit: 10, offset: 0 });
    expect(first.items).toEqual([
      expect.objectContaining({
        note_id: 'note_old',
        excerpt: expect.stringMatching(/^Old log line of the log line of the log/),
        body_length: 11 + 16 * 10_000,
      }),
    ]);
    expect(read).toEqual(['note_old']);
    read.length = 0;
    const again = await notes.list({ trashed: false, recursive: true, limit: 10, offset: 0 });
    expect(again.items).toEqual(first.items);
    expect(read).toEqual([]);
  });

  it('follows every write of the note: edits, trash, pins, folder moves, purges', async () => {
    const notes = repository();
    const listed = async (trashed = false) =>
      (await notes.list({ trashed, recursive: true, limit: 10, offset: 0 })).items;
    const [a, b, c] = await notes.createMany([
      { title: 'A', folder: 'f', body: 'first text', tags: [] },
      { title: 'B', folder: '', body: 'bee', tags: [] },
      { title: 'C', folder: '', body: 'sea', tags: [] },
    ]);
    await notes.update(a!.note_id, { body: 'second text, longer', title: 'A2' });
    expect((await listed()).find((item) => item.note_id === a!.note_id)).toMatchObject({
      title: 'A2',
      excerpt: 'second text, longer',
      body_length: 19,
      version: 2,
    });
    await notes.setPinned(b!.note_id, true);
    expect((await listed())[0]).toMatchObject({ note_id: b!.note_id, pinned: true });
    await notes.renameFolder('f', 'g');
    expect((await listed()).find((item) => item.note_id === a!.note_id)?.folder).toBe('g');
    await notes.setTrashed(c!.note_id, true);
    expect((await listed(true)).map((item) => [item.note_id, item.deleted_at !== null])).toEqual([
      [c!.note_id, true],
    ]);
    await notes.purgeTrashed();
    await notes.purge(b!.note_id);
    await notes.deleteMany([a!.note_id]);
    expect(await db.note_meta.count()).toBe(0);
  });

  it('a rolled-back import finds its notes by their meta rows, reading no body', async () => {
    const notes = repository();
    const read = recordRowReads(db);
    await notes.createMany([{ title: 'kept', folder: '', body: 'x', tags: [] }]);
    await notes.createMany(
      [
        { title: 'imported 1', folder: '', body: 'y', tags: [] },
        { title: 'imported 2', folder: '', body: 'z', tags: [] },
      ],
      { importBatch: 'job_1' },
    );
    read.length = 0;
    expect(await notes.deleteImportBatch('job_1')).toBe(2);
    expect(read).toEqual([]);
    expect((await notes.list({ trashed: false, recursive: true, limit: 10, offset: 0 })).items).toEqual([
      expect.objectContaining({ title: 'kept' }),
    ]);
  });

  it('the indexer gets a long note without its body and only its blocks up to the cap', async () => {
    const notes = repository();
    const read = recordRowReads(db);
    const paragraphs = Array.from({ length: 10 }, (_, i) => `${i}`.repeat(99));
    const [long, short] = await notes.createMany([
      { title: 'long', folder: '', body: paragraphs.join('\n\n'), tags: ['t'] },
      { title: 'short', folder: '', body: 'one\n\ntwo', tags: [] },
    ]);
    read.length = 0;
    const sources = await notes.indexSources([long!.note_id, short!.note_id], 250);
    expect(read).toEqual([]);
    expect(sources[0]?.note).toEqual(expect.objectContaining({ title: 'long', tags: ['t'] }));
    expect(sources[0]?.note).not.toHaveProperty('body');
    // Up to the cap and the block that crosses it: the indexer sees the note goes on.
    expect(sources[0]?.blocks.map((block) => block.text)).toEqual(paragraphs.slice(0, 3));
    expect(sources[1]?.blocks.map((block) => block.text)).toEqual(['one', 'two']);
    // A note an older version wrote gets its meta row on the way.
    await db.notes.add(legacyRow('note_old', 'legacy text'));
    expect((await notes.indexSources(['note_old']))[0]?.note.title).toBe('note_old');
    expect(await db.note_meta.get('note_old')).toMatchObject({ body_length: 11, excerpt: 'legacy text' });
  });
});

describe('version 18', () => {
  it('fills the meta row of every note, keeping the import batch', async () => {
    db = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 18));
    await db.open();
    await db
      .table('notes')
      .bulkAdd([
        legacyRow('note_a', `---\ntitle: A\n---\n${'a'.repeat(100 * 1024)}`),
        legacyRow('note_b', 'bee', { import_batch: 'job_9', trashed: 1, deleted_at: 'x' }),
      ]);
    db.close();
    const upgraded = freshDatabaseNamed(db.name);
    db = upgraded;
    expect(await upgraded.note_meta.get('note_a')).toMatchObject({
      body_length: 17 + 100 * 1024,
      excerpt: `${'a'.repeat(160)}…`,
    });
    expect(await upgraded.note_meta.get('note_b')).toMatchObject({ import_batch: 'job_9', trashed: 1 });
    expect(await upgraded.note_meta.get('note_b')).not.toHaveProperty('body');
    expect(await new NotesRepository(upgraded).deleteImportBatch('job_9')).toBe(1);
  });
});

describe('version 23: inline tags', () => {
  it('fills every meta row with its inline tags, counts them and marks tagged notes for search', async () => {
    db = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 23));
    await db.open();
    const rows = [
      legacyRow('note_a', 'Reading #读书笔记 and #project/alpha', { tags: ['Project/Alpha'] }),
      legacyRow('note_b', '```\n#notatag\n```\n# Heading only', { tags: ['os'] }),
      legacyRow('note_c', 'also #读书笔记', { trashed: 1, deleted_at: 'x' }),
      legacyRow('note_d', 'more #读书笔记 here'),
    ];
    await db.table('notes').bulkAdd(rows);
    db.close();
    const upgraded = freshDatabaseNamed(db.name);
    db = upgraded;
    expect(await upgraded.note_meta.get('note_a')).toMatchObject({
      inline_tags: ['读书笔记', 'project/alpha'],
      all_tags: ['Project/Alpha', '读书笔记'],
    });
    expect(await upgraded.note_meta.get('note_b')).not.toHaveProperty('inline_tags');
    const notes = new NotesRepository(upgraded);
    expect(await notes.tags()).toEqual([
      { tag: '读书笔记', note_count: 2 },
      { tag: 'os', note_count: 1 },
      { tag: 'Project/Alpha', note_count: 1 },
    ]);
    // The front matter's own tags stay what they were: nothing is moved there.
    expect((await notes.get('note_a'))?.tags).toEqual(['Project/Alpha']);
    // Live notes with inline tags are re-indexed, so search's tag filter sees them.
    expect((await upgraded.search_index_dirty.toArray()).map((row) => row.note_id).sort()).toEqual([
      'note_a',
      'note_d',
    ]);
  });
});
