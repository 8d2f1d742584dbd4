import { describe, expect, it } from 'vitest';
import type { JobStatus } from '../../contracts/jobs';
import { jobAnnouncement, jobChanges } from './job-announcements';
import type { TrackedJob } from './job-events';

const job = (job_id: string, status: JobStatus, extra: Partial<TrackedJob> = {}): TrackedJob => ({
  job_id,
  kind: 'notes.import_zip',
  status,
  progress: null,
  result: null,
  error: null,
  label: 'all.zip',
  sequence: 0,
  ...extra,
});

describe('jobChanges', () => {
  it('says a start once and an end once, never a tick', () => {
    const said = new Map<string, JobStatus>();
    expect(jobChanges(said, [job('a', 'queued')])).toEqual([{ jobId: 'a', change: 'started' }]);
    expect(jobChanges(said, [job('a', 'running')])).toEqual([]);
    // A progress tick: the same status again.
    expect(jobChanges(said, [job('a', 'running', { sequence: 5 })])).toEqual([]);
    expect(jobChanges(said, [job('a', 'completed')])).toEqual([{ jobId: 'a', change: 'completed' }]);
    expect(jobChanges(said, [job('a', 'completed')])).toEqual([]);
  });

  it('says how a job seen only once it was over ended', () => {
    const said = new Map<string, JobStatus>();
    expect(jobChanges(said, [job('a', 'failed'), job('b', 'cancelled')])).toEqual([
      { jobId: 'a', change: 'failed' },
      { jobId: 'b', change: 'cancelled' },
    ]);
  });

  it('forgets dismissed jobs', () => {
    const said = new Map<string, JobStatus>();
    jobChanges(said, [job('a', 'completed')]);
    jobChanges(said, []);
    expect(said.size).toBe(0);
  });
});

describe('jobAnnouncement', () => {
  it('names the job as its card does, and a failure with its reason', () => {
    expect(jobAnnouncement(job('a', 'running'), 'started')).toBe('Import · all.zip started.');
    expect(jobAnnouncement(job('a', 'completed'), 'completed')).toBe('Import · all.zip finished.');
    expect(jobAnnouncement(job('a', 'cancelled'), 'cancelled')).toBe('Import · all.zip cancelled.');
    const failed = job('a', 'failed', {
      kind: 'model.download',
      label: null,
      error: { code: 'NETWORK_ERROR', message: 'The download stopped.', details: {} },
    });
    expect(jobAnnouncement(failed, 'failed')).toBe('Job failed: The download stopped.');
  });
});
