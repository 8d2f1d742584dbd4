import { afterEach, describe, expect, it } from 'vitest';
import type { ImportResult, NoteDto } from '../contracts';
import { writeZipArchive } from '../core/markdown-archive';
import { IMPORT_ORIGIN_TABLE, type ImportOriginRow } from '../db/import-origin-repository';
import { testCore } from './test-core';

/**
 * A vault imported, a note renamed (or moved) here and edited in Obsidian,
 * the vault imported again: the note is known by the file it was imported
 * from, though neither its title nor its text says so any more.
 */

let current: ReturnType<typeof testCore>;
afterEach(async () => {
  await current?.idle();
  await current?.close();
});

const SCHEDULING = '进程调度决定哪个就绪进程下一个占用 CPU：先来先服务、短作业优先、时间片轮转。\n';
const SCHEDULING_EDITED = `${SCHEDULING}\n在 Obsidian 里补充：多级反馈队列兼顾响应时间与吞吐量。\n`;
const MEMORY = '虚拟内存让每个进程以为自己独占一段连续的地址空间，由页表把它映射到物理内存。\n';

/** An Obsidian vault: file names are titles, no id of ours. */
const vault = (files: Record<string, string>) =>
  writeZipArchive(Object.entries(files).map(([path, content]) => ({ path, content })));
const course = (scheduling = SCHEDULING) =>
  vault({ 'vault/操作系统/进程调度.md': scheduling, 'vault/操作系统/虚拟内存.md': MEMORY });

async function importZip(
  data: Uint8Array,
  on_duplicate?: 'skip' | 'update' | 'keep_both',
): Promise<{ status: string; result: ImportResult; error: unknown }> {
  const job = await current.api.archive.importZip({
    data,
    file_name: 'vault.zip',
    ...(on_duplicate ? { on_duplicate } : {}),
  });
  await current.api.events.subscribe(job.job_id, 0, () => {}).closed;
  const { status, result, error } = await current.api.jobs.get(job.job_id);
  return { status, result: result as ImportResult, error };
}

async function allNotes(): Promise<NoteDto[]> {
  const page = await current.api.notes.list({ limit: 200 });
  return Promise.all(page.items.map((item) => current.api.notes.get(item.note_id)));
}

const origins = () => current.db.table<ImportOriginRow, string>(IMPORT_ORIGIN_TABLE).toArray();

/** Imports the course, then renames 进程调度 to CPU 调度 here. */
async function importAndRename(): Promise<NoteDto> {
  current = testCore();
  await importZip(course());
  const note = (await allNotes()).find((n) => n.title === '进程调度') as NoteDto;
  await current.api.notes.update({ note_id: note.note_id, title: 'CPU 调度' });
  return note;
}

