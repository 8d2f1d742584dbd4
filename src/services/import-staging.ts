import type { JobDto } from '../contracts';
import type { JobStore } from '../core/job-store';
import type { AttachmentRepository, NotesRepository } from '../db';

/**
 * All or nothing for imports. Every note an import writes carries the import
 * job's id (`import_batch`); a cancel or failure removes them at once (the
 * archive service does), and an import a closed tab interrupted is rolled
 * back at the next start here, once `JobRuntime.recover()` has marked it
 * JOB_INTERRUPTED. The job keeps the outcome for the user to read.
 */
export function importBatchOf(jobId: string): { importBatch: string } {
  return { importBatch: jobId };
}

export interface RolledBackImport {
  job_id: string;
  file_name: string;
  /** Notes the interrupted import had written, now removed. */
  removed: number;
}

export function interruptedImportMessage(fileName: string): string {
  return `The import of ${fileName} was interrupted; nothing was imported.`;
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
 * Removes what interrupted imports wrote (notes and the uploaded archive) and
 * records on each job that it was rolled back, so it happens, and is told,
 * once. Call after `JobRuntime.recover()`.
 */
export async function rollBackInterruptedImports(
  kind: string,
  jobs: JobStore,
  notes: NotesRepository,
  attachments: AttachmentRepository,
): Promise<RolledBackImport[]> {
  const done: RolledBackImport[] = [];
  for (const job of await jobs.listByStatus(['failed'])) {
    if (!needsRollback(job, kind)) continue;
    const input = job.input as { attachment_id?: unknown; file_name?: unknown };
    const fileName = typeof input.file_name === 'string' ? input.file_name : 'the archive';
    const removed = await notes.deleteImportBatch(job.job_id);
    if (typeof input.attachment_id === 'string') await attachments.delete(input.attachment_id);
    await jobs.put({
      ...job,
      error: {
        code: 'JOB_INTERRUPTED',
        message: interruptedImportMessage(fileName),
        details: { ...job.error!.details, rolled_back: true, file_name: fileName, removed },
      },
    });
    done.push({ job_id: job.job_id, file_name: fileName, removed });
  }
  return done;
}
