import { afterEach, describe, expect, it } from 'vitest';
import type { JobDto } from '../contracts';
import { AttachmentRepository, JobRepository, NotesRepository, type NotesAgentDatabase } from '../db';
import { ImportStagingRepository } from '../db/import-staging-repository';
import { freshDatabase } from '../db/test-database';
import { IMPORT_JOB_KIND } from './archive-service';
import { createCoreApi } from './core-api';

let db: NotesAgentDatabase | undefined;
let dispose: (() => void) | undefined;
afterEach(async () => {
  dispose?.();
  await db?.delete();
  db = undefined;
  dispose = undefined;
});

/** What a tab closed at note 50 of an import leaves: a running job, its archive, the first batches. */
async function interruptedImport(database: NotesAgentDatabase) {
  const notes = new NotesRepository(database);
  const attachments = new AttachmentRepository(database);
  const jobs = new JobRepository(database);
  const mine = await notes.create({ title: 'Mine', folder: '', body: 'typed by hand', tags: [] });
  const archive = await attachments.put(new Blob(['zip bytes']), { name: 'vault.zip' });
  const now = '2026-01-01T00:00:00.000Z';
  const job: JobDto = {
    job_id: 'job_interrupted',
    kind: IMPORT_JOB_KIND,
    status: 'running',
    progress: { phase: 'importing', current: 50, total: 500, message: null } as JobDto['progress'],
    input: { attachment_id: archive.attachment_id, file_name: 'vault.zip', target_folder: '' },
    result: null,
    error: null,
    created_at: now,
    started_at: now,
    updated_at: now,
    completed_at: null,
  } as JobDto;
  await jobs.put(job);
  const drafts = Array.from({ length: 50 }, (_, i) => ({
    title: `N${i}`,
    folder: 'vault',
    body: `b${i}`,
    tags: [],
  }));
  await notes.createMany(drafts.slice(0, 25), { importBatch: job.job_id });
  await notes.createMany(drafts.slice(25), { importBatch: job.job_id });
  return { mine, archive, job };
}

