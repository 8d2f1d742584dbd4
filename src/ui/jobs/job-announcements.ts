import { isTerminalStatus, type JobStatus } from '../../contracts/jobs';
import { errorText, t } from '../i18n';
import { importFailure } from './import-report';
import { jobKindLabel, type TrackedJob } from './job-events';

/** What a screen reader hears about a job: that it started and how it ended, never each tick. */
export type JobChange = 'started' | 'completed' | 'failed' | 'cancelled';

/**
 * The jobs whose state changed in a way worth saying since `seen` (job id → status last said),
 * which it brings up to date. A job first seen already over says how it ended; a queued job
 * that starts running is the same start, said once.
 */
export function jobChanges(
  seen: Map<string, JobStatus>,
  list: readonly Pick<TrackedJob, 'job_id' | 'status'>[],
): Array<{ jobId: string; change: JobChange }> {
  const changes: Array<{ jobId: string; change: JobChange }> = [];
  for (const job of list) {
    const before = seen.get(job.job_id);
    seen.set(job.job_id, job.status);
    if (before === job.status) continue;
    if (isTerminalStatus(job.status)) {
      if (before === undefined || !isTerminalStatus(before)) {
        changes.push({ jobId: job.job_id, change: job.status as Exclude<JobChange, 'started'> });
      }
    } else if (before === undefined) {
      changes.push({ jobId: job.job_id, change: 'started' });
    }
  }
  // Dismissed jobs are forgotten: the map does not grow with every job of the session.
  const present = new Set(list.map((job) => job.job_id));
  for (const jobId of [...seen.keys()]) if (!present.has(jobId)) seen.delete(jobId);
  return changes;
}

const KIND_KEYS = {
  import: 'jobs.kind.import',
  export: 'jobs.kind.export',
  index: 'jobs.kind.index',
  other: 'jobs.kind.other',
} as const;

/** The job as its card names it: "Import · all.zip". */
export function jobName(job: Pick<TrackedJob, 'kind' | 'label'>): string {
  const kind = t(KIND_KEYS[jobKindLabel(job.kind)]);
  return job.label ? `${kind} · ${job.label}` : kind;
}

/** Why a job failed, in the words its card shows. */
export function jobFailureText(job: Pick<TrackedJob, 'kind' | 'error'>): string {
  if (!job.error) return '';
  if (jobKindLabel(job.kind) === 'import') return importFailure(job.error).text;
  return job.error.message || errorText(job.error.code, '');
}

export function jobAnnouncement(job: TrackedJob, change: JobChange): string {
  const name = jobName(job);
  switch (change) {
    case 'started':
      return t('jobs.announce.started', { name });
    case 'completed':
      return t('jobs.announce.completed', { name });
    case 'cancelled':
      return t('jobs.announce.cancelled', { name });
    case 'failed': {
      const reason = jobFailureText(job);
      return reason ? t('jobs.announce.failed', { name, reason }) : t('jobs.announce.failedBare', { name });
    }
  }
}
