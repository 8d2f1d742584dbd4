import { afterEach, describe, expect, it } from 'vitest';
import type { DBCore } from 'dexie';
import type { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import { encodeWav, sine } from '../media/__fixtures__/synthetic-audio';
import { createCoreApi } from './core-api';

const opened: Array<{ db: NotesAgentDatabase; dispose: () => void; idle: () => Promise<void> }> = [];

function openCore() {
  const db = freshDatabase();
  const core = { ...createCoreApi(db, { indexDebounceMs: 1 }), db };
  opened.push(core);
  return core;
}

/**
 * A core whose database counts every read of the `notes` store that hands out
 * rows (a key-only read counts nothing): a row is the whole body.
 */
function openCountingCore() {
  const db = freshDatabase();
  const reads = { rows: 0, on: false };
  db.use({
    stack: 'dbcore',
    name: 'count-note-row-reads',
    create: (down: DBCore): DBCore => ({
      ...down,
      table: (name) => {
        const table = down.table(name);
        if (name !== 'notes') return table;
        const count = (rows: number) => {
          if (reads.on) reads.rows += rows;
        };
        return {
          ...table,
          get: (request) => (count(1), table.get(request)),
          getMany: (request) => (count(request.keys.length), table.getMany(request)),
          query: (request) => (count(request.values ? 1 : 0), table.query(request)),
          openCursor: (request) => (count(request.values ? 1 : 0), table.openCursor(request)),
        };
      },
    }),
  });
  const core = { ...createCoreApi(db, { indexDebounceMs: 1 }), db, reads };
  opened.push(core);
  return core;
}

afterEach(async () => {
  for (const core of opened.splice(0)) {
    await core.idle().catch(() => undefined);
    core.dispose();
    await core.db.delete();
  }
});

describe('StorageService', () => {
  it('is all zero for an empty notebook', async () => {
    const { api } = openCore();
    expect(await api.storage.usage()).toEqual({
      notes: { count: 0, bytes: 0 },
      trash: { count: 0, bytes: 0 },
      attachments: { count: 0, bytes: 0 },
      note_versions: { count: 0, bytes: 0 },
    });
  });

  it('counts notes and the trash apart, in UTF-8 bytes, and attachments by their size', async () => {
    const { api } = openCore();
    await api.notes.create({ title: 'Tea', body: '绿茶' });
    const gone = await api.notes.create({ title: 'Old', body: 'x' });
    await api.notes.trash(gone.note_id);
    const wav = encodeWav({ sampleRate: 16_000, channels: [sine(220, 1, 16_000, 0.1)], encoding: 'pcm16' });
    await api.attachments.upload({ name: 'a.wav', mime_type: 'audio/wav', data: wav });
    const usage = await api.storage.usage();
    expect(usage.notes).toEqual({ count: 1, bytes: 3 + 6 });
    expect(usage.trash).toEqual({ count: 1, bytes: 4 });
    expect(usage.attachments).toEqual({ count: 1, bytes: wav.byteLength });
  });

  it('sizes the notes from their meta rows: no note row (no body) is read', async () => {
    const core = openCountingCore();
    const bodies = ['绿茶和乌龙茶 🍵', `${'中文 and English 😀. '.repeat(5000)}\n`, 'plain'];
    for (const [index, body] of bodies.entries())
      await core.api.notes.create({ title: `标题 ${index}`, body });
    const gone = await core.api.notes.create({ title: 'Old 😀', body: '旧' });
    await core.api.notes.trash(gone.note_id);
    await core.idle();
    const encoded = (text: string) => new TextEncoder().encode(text).length;

    core.reads.on = true;
    const usage = await core.api.storage.usage();
    core.reads.on = false;
    expect(core.reads.rows).toBe(0);
    expect(usage.notes).toEqual({
      count: 3,
      bytes: bodies.reduce((sum, body, index) => sum + encoded(`标题 ${index}`) + encoded(body), 0),
    });
    expect(usage.trash).toEqual({ count: 1, bytes: encoded('Old 😀') + encoded('旧') });
  });

  it('still counts a note without a meta row (read alone), and not a meta row whose note is gone', async () => {
    const { api, db } = openCore();
    const kept = await api.notes.create({ title: 'Kept', body: '留下 🍵' });
    const bare = await api.notes.create({ title: 'Bare', body: '没有元数据' });
    await db.note_meta.delete(bare.note_id);
    await db.note_meta.put({ ...(await db.note_meta.get(kept.note_id))!, note_id: 'note_purged' });
    const encoded = (text: string) => new TextEncoder().encode(text).length;
    expect((await api.storage.usage()).notes).toEqual({
      count: 2,
      bytes: encoded('Kept') + encoded('留下 🍵') + encoded('Bare') + encoded('没有元数据'),
    });
  });

  it('gives the same figures as encoding every text, for mixed ASCII and Chinese notes, the trash and versions', async () => {
    const { api, db } = openCore();
    const texts = [
      ['Plain', 'Just ASCII text.\n\nTwo paragraphs.'],
      ['绿茶', '绿茶和乌龙茶，both teas. 😀'],
      ['Mixed 中文', `${'中文 and English. '.repeat(2000)}\n`],
      ['Empty', ''],
    ];
    const created = [];
    for (const [title, body] of texts) created.push(await api.notes.create({ title: title!, body: body! }));
    await api.notes.update({ note_id: created[0]!.note_id, body: '改过的 text', expected_version: 1 });
    await api.notes.trash(created[1]!.note_id);

    // What the figures were before: every title and body encoded to bytes.
    const encoded = (...parts: string[]) =>
      parts.reduce((sum, part) => sum + new TextEncoder().encode(part).length, 0);
    const old = { notes: 0, trash: 0, versions: 0 };
    for (const row of await db.notes.toArray())
      old[row.trashed === 1 ? 'trash' : 'notes'] += encoded(row.title, row.body);
    const versions = await db.table<{ title: string; body: string }>('note_versions').toArray();
    for (const row of versions) old.versions += encoded(row.title, row.body);

    const usage = await api.storage.usage();
    expect(usage.notes).toEqual({ count: 3, bytes: old.notes });
    expect(usage.trash).toEqual({ count: 1, bytes: old.trash });
    expect(usage.note_versions).toEqual({ count: versions.length, bytes: old.versions });
    expect(versions.length).toBeGreaterThan(0);
    expect(old.notes).toBeGreaterThan(usage.notes.count * 10);
  });
});
