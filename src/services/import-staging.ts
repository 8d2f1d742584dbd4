import type { JobDto } from '../contracts';
import type { JobStore } from '../core/job-store';
import { jobLeaseName, unsharedLeases, type JobLeases } from '../core/job-leases';
import type { AttachmentRepository, NotesRepository } from '../db';
import type { ImportStagingRepository, StagedNoteRow } from '../db/import-staging-repository';

/**
 * All or nothing for imports. Every note an import writes carries the import
 * job's id (`import_batch`); a cancel or failure removes them at once (the
 * archive service does), and an import a closed tab interrupted is rolled
 * back at the next start here, once `JobRuntime.recover()` has marked it
 * JOB_INTERRUPTED. Notes an `update` import overwrote were staged as they
 * were before; the roll-back puts them back. The job keeps the outcome for
 * the user to read.
 */
export function importBatchOf(jobId: string): { importBatch: string } {
  return { importBatch: jobId };
}

export interface RolledBackImport {
  job_id: string;
  file_name: string;
  /** Notes the interrupted import had written, now removed. */
  removed: number;
  /** Notes it had overwritten, now as they were before. */
  restored: number;
  /** Notes it had overwritten that were changed again since: kept as they are. */
  kept: number;
}

export function interruptedImportMessage(fileName: string, restored = 0): string {
  const message = `The import of ${fileName} was interrupted; nothing was imported.`;
  if (restored === 0) return message;
  return `${message} ${restored === 1 ? '1 note it had changed was' : `${restored} notes it had changed were`} put back.`;
}

/**
 * Puts a note the import overwrote back as it was, unless it changed again
 * after the import's write (that text is the user's now). A write not known
 * to have landed is judged by the version: one step on from the staged state
 * is the import's write; the staged version itself means it never happened.
 */
async function restoreStaged(
  notes: NotesRepository,
  row: StagedNoteRow,
): Promise<'restored' | 'kept' | 'unchanged'> {
  const note = await notes.get(row.note_id);
  if (!note || note.deleted_at !== null) return 'kept';
  const importVersion = row.import_version ?? row.version + 1;
  if (row.import_version === null && note.version === row.version) return 'unchanged';
  if (note.version !== importVersion) return 'kept';
  const { title, folder, body, tags } = row;
  await notes.update(row.note_id, { title, folder, body, tags });
  if ((note.pinned ?? false) !== row.pinned) await notes.setPinned(row.note_id, row.pinned);
  return 'restored';
}

function needsRollback(job: JobDto, kind: string): boolean {
  return (
    job.kind === kind &&
    job.status === 'failed' &&
    job.error?.code === 'JOB_INTERRUPTED' &&
    job.error.details?.['rolled_back'] !== true
  );
}

/**
 * Removes what interrupted imports wrote (notes, their pictures and the uploaded archive) and
 * records on each job that it was rolled back, so it happens, and is told,
 * once. Call after `JobRuntime.recover()`.
 */
export async function rollBackInterruptedImports(
  kind: string,
  jobs: JobStore,
  notes: NotesRepository,
  attachments: AttachmentRepository,
  staging: ImportStagingRepository | null = null,
  leases: JobLeases = unsharedLeases,
): Promise<RolledBackImport[]> {
  const done: RolledBackImport[] = [];
  for (const listed of await jobs.listByStatus(['failed'])) {
    if (!needsRollback(listed, kind)) continue;
    // Another tab starting at the same time may be rolling it back: the job's lease says who does.
    const lease = await leases.tryHold(jobLeaseName(listed.job_id));
    if (!lease) continue;
    try {
      const job = await jobs.get(listed.job_id);
      if (job && needsRollback(job, kind)) done.push(await rollBack(job, jobs, notes, attachments, staging));
    } finally {
      lease.release();
    }
  }
  return done;
}

async function rollBack(
  job: JobDto,
  jobs: JobStore,
  notes: NotesRepository,
  attachments: AttachmentRepository,
  staging: ImportStagingRepository | null,
): Promise<RolledBackImport> {
  const input = job.input as { attachment_id?: unknown; file_name?: unknown };
  const fileName = typeof input.file_name === 'string' ? input.file_name : 'the archive';
  const removed = await notes.deleteImportBatch(job.job_id);
  let restored = 0;
  let kept = 0;
  // A page of staged notes at a time: each holds a whole note as it was.
  await staging?.forEachOfJob(job.job_id, async (page) => {
    for (const row of page) {
      const outcome = await restoreStaged(notes, row);
      if (outcome === 'restored') restored += 1;
      else if (outcome === 'kept') kept += 1;
    }
  });
  // The pictures it stored for its notes go with them.
  await attachments.deleteImportBatch(job.job_id);
  if (typeof input.attachment_id === 'string') await attachments.delete(input.attachment_id);
  await jobs.put({
    ...job,
    error: {
      code: 'JOB_INTERRUPTED',
      message: interruptedImportMessage(fileName, restored),
      details: {
        ...job.error!.details,
        rolled_back: true,
        file_name: fileName,
        removed,
        restored,
        kept,
      },
    },
  });
  // Only once the job says it was rolled back: a failure before leaves the staged notes for the next start.
  await staging?.clear(job.job_id);
  return { job_id: job.job_id, file_name: fileName, removed, restored, kept };
}
