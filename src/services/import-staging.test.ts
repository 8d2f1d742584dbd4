import { afterEach, describe, expect, it } from 'vitest';
import type { JobDto } from '../contracts';
import { AttachmentRepository, JobRepository, NotesRepository, type NotesAgentDatabase } from '../db';
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

    const core = createCoreApi(db);
    dispose = () => core.dispose();
    await core.recover();

    const left = await core.api.notes.list({ limit: 100 });
    expect(left.items.map((note) => note.note_id)).toEqual([mine.note_id]);
    expect(await db.blocks.where('note_id').notEqual(mine.note_id).count()).toBe(0);
    expect(await db.attachments.get(archive.attachment_id)).toBeUndefined();
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
});
