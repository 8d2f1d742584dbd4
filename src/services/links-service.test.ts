import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotesRepository } from '../db';
import { testCore } from './test-core';
import { codeOf } from './test-error-code';

let current: ReturnType<typeof testCore>;
afterEach(async () => current?.close());
function setup(options: Parameters<typeof testCore>[0] = {}) {
  current = testCore(options);
  return current.api;
}

describe('LinksService', () => {
  it('resolves titles, suggests them and lists backlinks as notes change', async () => {
    const api = setup();
    const alpha = await api.notes.create({ title: 'Alpha plan', body: 'root' });
    const beta = await api.notes.create({ title: 'Beta', body: 'See [[alpha PLAN]] first.' });
    expect(await api.links.resolve(' alpha plan ')).toEqual({ note_id: alpha.note_id, title: 'Alpha plan' });
    expect(await api.links.resolve('Nowhere')).toBeNull();
    expect((await api.links.suggest({ query: 'al' })).map((note) => note.title)).toEqual(['Alpha plan']);
    expect(await api.links.backlinks(alpha.note_id)).toEqual([
      { note_id: beta.note_id, title: 'Beta', context: 'See [[alpha PLAN]] first.' },
    ]);

    // Edits, the trash and its restore are followed.
    await api.notes.update({ note_id: beta.note_id, body: 'no link' });
    expect(await api.links.backlinks(alpha.note_id)).toEqual([]);
    await api.notes.update({ note_id: beta.note_id, body: '[[Alpha plan|the plan]]' });
    await api.notes.trash(beta.note_id);
    expect(await api.links.backlinks(alpha.note_id)).toEqual([]);
    await api.notes.restore(beta.note_id);
    expect((await api.links.backlinks(alpha.note_id)).map((link) => link.note_id)).toEqual([beta.note_id]);
    await api.notes.trash(alpha.note_id);
    expect(await api.links.resolve('Alpha plan')).toBeNull();
    expect(await api.links.backlinks(alpha.note_id)).toEqual([]);
  });

  it('sees links another tab wrote to the same notes', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'Target', body: '' });
    const linking = await api.notes.create({ title: 'Linking', body: '' });
    expect(await api.links.backlinks(target.note_id)).toEqual([]);
    // Another tab has its own core: its writes reach the database, not this index.
    const otherTab = new NotesRepository(current.db);
    await otherTab.update(linking.note_id, { body: '[[Target]]' });
    expect((await api.links.backlinks(target.note_id)).map((link) => link.note_id)).toEqual([
      linking.note_id,
    ]);
    await otherTab.setTrashed(linking.note_id, true);
    expect(await api.links.backlinks(target.note_id)).toEqual([]);
  });

  it('reads a note body again only when the note changed, not on every lookup', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'Target', body: '' });
    const latest = await api.notes.create({ title: 'Latest', body: '[[Target]] ' + 'x'.repeat(100_000) });
    expect(await api.links.suggest({ query: 'ta' })).toHaveLength(1);
    const bodies = vi.spyOn(NotesRepository.prototype, 'readPaged');
    const single = vi.spyOn(NotesRepository.prototype, 'get');
    const readIds = () => bodies.mock.calls.flatMap(([ids]) => [...ids]);
    // The latest note sits at the inclusive edge of "changed since": it must not be re-read.
    await api.links.suggest({ query: 'la' });
    await api.links.resolve('Target');
    expect((await api.links.backlinks(target.note_id)).map((link) => link.note_id)).toEqual([latest.note_id]);
    expect(await api.links.backlinks(latest.note_id)).toEqual([]);
    expect(readIds()).toEqual([]);
    expect(single).not.toHaveBeenCalled();
    // A change by this core or by another tab is read once.
    await api.notes.update({ note_id: target.note_id, body: 'edited' });
    await api.links.suggest({ query: 'ta' });
    expect(readIds()).toEqual([target.note_id]);
    await new NotesRepository(current.db).update(latest.note_id, { body: 'no link now' });
    expect(await api.links.backlinks(target.note_id)).toEqual([]);
    await api.links.suggest({ query: 'ta' });
    expect(readIds()).toEqual([target.note_id, latest.note_id]);
    bodies.mockRestore();
    single.mockRestore();
  });

  it('rewrites links to a renamed note in other notes, one rename version each', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'Old title', body: 'self [[Old title]]' });
    const first = await api.notes.create({ title: 'One', body: 'a [[Old title]] b [[old title|alias]]' });
    const second = await api.notes.create({
      title: 'Two',
      body: '`[[Old title]]` stays in code\n[[Old title]]',
    });
    const other = await api.notes.create({ title: 'Three', body: '[[Something else]]' });

    const renamed = await api.notes.update({ note_id: target.note_id, title: 'New title' });
    expect(renamed.title).toBe('New title');
    expect((await api.notes.get(first.note_id)).body).toBe('a [[New title]] b [[New title|alias]]');
    expect((await api.notes.get(second.note_id)).body).toBe('`[[Old title]]` stays in code\n[[New title]]');
    expect((await api.notes.get(other.note_id)).version).toBe(1);
    // The renamed note is being edited by its user: its own text is left to them.
    expect((await api.notes.get(target.note_id)).body).toBe('self [[Old title]]');
    const versions = await api.history.list(first.note_id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ origin: 'rename', title: 'One' });
    expect((await api.history.get(versions[0]!.version_id)).body).toBe(
      'a [[Old title]] b [[old title|alias]]',
    );
    expect((await api.links.backlinks(target.note_id)).map((link) => link.note_id).sort()).toEqual(
      [first.note_id, second.note_id].sort(),
    );
  });

  it('leaves links alone while another note still has the old title', async () => {
    const api = setup();
    const older = await api.notes.create({ title: 'Shared', body: '' });
    const newer = await api.notes.create({ title: 'Shared', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[Shared]]' });
    await api.notes.update({ note_id: newer.note_id, title: 'Renamed' });
    expect((await api.notes.get(linking.note_id)).body).toBe('[[Shared]]');
    expect((await api.links.resolve('Shared'))?.note_id).toBe(older.note_id);
  });

  it('does not point links at an older note that already has the new title', async () => {
    const api = setup();
    const existing = await api.notes.create({ title: 'Al', body: '' });
    const renamed = await api.notes.create({ title: 'Alpha', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[Alpha]]' });
    await api.notes.update({ note_id: renamed.note_id, title: 'Al' });
    expect((await api.notes.get(linking.note_id)).body).toBe('[[Alpha]]');
    expect((await api.links.resolve('Al'))?.note_id).toBe(existing.note_id);
  });

  it('resolves Obsidian path links by folder and title, and rewrites them on a rename keeping the path', async () => {
    const api = setup();
    const scheduling = await api.notes.create({ title: '进程调度', folder: '操作系统', body: '## 时间片' });
    const other = await api.notes.create({ title: '进程调度', folder: '网络', body: '' });
    const index = await api.notes.create({
      title: 'Index',
      body: 'See [[操作系统/进程调度|Scheduling]] and [[操作系统/进程调度.md#时间片]]\n[[网络/进程调度]] [[进程调度]]',
    });
    expect((await api.links.resolve('操作系统/进程调度'))?.note_id).toBe(scheduling.note_id);
    expect((await api.links.resolve('网络/进程调度.md'))?.note_id).toBe(other.note_id);
    expect(await api.links.missing(['操作系统/进程调度', '网络/进程调度', '硬件/进程调度'])).toEqual([
      '硬件/进程调度',
    ]);
    expect((await api.links.backlinks(scheduling.note_id)).map((link) => link.note_id)).toEqual([
      index.note_id,
    ]);
    expect((await api.links.backlinks(other.note_id)).map((link) => link.note_id)).toEqual([index.note_id]);

    // Another note still has the old title: the bare link now opens it and stays, as before; path links follow.
    await api.notes.update({ note_id: scheduling.note_id, title: 'CPU 调度' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      'See [[操作系统/CPU 调度|Scheduling]] and [[操作系统/CPU 调度.md#时间片]]\n[[网络/进程调度]] [[进程调度]]',
    );
    expect((await api.links.resolve('进程调度'))?.note_id).toBe(other.note_id);
    expect((await api.links.backlinks(scheduling.note_id)).map((link) => link.note_id)).toEqual([
      index.note_id,
    ]);

    // Renamed again, the last one with the old title takes its bare links along.
    await api.notes.update({ note_id: other.note_id, title: '网络调度' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      'See [[操作系统/CPU 调度|Scheduling]] and [[操作系统/CPU 调度.md#时间片]]\n[[网络/网络调度]] [[网络调度]]',
    );
  });

  it('names the link titles no live note has', async () => {
    const api = setup();
    await api.notes.create({ title: 'Alpha plan', body: '' });
    const gone = await api.notes.create({ title: 'Gone', body: '' });
    await api.notes.trash(gone.note_id);
    expect(await api.links.missing(['alpha PLAN', 'Gone', 'Nowhere', 'Nowhere', ' Alpha plan '])).toEqual([
      'Gone',
      'Nowhere',
    ]);
    expect(await api.links.missing([])).toEqual([]);
    expect(await codeOf(api.links.missing(['ok', ' ']))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.links.missing(Array.from({ length: 1001 }, (_, i) => `t${i}`)))).toBe(
      'VALIDATION_FAILED',
    );
  });

  it('rejects invalid input with VALIDATION_FAILED and unknown notes with NOTE_NOT_FOUND', async () => {
    const api = setup();
    expect(await codeOf(api.links.resolve('   '))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.links.suggest({ query: 'x', limit: 0 }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.links.backlinks(''))).toBe('VALIDATION_FAILED');
    expect(await codeOf(api.links.backlinks('note_missing'))).toBe('NOTE_NOT_FOUND');
  });

  it('keeps the rename when a linking note cannot be rewritten, and skips it', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'Before', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[Before]]' });
    await api.links.backlinks(target.note_id);
    current.db.table('note_versions').hook('creating', (_key, row: { origin: string }) => {
      if (row.origin === 'rename') throw new Error('disk full');
    });
    const renamed = await api.notes.update({ note_id: target.note_id, title: 'After' });
    expect(renamed.title).toBe('After');
    expect((await api.notes.get(linking.note_id)).body).toBe('[[Before]]');
  });

  it('points path links at a note moved to another folder, keeping labels, headings, .md and shortest paths', async () => {
    const api = setup();
    const moved = await api.notes.create({
      title: '进程调度',
      folder: '操作系统',
      body: '自己 [[操作系统/进程调度]]',
    });
    const other = await api.notes.create({ title: '进程调度', folder: '网络', body: '' });
    const short = await api.notes.create({ title: 'Notes', folder: 'Courses/OS', body: '' });
    const index = await api.notes.create({
      title: 'Index',
      body: [
        '见 [[操作系统/进程调度|调度]] 和 [[操作系统/进程调度.md#时间片]]',
        '[[网络/进程调度]] [[进程调度]] `[[操作系统/进程调度]]`',
        '[[OS/Notes#Part|notes]]',
      ].join('\n'),
    });
    const untouched = await api.notes.create({ title: 'Plain', body: '[[网络/进程调度]] [[Notes]]' });

    const done = await api.notes.update({ note_id: moved.note_id, folder: '归档/课程', expected_version: 1 });
    expect(done.folder).toBe('归档/课程');
    await api.notes.update({ note_id: short.note_id, folder: 'Archive/2024/Systems' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      [
        '见 [[归档/课程/进程调度|调度]] 和 [[归档/课程/进程调度.md#时间片]]',
        '[[网络/进程调度]] [[进程调度]] `[[操作系统/进程调度]]`',
        '[[Systems/Notes#Part|notes]]',
      ].join('\n'),
    );
    expect(await api.links.missing(['归档/课程/进程调度', 'Systems/Notes'])).toEqual([]);
    expect((await api.links.resolve('归档/课程/进程调度.md'))?.note_id).toBe(moved.note_id);
    expect((await api.links.backlinks(moved.note_id)).map((link) => link.note_id)).toEqual([index.note_id]);
    expect((await api.links.backlinks(short.note_id)).map((link) => link.note_id)).toEqual([
      index.note_id,
      untouched.note_id,
    ]);
    // Versions naming the move (two quick ones share one), keeping the text as it was.
    const versions = await api.history.list(index.note_id);
    expect(versions.map((version) => version.origin)).toEqual(['move']);
    expect((await api.history.get(versions.at(-1)!.version_id)).body).toContain('[[操作系统/进程调度|调度]]');
    // The moved note's own text is its user's; links that opened another note stay.
    expect((await api.notes.get(moved.note_id)).body).toBe('自己 [[操作系统/进程调度]]');
    expect((await api.notes.get(untouched.note_id)).version).toBe(1);
    expect((await api.notes.get(other.note_id)).version).toBe(1);
  });

  it('points Markdown links to a renamed or moved note at it, in the style they were written', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'Old title', folder: 'Courses/OS', body: '# Part' });
    const index = await api.notes.create({
      title: 'Index',
      body: [
        '[a](Old%20title.md) [b](OS/Old%20title.md#Part "tip") [c](<Courses/OS/Old title.md>)',
        '`[d](Old%20title.md)` [e](Other.md) [[Old title|wiki]]',
      ].join('\n'),
    });

    await api.notes.update({ note_id: target.note_id, title: 'New title' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      [
        '[a](New%20title.md) [b](OS/New%20title.md#Part "tip") [c](<Courses/OS/New title.md>)',
        '`[d](Old%20title.md)` [e](Other.md) [[New title|wiki]]',
      ].join('\n'),
    );
    await api.notes.update({ note_id: target.note_id, folder: 'Archive/Old notes' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      [
        '[a](New%20title.md) [b](Old%20notes/New%20title.md#Part "tip") [c](<Archive/Old notes/New title.md>)',
        '`[d](Old%20title.md)` [e](Other.md) [[New title|wiki]]',
      ].join('\n'),
    );
    expect((await api.history.list(index.note_id)).map((version) => version.origin)).toEqual([
      'move',
      'rename',
    ]);
    expect((await api.links.backlinks(target.note_id)).map((link) => link.note_id)).toEqual([index.note_id]);
  });

  it('points path links into a renamed or moved folder at its new place, for every note below it', async () => {
    const api = setup();
    const top = await api.notes.create({
      title: '调度',
      folder: '课程/操作系统',
      body: '[[课程/操作系统/实验/实验一]]',
    });
    const lab = await api.notes.create({ title: '实验一', folder: '课程/操作系统/实验', body: '' });
    const slash = await api.notes.create({ title: 'TCP/IP', body: '' });
    const ip = await api.notes.create({ title: 'IP', folder: '课程/操作系统', body: '' });
    const index = await api.notes.create({
      title: 'Index',
      body: '[[课程/操作系统/调度|调度]] [[操作系统/调度.md]] [[实验/实验一#步骤]] [[TCP/IP]] [[IP]]',
    });

    expect(await api.notes.renameFolder({ from: '课程/操作系统', to: '归档/OS' })).toEqual({
      path: '归档/OS',
      moved_notes: 3,
    });
    // A shortest path still naming the folder's last part (`实验/`) opens the note as before and stays.
    expect((await api.notes.get(index.note_id)).body).toBe(
      '[[归档/OS/调度|调度]] [[OS/调度.md]] [[实验/实验一#步骤]] [[TCP/IP]] [[IP]]',
    );
    expect((await api.notes.get(top.note_id)).body).toBe('[[归档/OS/实验/实验一]]');
    expect((await api.links.backlinks(lab.note_id)).map((link) => link.note_id).sort()).toEqual(
      [index.note_id, top.note_id].sort(),
    );
    expect((await api.links.backlinks(slash.note_id)).map((link) => link.note_id)).toEqual([index.note_id]);
    expect((await api.links.backlinks(ip.note_id)).map((link) => link.note_id)).toEqual([index.note_id]);
    expect((await api.history.list(index.note_id)).map((version) => version.origin)).toEqual(['move']);
  });

  it('follows a renamed folder in a path whose first folder could be read as the vault’s name', async () => {
    const api = setup();
    const full = await api.notes.create({ title: 'Scheduling', folder: 'Courses/OS', body: '' });
    const short = await api.notes.create({ title: 'Lab', folder: 'School/Courses/OS', body: '' });
    const top = await api.notes.create({ title: 'Memo', folder: 'Courses', body: '' });
    const index = await api.notes.create({
      title: 'Index',
      body: '[[Courses/OS/Scheduling|s]] [[Courses/OS/Lab]] [[Courses/Memo.md]]',
    });

    await api.notes.renameFolder({ from: 'Courses', to: 'Archive' });
    await api.notes.renameFolder({ from: 'School/Courses', to: 'School/Old' });
    // Each still opened its note with `Courses` read as the vault's name, but named the folder that
    // moved: a full path gets the new full path, a shortest path the new shortest one.
    expect((await api.notes.get(index.note_id)).body).toBe(
      '[[Archive/OS/Scheduling|s]] [[OS/Lab]] [[Archive/Memo.md]]',
    );
    // Moved to the top, its note opens as "vault Archive, note Memo": the link named the folder it left.
    await api.notes.update({ note_id: top.note_id, folder: '' });
    expect((await api.notes.get(index.note_id)).body).toBe(
      '[[Archive/OS/Scheduling|s]] [[OS/Lab]] [[Memo.md]]',
    );
    expect((await api.links.resolve('Archive/OS/Scheduling'))?.note_id).toBe(full.note_id);
    expect((await api.links.resolve('OS/Lab'))?.note_id).toBe(short.note_id);
  });

  it('leaves a path alone when its first folder may be the vault’s name', async () => {
    // Notes created a second apart: which is older decides between equally close ones.
    let tick = 0;
    const api = setup({ notesNow: () => new Date(Date.UTC(2026, 0, 1, 12, 0, tick++)).toISOString() });
    // `Courses/OS` is no folder here: the link opens the note only as "vault Courses, shortest path OS/Lab".
    const lab = await api.notes.create({ title: 'Lab', folder: 'Courses/Year 1/OS', body: '' });
    // Both readings open a note: the folder `Courses/OS`, or the vault `Courses` and the folder `OS`.
    const moved = await api.notes.create({ title: 'Scheduling', folder: 'Courses/OS', body: '' });
    const named = await api.notes.create({ title: 'Scheduling', folder: 'OS', body: '' });
    const index = await api.notes.create({
      title: 'Index',
      body: '[[Courses/OS/Lab]] [[Courses/OS/Scheduling]]',
    });

    await api.notes.renameFolder({ from: 'Courses', to: 'Archive' });
    expect(await api.notes.get(index.note_id)).toMatchObject({
      body: '[[Courses/OS/Lab]] [[Courses/OS/Scheduling]]',
      version: 1,
    });
    expect((await api.links.resolve('Courses/OS/Lab'))?.note_id).toBe(lab.note_id);
    // Both are now read the second way; the older note, the one moved, still opens.
    expect((await api.links.resolve('Courses/OS/Scheduling'))?.note_id).toBe(moved.note_id);
    expect((await api.links.resolve('OS/Scheduling'))?.note_id).toBe(named.note_id);
  });

  it('names a rewrite after a move apart from one after a rename in the linking note’s history', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'T', folder: 'A', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[A/T]]' });
    await api.notes.update({ note_id: target.note_id, title: 'U' });
    await api.notes.update({ note_id: target.note_id, folder: 'B' });
    expect((await api.notes.get(linking.note_id)).body).toBe('[[B/U]]');
    const versions = await api.history.list(linking.note_id);
    expect(versions.map((version) => version.origin)).toEqual(['move', 'rename']);
    expect((await api.history.get(versions[0]!.version_id)).body).toBe('[[A/U]]');
  });

  it('rewrites nothing when a move fails or names an unknown note or folder', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'T', folder: 'A', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[A/T]]' });
    expect(
      await codeOf(api.notes.update({ note_id: target.note_id, folder: 'B', expected_version: 7 })),
    ).toBe('NOTE_VERSION_CONFLICT');
    expect(await codeOf(api.notes.update({ note_id: 'note_missing', folder: 'B' }))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(api.notes.renameFolder({ from: 'Nowhere', to: 'B' }))).toBe('FOLDER_NOT_FOUND');
    expect(await codeOf(api.notes.renameFolder({ from: 'A', to: 'A/B' }))).toBe('VALIDATION_FAILED');
    await api.notes.trash(target.note_id);
    expect(await codeOf(api.notes.update({ note_id: target.note_id, folder: 'B' }))).toBe('STATE_CONFLICT');
    expect(await api.notes.get(linking.note_id)).toMatchObject({ body: '[[A/T]]', version: 1 });
    expect(await api.notes.get(target.note_id)).toMatchObject({ folder: 'A' });
    expect(await api.history.list(linking.note_id)).toEqual([]);
  });

  it('keeps a move when a linking note cannot be rewritten, and skips that note', async () => {
    const api = setup();
    const target = await api.notes.create({ title: 'T', folder: 'A', body: '' });
    const linking = await api.notes.create({ title: 'L', body: '[[A/T]]' });
    const next = await api.notes.create({ title: 'M', body: '[[A/T|t]]' });
    await api.links.backlinks(target.note_id);
    let failed = false;
    current.db.table('note_versions').hook('creating', (_key, row: { origin: string; note_id: string }) => {
      if (row.origin === 'move' && row.note_id === linking.note_id) {
        failed = true;
        throw new Error('disk full');
      }
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await api.notes.update({ note_id: target.note_id, folder: 'B' })).folder).toBe('B');
    error.mockRestore();
    expect(failed).toBe(true);
    expect(await api.notes.get(linking.note_id)).toMatchObject({ body: '[[A/T]]', version: 1 });
    expect((await api.notes.get(next.note_id)).body).toBe('[[B/T|t]]');
  });
});
