// JobsState against the real archive service and event log, in-thread.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { EventEnvelope } from '../../contracts/events';
import { testCore } from '../../services/test-core';
import type { TrackedJob } from './job-events';

vi.mock('../api/core-client', () => ({ core: {}, subscribeJob: () => () => {} }));

const { JobsState } = await import('./jobs.svelte');

const current = testCore();
afterAll(() => current.close());

const subscribe = (jobId: string, onEvent: (envelope: EventEnvelope) => void) => {
  const subscription = current.api.events.subscribe(jobId, 0, onEvent);
  return () => void subscription.close();
};

function finished(state: InstanceType<typeof JobsState>, job: { job_id: string }): Promise<TrackedJob> {
  return new Promise((resolve) => state.track(job as never, { onFinished: resolve }));
}

describe('JobsState', () => {
  it('follows a folder import to completion and reads its result', async () => {
    const state = new JobsState(subscribe);
    const job = await current.api.archive.importFiles({
      files: [
        { path: 'vault/日记/a.md', content: '# A\n\ntext' },
        { path: 'vault/b.md', content: '# B' },
      ],
    });
    const done = await finished(state, job);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ imported: 2 });
    expect(state.get(job.job_id)?.status).toBe('completed');
    expect(state.active).toBe(false);
    const notes = await current.api.notes.list({});
    expect(notes.page.total).toBe(2);
  });

  it('reports a failed zip import with its error code', async () => {
    const state = new JobsState(subscribe);
    const job = await current.api.archive.importZip({
      data: new Uint8Array([1, 2, 3]),
      file_name: 'bad.zip',
    });
    const done = await finished(state, job);
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('IMPORT_ARCHIVE_INVALID');
    state.clearFinished();
    expect(state.list).toEqual([]);
  });
});
