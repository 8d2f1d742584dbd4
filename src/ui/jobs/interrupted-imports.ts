import type { JobDto } from '../../contracts/jobs';

export const IMPORT_JOB_KIND = 'notes.import';

/** Imports a closed tab interrupted and the core rolled back at start-up, not yet told to the user. */
export function untoldInterruptedImports(jobs: readonly JobDto[], told: ReadonlySet<string>): JobDto[] {
  return jobs.filter(
    (job) =>
      job.kind === IMPORT_JOB_KIND &&
      job.error?.code === 'JOB_INTERRUPTED' &&
      job.error.details?.['rolled_back'] === true &&
      !told.has(job.job_id),
  );
}
