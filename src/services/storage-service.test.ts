import { afterEach, describe, expect, it } from 'vitest';
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
