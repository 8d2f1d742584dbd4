import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { MAX_BODY_LENGTH } from '../contracts/notes';
import { testCore } from './test-core';
import { codeOf } from './test-error-code';

let current: ReturnType<typeof testCore>;
afterEach(async () => current?.close());
function setup(options: Parameters<typeof testCore>[0] = {}) {
  current = testCore(options);
  return current.api;
}

/** A clock a second further on at each read: every write is later than the one before. */
function steppingClock(): () => string {
  let tick = Date.parse('2026-01-01T00:00:00.000Z');
  return () => new Date((tick += 1000)).toISOString();
}

describe('NotesService', () => {
  it('creates, reads, updates and lists notes', async () => {
    const api = setup();
    const note = await api.notes.create({
      title: '周报',
      folder: '工作',
      body: '# 本周\n\n完成了导入。',
      tags: ['work'],
    });
    expect(await api.notes.get(note.note_id)).toEqual(note);
    const updated = await api.notes.update({
      note_id: note.note_id,
      body: '# 本周\n\n完成了导出。',
      expected_version: 1,
    });
    expect(updated).toMatchObject({ version: 2, body: '# 本周\n\n完成了导出。', title: '周报' });
    const page = await api.notes.list({ folder: '工作' });
    expect(page.page.total).toBe(1);
    expect(page.items[0]).toMatchObject({ note_id: note.note_id, excerpt: '本周 完成了导出。' });
    expect(page.items[0]).not.toHaveProperty('body');
    expect((await api.notes.blocks(note.note_id)).map((b) => b.type)).toEqual(['heading', 'paragraph']);
  });

  it('rejects invalid input with VALIDATION_FAILED and writes nothing', async () => {
    const api = setup();
    expect(await codeOf(api.notes.create({ title: 'x'.repeat(501) }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.create({ folder: '../etc' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.create({ tags: 'os' as unknown as string[] }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.list({ limit: 0 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.update({ note_id: '' }))).toBe('VALIDATION_FAILED');
    expect((await api.notes.list()).page.total).toBe(0);
  });

  it('refuses a body over 5 MiB with VALIDATION_FAILED naming the sizes, keeping the stored note', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'Big', body: 'kept' });
    const tooLong = 'x'.repeat(MAX_BODY_LENGTH + 1);
    for (const attempt of [
      api.notes.update({ note_id: note.note_id, body: tooLong, expected_version: 1 }),
      api.notes.create({ title: 'Pasted', body: tooLong }),
    ]) {
      const error = await attempt.then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: "The note's text is 5.0 MiB; a note holds at most 5.0 MiB. Split it into several notes.",
        details: { field: 'body', length: MAX_BODY_LENGTH + 1, max_length: MAX_BODY_LENGTH },
      });
    }
    // Exactly at the cap is fine; the failed attempts wrote nothing.
    expect(await api.notes.get(note.note_id)).toMatchObject({ body: 'kept', version: 1 });
    expect((await api.notes.list()).page.total).toBe(1);
    const atCap = 'y'.repeat(MAX_BODY_LENGTH);
    expect((await api.notes.update({ note_id: note.note_id, body: atCap })).body).toHaveLength(
      MAX_BODY_LENGTH,
    );
  });

  it('says how far over the cap a body is', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'Big' });
    const error = await api.notes
      .update({ note_id: note.note_id, body: 'z'.repeat(6.5 * 1024 * 1024) })
      .catch((thrown: unknown) => thrown);
    expect((error as AppError).message).toBe(
      "The note's text is 6.5 MiB; a note holds at most 5.0 MiB. Split it into several notes.",
    );
  });

  it('answers NOTE_NOT_FOUND for missing notes', async () => {
    const api = setup();
    expect(await codeOf(api.notes.get('note_missing'))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.update({ note_id: 'note_missing', title: 'x' }))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.trash('note_missing'))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.purge('note_missing'))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.blocks('note_missing'))).toBe('NOTE_NOT_FOUND');
  });

  it('reports state conflicts: stale version, editing trashed notes, double trash, purging live notes', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'a', body: 'one' });
    await api.notes.update({ note_id: note.note_id, body: 'two' });
    const stale = api.notes.update({ note_id: note.note_id, body: 'three', expected_version: 1 });
    expect(await codeOf(stale)).toBe('NOTE_VERSION_CONFLICT');
    expect((await api.notes.get(note.note_id)).body).toBe('two');
    expect(await codeOf(api.notes.purge(note.note_id))).toBe('STATE_CONFLICT');
    expect(await codeOf(api.notes.restore(note.note_id))).toBe('STATE_CONFLICT');
    await api.notes.trash(note.note_id);
    expect(await codeOf(api.notes.trash(note.note_id))).toBe('STATE_CONFLICT');
    expect(await codeOf(api.notes.update({ note_id: note.note_id, body: 'x' }))).toBe('STATE_CONFLICT');
    await api.notes.restore(note.note_id);
    await api.notes.trash(note.note_id);
    await api.notes.purge(note.note_id);
    expect(await codeOf(api.notes.get(note.note_id))).toBe('NOTE_NOT_FOUND');
  });

  it('surfaces a storage failure as an error and keeps the stored note intact', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'safe', body: 'kept' });
    current.db.close();
    await expect(api.notes.update({ note_id: note.note_id, body: 'lost' })).rejects.toBeTruthy();
    await current.db.open();
    expect((await api.notes.get(note.note_id)).body).toBe('kept');
  });
});

