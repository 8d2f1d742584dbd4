import { afterEach, describe, expect, it } from 'vitest';
import { NotesAgentDatabase } from './database';
import { NotesRepository } from './notes-repository';
import { MIGRATIONS, excerptOf, type NoteMetaRow, type NoteRow } from './schema';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase | undefined;

afterEach(async () => {
  await db?.delete();
  db = undefined;
});

const bytesOf = (text: string): number => new TextEncoder().encode(text).length;

function legacyRow(noteId: string, body: string, extra: Partial<NoteRow> = {}): NoteRow {
  return {
    note_id: noteId,
    title: noteId,
    folder: '',
    body,
    tags: [],
    version: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    deleted_at: null,
    trashed: 0,
    ...extra,
  };
}

/** The meta row version 19 wrote: everything but `body_bytes`. */
function v19Meta(row: NoteRow): Omit<NoteMetaRow, 'body_bytes'> {
  const { body, ...rest } = row;
  return { ...rest, excerpt: excerptOf(body), body_length: body.length };
}

const BODIES: Record<string, string> = {
  note_zh: '# 绿茶\n\n绿茶和乌龙茶都是茶。',
  // Each emoji is a surrogate pair: two code units, four bytes.
  note_emoji: 'Tea time 🍵😀, then 🫖.\n',
  note_mixed: `${'中文 and English 😀. '.repeat(3000)}\n`,
  note_ascii: 'Plain ASCII text.',
  note_empty: '',
};

describe('version 20: body_bytes', () => {
  it('fills every meta row from 19, a page at a time, with Chinese and emoji bodies counted as UTF-8', async () => {
    db = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 20));
    await db.open();
    const rows = Object.entries(BODIES).map(([id, body]) => legacyRow(id, body));
    // More notes than one upgrade page, so the fill goes on past the first.
    for (let index = 0; index < 450; index++) {
      rows.push(legacyRow(`note_${String(index).padStart(3, '0')}`, `第 ${index} 条 note ✓`));
    }
    rows.push(
      legacyRow('note_trashed', '回收站里的笔记 🗑', { trashed: 1, deleted_at: 'x', import_batch: 'job_1' }),
    );
    await db.table('notes').bulkAdd(rows);
    // A note an older version wrote straight into the store has no meta row at all.
    const withMeta = rows.filter((row) => row.note_id !== 'note_ascii');
    await db.table('note_meta').bulkAdd(withMeta.map(v19Meta));
    const name = db.name;
    db.close();

    db = new NotesAgentDatabase(name);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(20);
    const metas = await db.note_meta.toArray();
    expect(metas).toHaveLength(rows.length);
    for (const row of rows) {
      const meta = metas.find((entry) => entry.note_id === row.note_id);
      expect(meta, row.note_id).toEqual({ ...v19Meta(row), body_bytes: bytesOf(row.body) });
    }
    expect(metas.find((meta) => meta.note_id === 'note_emoji')?.body_bytes).toBe(bytesOf(BODIES.note_emoji!));
    // Chinese is three bytes a character, an emoji four: far from the UTF-16 length.
    const zh = metas.find((meta) => meta.note_id === 'note_zh')!;
    expect(zh.body_bytes).toBeGreaterThan(zh.body_length);
    expect(metas.find((meta) => meta.note_id === 'note_trashed')).toMatchObject({
      trashed: 1,
      import_batch: 'job_1',
    });
  });

  it('upgrades an empty notebook', async () => {
    db = freshDatabase(MIGRATIONS.filter((migration) => migration.version < 20));
    await db.open();
    const name = db.name;
    db.close();
    db = new NotesAgentDatabase(name);
    await db.open();
    expect(db.verno).toBeGreaterThanOrEqual(20);
    expect(await db.note_meta.count()).toBe(0);
  });
});

describe('the repository keeps body_bytes with every write', () => {
  it('creates, edits, retitles, trashes and restores with the size of the body as it is', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const bytes = async (id: string) => (await db!.note_meta.get(id))?.body_bytes;
    const [zh, emoji] = await notes.createMany([
      { title: '茶', folder: '', body: BODIES.note_zh!, tags: [] },
      { title: 'Emoji', folder: '', body: BODIES.note_emoji!, tags: [] },
    ]);
    expect(await bytes(zh!.note_id)).toBe(bytesOf(BODIES.note_zh!));
    expect(await bytes(emoji!.note_id)).toBe(bytesOf(BODIES.note_emoji!));

    const edited = '改过的 text 😀😀';
    await notes.update(zh!.note_id, { body: edited });
    expect(await bytes(zh!.note_id)).toBe(bytesOf(edited));
    // A title change keeps the body's size.
    await notes.update(zh!.note_id, { title: '新的标题' });
    expect(await bytes(zh!.note_id)).toBe(bytesOf(edited));
    await notes.setTrashed(zh!.note_id, true);
    expect(await db.note_meta.get(zh!.note_id)).toMatchObject({ trashed: 1, body_bytes: bytesOf(edited) });
    await notes.setTrashed(zh!.note_id, false);
    expect(await bytes(zh!.note_id)).toBe(bytesOf(edited));
    // A lone surrogate is written as U+FFFD (three bytes), as TextEncoder does.
    await notes.update(emoji!.note_id, { body: 'half \ud83d pair' });
    expect(await bytes(emoji!.note_id)).toBe(bytesOf('half \ud83d pair'));
    await notes.update(emoji!.note_id, { body: '' });
    expect(await bytes(emoji!.note_id)).toBe(0);
  });

  it('gives a note an older version wrote the size when it first makes its meta row', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    await db.notes.add(legacyRow('note_old', '旧的笔记 🍵'));
    await notes.indexSources(['note_old']);
    expect(await db.note_meta.get('note_old')).toMatchObject({ body_bytes: bytesOf('旧的笔记 🍵') });
  });
});
