import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../contracts';
import { testCore } from './test-core';

let current: ReturnType<typeof testCore>;
afterEach(async () => current?.close());
function setup() {
  current = testCore();
  return current.api;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
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
