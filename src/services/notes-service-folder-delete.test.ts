import { afterEach, describe, expect, it, vi } from 'vitest';
import { testCore } from './test-core';
import { codeOf, expectCode } from './test-error-code';

let current: ReturnType<typeof testCore>;
afterEach(async () => {
  vi.restoreAllMocks();
  await current?.close();
});
function setup() {
  current = testCore();
  return current.api;
}

const paths = async (api: ReturnType<typeof setup>) => (await api.notes.folders()).map((f) => f.path);

describe('NotesService.deleteFolder', () => {
  it('moves the folder’s notes, sub-folders’ too, to the trash and takes the folders away', async () => {
    const api = setup();
    const top = await api.notes.create({ title: 'top', folder: '课程' });
    const deep = await api.notes.create({ title: 'deep', folder: '课程/操作系统/进程' });
    const neighbour = await api.notes.create({ title: 'neighbour', folder: '课程表' });
    const binned = await api.notes.create({ title: 'binned', folder: '课程/旧' });
    await api.notes.trash(binned.note_id);
    await api.notes.createFolder('课程/空的');

    const deleted = await api.notes.deleteFolder({ path: ' 课程 ', expected_note_count: 2 });
    expect(deleted).toMatchObject({ path: '课程', folders: ['课程/空的'] });
    expect(new Set(deleted.note_ids)).toEqual(new Set([top.note_id, deep.note_id]));

    expect(await paths(api)).toEqual(['课程表']);
    const trash = await api.notes.list({ trashed: true });
    expect(trash.items.map((note) => note.title).sort()).toEqual(['binned', 'deep', 'top']);
    // Each keeps its folder: restoring one puts it back there, and its folders with it.
    expect(await api.notes.get(deep.note_id)).toMatchObject({ folder: '课程/操作系统/进程', version: 2 });
    expect((await api.notes.get(neighbour.note_id)).deleted_at).toBeNull();
    await api.notes.restore(deep.note_id);
    expect(await paths(api)).toEqual(['课程', '课程/操作系统', '课程/操作系统/进程', '课程表']);
    // The folder can be made again once nothing live is in it.
    await api.notes.deleteFolder({ path: '课程' });
    expect(await api.notes.createFolder('课程')).toEqual({ path: '课程', note_count: 0 });
  });

  it('takes an empty folder away with nothing sent to the trash', async () => {
    const api = setup();
    await api.notes.createFolder('草稿/空');
    expect(await api.notes.deleteFolder({ path: '草稿', expected_note_count: 0 })).toMatchObject({
      note_ids: [],
      folders: ['草稿/空'],
    });
    expect(await paths(api)).toEqual([]);
    expect((await api.notes.list({ trashed: true })).page.total).toBe(0);
  });

  it('its answer takes it back: the notes it trashed and the folders made there', async () => {
    const api = setup();
    const inside = await api.notes.create({ title: 'inside', folder: 'work/q1' });
    const earlier = await api.notes.create({ title: 'earlier', folder: 'work' });
    await api.notes.trash(earlier.note_id);
    await api.notes.createFolder('work/empty');
    const deleted = await api.notes.deleteFolder({ path: 'work' });

    expect(await api.notes.restoreDeletedFolder(deleted)).toEqual({ path: 'work', restored_notes: 1 });
    expect(await paths(api)).toEqual(['work', 'work/empty', 'work/q1']);
    expect((await api.notes.get(inside.note_id)).deleted_at).toBeNull();
    // A note that was in the trash before stays there.
    expect((await api.notes.get(earlier.note_id)).deleted_at).not.toBeNull();
    // Again: nothing is left to take back, and nothing changes.
    expect(await api.notes.restoreDeletedFolder(deleted)).toEqual({ path: 'work', restored_notes: 0 });
    expect((await api.notes.get(inside.note_id)).version).toBe(3);
  });

  it('refuses invalid input and a folder that is not there, changing nothing', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'n', folder: 'a/b' });
    const trashedOnly = await api.notes.create({ title: 't', folder: 'gone' });
    await api.notes.trash(trashedOnly.note_id);
    for (const path of ['', ' / ', 'a/../b'])
      expect(await codeOf(api.notes.deleteFolder({ path }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.notes.deleteFolder({ path: 'a', expected_note_count: -1 }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(await codeOf(api.notes.deleteFolder({ path: 'nowhere' }))).toBe('FOLDER_NOT_FOUND');
    // `a/b` is not `a/b2`, and a folder whose notes are all in the trash is not in the tree.
    expect(await codeOf(api.notes.deleteFolder({ path: 'a/b2' }))).toBe('FOLDER_NOT_FOUND');
    expect(await codeOf(api.notes.deleteFolder({ path: 'gone' }))).toBe('FOLDER_NOT_FOUND');
    expect(
      await codeOf(
        api.notes.restoreDeletedFolder({ path: 'a', note_ids: [], folders: ['elsewhere'], deleted_at: 'x' }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(await api.notes.get(note.note_id)).toMatchObject({ folder: 'a/b', version: 1, deleted_at: null });
  });

  it('refuses when the folder holds other notes than the confirmation said (409), changing nothing', async () => {
    const api = setup();
    const first = await api.notes.create({ title: 'first', folder: 'inbox' });
    // Another tab added a note after the user was asked about one.
    await api.notes.create({ title: 'second', folder: 'inbox/later' });
    const error = await expectCode(
      api.notes.deleteFolder({ path: 'inbox', expected_note_count: 1 }),
      'STATE_CONFLICT',
    );
    expect(error.details).toMatchObject({ folder: 'inbox', expected_note_count: 1, note_count: 2 });
    expect(await api.notes.get(first.note_id)).toMatchObject({ deleted_at: null, version: 1 });
    expect(await paths(api)).toEqual(['inbox', 'inbox/later']);
  });

  it('leaves nothing half-deleted when a write fails inside the transaction', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'kept', folder: 'proj' });
    await api.notes.createFolder('proj/empty');
    // The notes are written first; the folders' rows go last and fail.
    vi.spyOn(current.db.folders, 'bulkDelete').mockRejectedValueOnce(new Error('disk went away'));
    await expect(api.notes.deleteFolder({ path: 'proj' })).rejects.toThrow('disk went away');
    expect(await api.notes.get(note.note_id)).toMatchObject({ deleted_at: null, version: 1 });
    expect(await paths(api)).toEqual(['proj', 'proj/empty']);
    expect((await api.notes.list({ trashed: true })).page.total).toBe(0);
  });
});