describe('NotesService: pin, sort, empty trash', () => {
  it('sorts by change, creation or title, pinned notes first, and pinning keeps the version', async () => {
    const api = setup({ notesNow: steppingClock() });
    const banana = await api.notes.create({ title: 'banana' });
    const apple = await api.notes.create({ title: 'Apple' });
    const cherry = await api.notes.create({ title: 'cherry' });
    // banana changed last, so it leads the default order.
    await api.notes.update({ note_id: banana.note_id, body: 'ripe' });
    const titles = async (sort?: 'updated_at' | 'created_at' | 'title') =>
      (await api.notes.list(sort ? { sort } : {})).items.map((item) => item.title);
    expect(await titles()).toEqual(['banana', 'cherry', 'Apple']);
    expect(await titles('title')).toEqual(['Apple', 'banana', 'cherry']);
    expect((await api.notes.list({ sort: 'created_at' })).items.map((item) => item.note_id)).toEqual(
      [...[banana, apple, cherry]]
        .sort((a, b) => b.created_at.localeCompare(a.created_at))
        .map((n) => n.note_id),
    );

    const pinned = await api.notes.setPinned({ note_id: cherry.note_id, pinned: true });
    expect(pinned).toMatchObject({ pinned: true, version: cherry.version, updated_at: cherry.updated_at });
    expect(await titles('title')).toEqual(['cherry', 'Apple', 'banana']);
    expect(await titles()).toEqual(['cherry', 'banana', 'Apple']);
    expect((await api.notes.get(cherry.note_id)).pinned).toBe(true);
    // The editor's version still fits after a pin.
    await api.notes.update({ note_id: cherry.note_id, body: 'x', expected_version: cherry.version });
    await api.notes.setPinned({ note_id: cherry.note_id, pinned: false });
    expect(await titles('title')).toEqual(['Apple', 'banana', 'cherry']);
  });

  it('answers pin errors with their codes', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'gone soon' });
    await api.notes.trash(note.note_id);
    expect(await codeOf(api.notes.setPinned({ note_id: note.note_id, pinned: true }))).toBe('STATE_CONFLICT');
    expect(await codeOf(api.notes.setPinned({ note_id: 'note_missing', pinned: true }))).toBe(
      'NOTE_NOT_FOUND',
    );
    expect(await codeOf(api.notes.setPinned({ note_id: note.note_id, pinned: 'yes' as never }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.notes.list({ sort: 'size' as never }))).toBe('VALIDATION_FAILED');
  });

  it('empties the trash for good and leaves live notes', async () => {
    const api = setup();
    const keep = await api.notes.create({ title: 'keep', body: '# kept' });
    const a = await api.notes.create({ title: 'a', body: 'one' });
    const b = await api.notes.create({ title: 'b', body: 'two' });
    await api.notes.trash(a.note_id);
    await api.notes.trash(b.note_id);
    expect(await api.notes.emptyTrash()).toEqual({ deleted: 2 });
    expect((await api.notes.list({ trashed: true })).page.total).toBe(0);
    expect(await codeOf(api.notes.get(a.note_id))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.blocks(b.note_id))).toBe('NOTE_NOT_FOUND');
    expect((await api.notes.blocks(keep.note_id)).length).toBe(1);
    expect(await api.notes.emptyTrash()).toEqual({ deleted: 0 });
  });
});