describe('importing a vault again: notes known by the file they came from', () => {
  it('an import remembers the file each note came from, with the note as imported', async () => {
    current = testCore();
    const { result } = await importZip(course());
    expect(result).toMatchObject({ created: 2 });
    const notes = await allNotes();
    const rows = await origins();
    expect(
      rows.map((row) => [row.source_path, notes.find((n) => n.note_id === row.note_id)?.title]).sort(),
    ).toEqual([
      ['操作系统/虚拟内存.md', '虚拟内存'],
      ['操作系统/进程调度.md', '进程调度'],
    ]);
    expect(rows.find((row) => row.title === '进程调度')).toMatchObject({ folder: '操作系统' });
  });

  it('update: a note renamed here and edited in the vault is updated, not added again; its text before stays in the history', async () => {
    const renamed = await importAndRename();
    const { result } = await importZip(course(SCHEDULING_EDITED), 'update');
    expect(result).toMatchObject({ created: 0, updated: 2, duplicates_skipped: 0 });
    expect(result.notes?.updated).toContainEqual({
      note_id: renamed.note_id,
      title: '进程调度',
      existing_title: 'CPU 调度',
    });
    const notes = await allNotes();
    expect(notes).toHaveLength(2);
    expect((await current.api.notes.get(renamed.note_id)).body).toBe(SCHEDULING_EDITED);
    const versions = await current.api.history.list(renamed.note_id);
    const bodies = await Promise.all(
      versions.map(async (version) => (await current.api.history.get(version.version_id)).body),
    );
    expect(bodies).toContain(SCHEDULING);
  });

  it('skip: the same note is left as it is, named under both titles and counted as differing', async () => {
    const renamed = await importAndRename();
    const { result } = await importZip(course(SCHEDULING_EDITED), 'skip');
    expect(result).toMatchObject({ created: 0, updated: 0, duplicates_skipped: 2, skipped_changed: 1 });
    expect(result.notes?.skipped).toContainEqual({
      note_id: renamed.note_id,
      title: '进程调度',
      existing_title: 'CPU 调度',
    });
    expect((await allNotes()).map((n) => n.title).sort()).toEqual(['CPU 调度', '虚拟内存']);
    expect((await current.api.notes.get(renamed.note_id)).body).toBe(SCHEDULING);
  });

  it('a note moved to another folder here and edited there is still the file’s note', async () => {
    const renamed = await importAndRename();
    await current.api.notes.update({ note_id: renamed.note_id, folder: '归档' });
    const { result } = await importZip(course(SCHEDULING_EDITED), 'update');
    expect(result).toMatchObject({ created: 0, updated: 2 });
    expect(await current.api.notes.list()).toMatchObject({ page: { total: 2 } });
    expect((await current.api.notes.get(renamed.note_id)).body).toBe(SCHEDULING_EDITED);
  });

  it('a rename here alone is no change of the file: skip does not offer "update" for it', async () => {
    await importAndRename();
    const { result } = await importZip(course(), 'skip');
    expect(result).toMatchObject({ duplicates_skipped: 2, skipped_changed: 0 });
  });

  it('a new file under the renamed note’s new title is another note, not the renamed one', async () => {
    const renamed = await importAndRename();
    const grown = vault({
      'vault/操作系统/进程调度.md': SCHEDULING_EDITED,
      'vault/操作系统/虚拟内存.md': MEMORY,
      'vault/操作系统/CPU 调度.md': '另一篇：CPU 的时钟频率与流水线。\n',
    });
    const { result } = await importZip(grown, 'update');
    expect(result).toMatchObject({ created: 1, updated: 2 });
    expect((await current.api.notes.get(renamed.note_id)).body).toBe(SCHEDULING_EDITED);
    expect((await allNotes()).filter((n) => n.body.includes('时钟频率'))).toHaveLength(1);
  });

  it('a trashed note is not matched by its origin; once deleted for good its row is dropped', async () => {
    const renamed = await importAndRename();
    await current.api.notes.trash(renamed.note_id);
    const again = await importZip(course(SCHEDULING_EDITED), 'skip');
    expect(again.result).toMatchObject({ created: 1, duplicates_skipped: 1 });
    const added = (await allNotes()).find((n) => n.title === '进程调度') as NoteDto;
    expect(added.body).toBe(SCHEDULING_EDITED);
    // The file now names the note just added; the trashed note keeps no claim on it.
    expect((await origins()).find((row) => row.source_path === '操作系统/进程调度.md')?.note_id).toBe(
      added.note_id,
    );

    await current.api.notes.trash(added.note_id);
    await current.api.notes.purge(added.note_id);
    expect((await origins()).map((row) => row.note_id)).toContain(added.note_id);
    // The next import of the vault drops the row of the note gone for good, and adds the file again.
    expect((await importZip(course(SCHEDULING_EDITED), 'skip')).result).toMatchObject({ created: 1 });
    const rows = await origins();
    expect(rows.map((row) => row.note_id)).not.toContain(added.note_id);
    expect(rows).toHaveLength(2);
  });

  it('a corrupt archive still fails with IMPORT_ARCHIVE_INVALID and leaves the origins as they were', async () => {
    await importAndRename();
    const before = await origins();
    const failed = await importZip(new TextEncoder().encode('not a zip at all'), 'update');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'IMPORT_ARCHIVE_INVALID' });
    expect(await origins()).toEqual(before);
    expect(await current.api.notes.list()).toMatchObject({ page: { total: 2 } });
  });

  it('keep_both adds the copy, and the file names the copy from then on', async () => {
    const renamed = await importAndRename();
    expect((await importZip(course(SCHEDULING_EDITED), 'keep_both')).result).toMatchObject({ created: 2 });
    const row = (await origins()).find((r) => r.source_path === '操作系统/进程调度.md');
    expect(row?.note_id).not.toBe(renamed.note_id);
    expect((await current.api.notes.get(row!.note_id)).body).toBe(SCHEDULING_EDITED);
  });
});