describe('an import interrupted by a closed tab', () => {
  it('is rolled back at the next start: no note of it, no archive, and the job says so once', async () => {
    db = freshDatabase();
    const { mine, archive, job } = await interruptedImport(db);
    expect(await db.notes.count()).toBe(51);
    // Pictures the import had stored for its notes; one of them another tab has stored again since.
    const attachments = new AttachmentRepository(db);
    const picture = (sha256: string, importBatch?: string) =>
      attachments.putOnce(new Blob([sha256]), {
        name: `${sha256}.png`,
        sha256,
        ...(importBatch ? { importBatch } : {}),
      });
    const itsOwn = await picture('p1', job.job_id);
    const shared = await picture('p2', job.job_id);
    expect((await picture('p2')).created).toBe(false);
    const older = await picture('p3');
    expect((await picture('p3', job.job_id)).created).toBe(false);

    const core = createCoreApi(db);
    dispose = () => core.dispose();
    await core.recover();

    const left = await core.api.notes.list({ limit: 100 });
    expect(left.items.map((note) => note.note_id)).toEqual([mine.note_id]);
    expect(await db.blocks.where('note_id').notEqual(mine.note_id).count()).toBe(0);
    expect(await db.attachments.get(archive.attachment_id)).toBeUndefined();
    expect((await db.attachments.toArray()).map((row) => row.attachment_id).sort()).toEqual(
      [shared.attachment.attachment_id, older.attachment.attachment_id].sort(),
    );
    expect(itsOwn.created).toBe(true);
    const stored = await core.api.jobs.get(job.job_id);
    expect(stored.status).toBe('failed');
    expect(stored.error).toMatchObject({
      code: 'JOB_INTERRUPTED',
      message: 'The import of vault.zip was interrupted; nothing was imported.',
      details: { rolled_back: true, file_name: 'vault.zip', removed: 50 },
    });

    // A second start finds nothing more to undo and leaves the job as it is.
    await core.recover();
    expect(await core.api.jobs.get(job.job_id)).toEqual(stored);
  });

  it('keeps the notes of a finished import: they are not part of any interrupted batch', async () => {
    db = freshDatabase();
    const core = createCoreApi(db);
    dispose = () => core.dispose();
    const notes = new NotesRepository(db);
    await notes.createMany([{ title: 'Done', folder: '', body: 'x', tags: [] }], { importBatch: 'job_done' });
    await core.recover();
    const [note] = (await core.api.notes.list({ limit: 10 })).items;
    expect(note?.title).toBe('Done');
    expect(note).not.toHaveProperty('import_batch');
  });

  it('puts back the notes an update import overwrote, keeps one changed since, and says so', async () => {
    db = freshDatabase();
    const { job } = await interruptedImport(db);
    const notes = new NotesRepository(db);
    const staging = new ImportStagingRepository(db);
    const before = async (title: string, body: string, pinned = false) => {
      const note = await notes.create({ title, folder: 'kept', body, tags: ['t'] });
      if (pinned) await notes.setPinned(note.note_id, true);
      return (await notes.get(note.note_id))!;
    };
    const stage = (note: Awaited<ReturnType<typeof before>>) =>
      staging.stage({
        job_id: job.job_id,
        note_id: note.note_id,
        title: note.title,
        folder: note.folder,
        body: note.body,
        tags: note.tags,
        pinned: note.pinned ?? false,
        version: note.version,
      });
    // Overwritten by the import (twice: the first state is the one kept), and unpinned by it.
    const overwritten = await before('Plan', 'my plan', true);
    await stage(overwritten);
    const first = await notes.update(overwritten.note_id, { body: 'from the archive' });
    await staging.landed(job.job_id, overwritten.note_id, first!.version);
    await stage(first!);
    const second = await notes.update(overwritten.note_id, { body: 'from the archive, again' });
    await staging.landed(job.job_id, overwritten.note_id, second!.version);
    await notes.setPinned(overwritten.note_id, false);
    // Overwritten, then edited again in another tab: that text stays.
    const editedSince = await before('Log', 'my log');
    await stage(editedSince);
    const imported = await notes.update(editedSince.note_id, { body: 'log from the archive' });
    await staging.landed(job.job_id, editedSince.note_id, imported!.version);
    await notes.update(editedSince.note_id, { body: 'typed after the import' });
    // Staged, and the tab closed before the import's write landed.
    const landedUnknown = await before('Todo', 'my todo');
    await stage(landedUnknown);
    await notes.update(landedUnknown.note_id, { body: 'todo from the archive' });
    // Staged, and the tab closed before the write.
    const neverWritten = await before('Idea', 'my idea');
    await stage(neverWritten);

    const core = createCoreApi(db);
    dispose = () => core.dispose();
    await core.recover();

    expect(await core.api.notes.get(overwritten.note_id)).toMatchObject({
      title: 'Plan',
      folder: 'kept',
      body: 'my plan',
      tags: ['t'],
      pinned: true,
    });
    expect((await core.api.notes.get(editedSince.note_id)).body).toBe('typed after the import');
    expect((await core.api.notes.get(landedUnknown.note_id)).body).toBe('my todo');
    expect(await core.api.notes.get(neverWritten.note_id)).toMatchObject({
      body: 'my idea',
      version: neverWritten.version,
    });
    // The import's text of a restored note stays reachable in its history.
    const versions = await core.api.history.list(overwritten.note_id);
    expect(versions.length).toBeGreaterThan(0);
    expect((await core.api.jobs.get(job.job_id)).error).toMatchObject({
      message:
        'The import of vault.zip was interrupted; nothing was imported. 2 notes it had changed were put back.',
      details: { rolled_back: true, removed: 50, restored: 2, kept: 1 },
    });
    expect(await staging.forJob(job.job_id)).toEqual([]);
  });
});
