import { describe, expect, it, vi } from 'vitest';
import type { JobDto } from '../../contracts/jobs';
import { INDEX_UPDATE_JOB_KIND } from '../../contracts/search';

vi.mock('../api/core-client', () => ({ core: {}, subscribeJob: () => () => {} }));

const { JobsState } = await import('./jobs.svelte');
const { JobsElsewhere } = await import('./jobs-elsewhere');

function jobRow(fields: Partial<JobDto>): JobDto {
  return {
    job_id: 'job_1',
    kind: 'import.zip',
    status: 'running',
    progress: null,
    result: null,
    error: null,
    input: { file_name: 'vault.zip' },
    created_at: '2026-01-01T00:00:00.000Z',
    started_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    completed_at: null,
    ...fields,
  };
}

describe('JobsElsewhere', () => {
  it('lists another tab’s job under its file name and follows it to its end', async () => {
    const state = new JobsState(() => () => {});
    let row = jobRow({ progress: { phase: 'notes', current: 1, total: 2, percent: 50, message: null } });
    const elsewhere = new JobsElsewhere(state, async () => row);

    await elsewhere.changed('job_1');
    expect(state.get('job_1')).toMatchObject({ status: 'running', label: 'vault.zip' });
    expect(state.get('job_1')?.progress?.percent).toBe(50);

    row = jobRow({ status: 'completed', result: { imported: 2 }, completed_at: '2026-01-01T00:00:01.000Z' });
    await elsewhere.changed('job_1');
    expect(state.get('job_1')).toMatchObject({ status: 'completed', result: { imported: 2 } });
    expect(state.active).toBe(false);
  });

  it('reads a burst of messages about one job once more, not once each', async () => {
    const state = new JobsState(() => () => {});
    let reads = 0;
    let release: () => void = () => {};
    const elsewhere = new JobsElsewhere(state, async () => {
      reads += 1;
      if (reads === 1) await new Promise<void>((resolve) => (release = resolve));
      return jobRow({});
    });
    const first = elsewhere.changed('job_1');
    void elsewhere.changed('job_1');
    void elsewhere.changed('job_1');
    release();
    await first;
    expect(reads).toBe(2);
  });

  it('leaves search index jobs out of the panel, and reads one only once', async () => {
    const state = new JobsState(() => () => {});
    let reads = 0;
    const elsewhere = new JobsElsewhere(state, async () => {
      reads += 1;
      return jobRow({ kind: INDEX_UPDATE_JOB_KIND });
    });
    await elsewhere.changed('job_1');
    // A rebuild in another tab posts a message per progress step: none of them costs a read.
    await elsewhere.changed('job_1');
    await elsewhere.changed('job_1');
    expect(state.list).toEqual([]);
    expect(reads).toBe(1);
  });

  it('marks another tab’s job as running there and never subscribes to it here', async () => {
    const subscribed: string[] = [];
    const state = new JobsState((jobId) => {
      subscribed.push(jobId);
      return () => {};
    });
    const elsewhere = new JobsElsewhere(state, async () => jobRow({}));
    await elsewhere.changed('job_1');
    expect(state.get('job_1')?.elsewhere).toBe(true);
    expect(subscribed).toEqual([]);
  });

  it('says once that another tab’s import ended, on the read that finds it over', async () => {
    const state = new JobsState(() => () => {});
    let row = jobRow({});
    const ended: string[] = [];
    const elsewhere = new JobsElsewhere(
      state,
      async () => row,
      (job) => ended.push(`${job.label}: ${job.status}`),
    );
    await elsewhere.changed('job_1');
    expect(ended).toEqual([]);

    row = jobRow({ status: 'completed', result: { imported: 2 } });
    await elsewhere.changed('job_1');
    // A late message, and one after the finished row was dismissed, say nothing more.
    await elsewhere.changed('job_1');
    state.dismiss('job_1');
    await elsewhere.changed('job_1');
    expect(ended).toEqual(['vault.zip: completed']);
  });

  it('says how an import first seen already over ended, and nothing of a model download', async () => {
    const state = new JobsState(() => () => {});
    const rows: Record<string, JobDto> = {
      job_1: jobRow({ status: 'failed', error: { code: 'INTERNAL_ERROR', message: 'bad', details: {} } }),
      job_2: jobRow({ job_id: 'job_2', kind: 'embedding.download', status: 'failed', input: {} }),
    };
    const ended: string[] = [];
    const elsewhere = new JobsElsewhere(
      state,
      async (jobId) => rows[jobId] as JobDto,
      (job) => ended.push(`${job.job_id}: ${job.status}`),
    );
    await elsewhere.changed('job_1');
    await elsewhere.changed('job_2');
    expect(ended).toEqual(['job_1: failed']);
    expect(state.get('job_2')?.status).toBe('failed');
  });
});
