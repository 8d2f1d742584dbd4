import type { DBCore, DBCoreTable } from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import { NotesRepository } from './notes-repository';
import type { NoteRow } from './schema';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

/** Ids of every note row the database handed out with its values (body included). */
function recordRowReads(database: NotesAgentDatabase): string[] {
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
  it('reads only the rows of the page asked for', async () => {
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
    expect(new Set(read)).toEqual(new Set(page.items.map((item) => item.note_id)));
    expect(read).toHaveLength(100);

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
      expect(read.sort()).toEqual(filtered.items.map((item) => item.note_id).sort());
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