describe('NotesService: folders', () => {
  it('makes an empty folder that the sidebar lists, and refuses a duplicate', async () => {
    const api = setup();
    await api.notes.create({ title: 'n', folder: '课程/操作系统' });
    expect(await api.notes.createFolder(' 项目 / 草稿 ')).toEqual({ path: '项目/草稿', note_count: 0 });
    expect(await api.notes.folders()).toEqual([
      { path: '课程', note_count: 1 },
      { path: '课程/操作系统', note_count: 1 },
      { path: '项目', note_count: 0 },
      { path: '项目/草稿', note_count: 0 },
    ]);
    expect(await codeOf(api.notes.createFolder('项目/草稿'))).toBe('STATE_CONFLICT');
    expect(await codeOf(api.notes.createFolder('课程'))).toBe('STATE_CONFLICT');
    expect(await codeOf(api.notes.createFolder(' / '))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.createFolder('a/../b'))).toBe('VALIDATION_FAILED');
  });

  it('renames and moves a folder with its sub-folders and notes, trashed ones too', async () => {
    const api = setup();
    const top = await api.notes.create({ title: 'top', folder: 'work' });
    const deep = await api.notes.create({ title: 'deep', folder: 'work/2026/q1' });
    const other = await api.notes.create({ title: 'other', folder: 'workshop' });
    const binned = await api.notes.create({ title: 'binned', folder: 'work/old' });
    await api.notes.trash(binned.note_id);
    await api.notes.createFolder('work/empty');

    expect(await api.notes.renameFolder({ from: 'work', to: 'archive/job' })).toEqual({
      path: 'archive/job',
      moved_notes: 3,
    });
    expect((await api.notes.get(top.note_id)).folder).toBe('archive/job');
    expect(await api.notes.get(deep.note_id)).toMatchObject({ folder: 'archive/job/2026/q1', version: 2 });
    expect((await api.notes.get(other.note_id)).folder).toBe('workshop');
    expect((await api.notes.get(binned.note_id)).folder).toBe('archive/job/old');
    expect((await api.notes.folders()).map((folder) => folder.path)).toEqual([
      'archive',
      'archive/job',
      'archive/job/2026',
      'archive/job/2026/q1',
      'archive/job/empty',
      'workshop',
    ]);
    // The filter by the new path finds the moved notes.
    expect((await api.notes.list({ folder: 'archive' })).page.total).toBe(2);
  });

  it('answers folder errors with their codes and changes nothing', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'n', folder: 'a/b' });
    expect(await codeOf(api.notes.renameFolder({ from: 'nowhere', to: 'x' }))).toBe('FOLDER_NOT_FOUND');
    expect(await codeOf(api.notes.renameFolder({ from: 'a', to: 'a/b/c' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.renameFolder({ from: 'a', to: 'a' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.renameFolder({ from: 'a', to: '' }))).toBe('VALIDATION_FAILED');
    expect(await api.notes.get(note.note_id)).toMatchObject({ folder: 'a/b', version: 1 });
  });
});

describe('SettingsService', () => {
  it('returns defaults, validates updates and never returns secret values', async () => {
    const api = setup();
    expect(await api.settings.get()).toEqual({ locale: null, theme: 'system', autosave_delay_ms: 600 });
    expect(await api.settings.update({ locale: 'zh-CN' })).toMatchObject({ locale: 'zh-CN' });
    expect((await api.settings.get()).locale).toBe('zh-CN');
    expect(await codeOf(api.settings.update({ locale: 'fr' as 'en' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.settings.update({ autosave_delay_ms: 5 }))).toBe('VALIDATION_FAILED');
    const status = await api.settings.putSecret({ name: 'provider.openai.api_key', value: 'sk-abc123' });
    expect(status).toMatchObject({ configured: true });
    expect(JSON.stringify(await api.settings.listSecrets())).not.toContain('sk-abc123');
    expect(await codeOf(api.settings.putSecret({ name: 'bad name!', value: 'x' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.settings.deleteSecret('provider.none'))).toBe('SECRET_NOT_FOUND');
    await api.settings.deleteSecret('provider.openai.api_key');
    expect(await api.settings.listSecrets()).toEqual([]);
  });
});
