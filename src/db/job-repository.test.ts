import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, type EventEnvelope, type JobDto } from '../contracts';
import { EventLog } from '../core/event-log';
import { JobRuntime, type JobContext } from '../core/job-runtime';
import type { NotesAgentDatabase } from './database';
import { EventRepository } from './event-repository';
import { JobRepository } from './job-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
  await db?.delete();
  db = undefined;
});

/** The runtime as the core wires it: rows and lifecycle events through one transaction each. */
function runtimeOver(database: NotesAgentDatabase) {
  const events = new EventRepository(database);
  return new JobRuntime(new JobRepository(database, events), new EventLog(events));
}

async function storedEvents(database: NotesAgentDatabase, jobId: string) {
  return (await database.events.where('resource_id').equals(jobId).sortBy('sequence')).map((row) => [
    row.sequence,
    row.event,
  ]);
}

const quota = () => new Dexie.AbortError('aborted', new DOMException('full', 'QuotaExceededError'));

/** Runs a job whose completed end the storage refuses: it must end failed with the quota code, its events in order. */
async function runFillExpectingQuotaFailure(database: NotesAgentDatabase): Promise<JobDto> {
  const runtime = runtimeOver(database);
  runtime.register({ kind: 'fill', run: async () => ({ imported: 20 }) });
  const job = await runtime.create('fill');
  await runtime.idle();
  const stored = await database.jobs.get(job.job_id);
  expect(stored?.status).toBe('failed');
  expect(stored?.error?.code).toBe('STORAGE_QUOTA_EXCEEDED');
  expect(await storedEvents(database, job.job_id)).toEqual([
    [1, 'Queued'],
    [2, 'Started'],
    [3, 'Failed'],
  ]);
  return stored!;
}

describe('JobRuntime over IndexedDB', () => {
  it('stores each state with its event: queued, started, progress, completed', async () => {
    db = freshDatabase();
    const runtime = runtimeOver(db);
    runtime.register({
      kind: 'count',
      async run(context: JobContext<{ n: number }>) {
        for (let i = 1; i <= context.input.n; i++)
          await context.progress({ phase: 'counting', current: i, total: 2 });
        return { counted: context.input.n };
      },
    });
    const job = await runtime.create('count', { n: 2 });
    const seen: EventEnvelope[] = [];
    runtime.subscribe(job.job_id, 0, (envelope) => seen.push(envelope));
    await runtime.whenEnded(job.job_id);
    expect(seen.map((envelope) => [envelope.sequence, envelope.event])).toEqual(
      await storedEvents(db, job.job_id),
    );
    expect(await storedEvents(db, job.job_id)).toEqual([
      [1, 'Queued'],
      [2, 'Started'],
      [3, 'Progress'],
      [4, 'Progress'],
      [5, 'Completed'],
    ]);
    expect(seen[4]!.data).toEqual({ result: { counted: 2 } });
    const stored = await db.jobs.get(job.job_id);
    expect(stored).toMatchObject({
      status: 'completed',
      result: { counted: 2 },
      progress: { current: 2, percent: 100 },
    });
    expect(stored?.completed_at).not.toBeNull();
  });

  it('ends failed when a full storage refuses the completed row, and stores no Completed event', async () => {
    db = freshDatabase();
    const put = db.jobs.put.bind(db.jobs);
    vi.spyOn(db.jobs, 'put').mockImplementation((job: JobDto, key?: string) =>
      job.status === 'completed' ? Dexie.Promise.reject(quota()) : put(job, key),
    );
    const stored = await runFillExpectingQuotaFailure(db);
    expect(stored.completed_at).not.toBeNull();
  });

  it('at the quota edge, where a finished row and its event together do not fit, the failed row goes alone first', async () => {
    db = freshDatabase();
    const put = db.jobs.put.bind(db.jobs);
    // Every terminal row written with its event in one transaction is refused; a row alone fits.
    vi.spyOn(db.jobs, 'put').mockImplementation((job: JobDto, key?: string) =>
      job.status !== 'queued' &&
      job.status !== 'running' &&
      Dexie.currentTransaction?.storeNames.includes('events')
        ? Dexie.Promise.reject(quota())
        : put(job, key),
    );
    await runFillExpectingQuotaFailure(db);
  });

  it('writes neither the row nor the event when the event is refused', async () => {
    db = freshDatabase();
    const runtime = runtimeOver(db);
    vi.spyOn(db.events, 'add').mockImplementation(() => Dexie.Promise.reject(quota()));
    runtime.register({ kind: 'k', run: async () => undefined });
    await expect(runtime.create('k')).rejects.toSatisfy(
      (error) => error instanceof AppError && error.code === 'STORAGE_QUOTA_EXCEEDED',
    );
    expect(await db.jobs.count()).toBe(0);
    expect(await db.events.count()).toBe(0);
  });

  it('cancels a running job, and fails a job left running by a closed tab with JOB_INTERRUPTED', async () => {
    db = freshDatabase();
    const before = runtimeOver(db);
    const never = new Promise<never>(() => undefined);
    before.register({ kind: 'stuck', run: () => never });
    before.register({
      kind: 'stoppable',
      run: (context) =>
        new Promise((_, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }),
        ),
    });
    const stuck = await before.create('stuck');
    const stoppable = await before.create('stoppable');
    for (const job of [stuck, stoppable]) {
      await new Promise<void>((resolve) => {
        const subscription = before.subscribe(job.job_id, 0, (envelope) => {
          if (envelope.event !== 'Started') return;
          subscription.close();
          resolve();
        });
      });
    }
    await before.cancel(stoppable.job_id);
    await before.whenEnded(stoppable.job_id);
    expect((await db.jobs.get(stoppable.job_id))?.status).toBe('cancelled');
    expect((await storedEvents(db, stoppable.job_id)).map(([, event]) => event)).toEqual([
      'Queued',
      'Started',
      'Cancelled',
    ]);

    // The tab dies with `stuck` running: a new runtime over the same database.
    const after = runtimeOver(db);
    after.register({ kind: 'stuck', run: async () => undefined });
    after.register({ kind: 'stoppable', run: async () => undefined });
    expect(await after.recover()).toEqual({ failed: 1, requeued: 0 });
    const failed = await db.jobs.get(stuck.job_id);
    expect(failed?.status).toBe('failed');
    expect(failed?.error?.code).toBe('JOB_INTERRUPTED');
    expect(await storedEvents(db, stuck.job_id)).toEqual([
      [1, 'Queued'],
      [2, 'Started'],
      [3, 'Failed'],
    ]);
    // A job this runtime never drove ends through its events.
    await after.whenEnded(stuck.job_id);
  });
});

describe('EventRepository.appendWith', () => {
  it('stores the caller’s row and the event together, or neither', async () => {
    db = freshDatabase();
    const events = new EventRepository(db);
    const job = {
      job_id: 'job_a',
      kind: 'k',
      status: 'queued',
      created_at: '2026-01-01T00:00:00.000Z',
    } as JobDto;
    const done = await events.appendWith(
      'job_a',
      'Queued',
      '2026-01-01T00:00:00.000Z',
      [db.jobs],
      async () => {
        await db!.jobs.put(job);
        return { value: job.job_id, data: { status: 'queued' } };
      },
    );
    expect(done).toMatchObject({
      value: 'job_a',
      envelope: { sequence: 1, event: 'Queued', data: { status: 'queued' } },
    });

    // Nothing to write: no event either.
    expect(
      await events.appendWith(
        'job_a',
        'Started',
        '2026-01-01T00:00:01.000Z',
        [db.jobs],
        async () => undefined,
      ),
    ).toBeUndefined();

    // The row is written, then the event fails: the row is rolled back too.
    vi.spyOn(db.events, 'add').mockImplementationOnce(() => Dexie.Promise.reject(quota()));
    await expect(
      events.appendWith('job_a', 'Started', '2026-01-01T00:00:01.000Z', [db.jobs], async () => {
        await db!.jobs.put({ ...job, status: 'running' });
        return { value: 1, data: {} };
      }),
    ).rejects.toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    expect((await db.jobs.get('job_a'))?.status).toBe('queued');
    expect(await storedEvents(db, 'job_a')).toEqual([[1, 'Queued']]);
  });

  it('takes the next sequence when another tab appended to the same resource meanwhile', async () => {
    db = freshDatabase();
    const ours = new EventRepository(db);
    const theirs = new EventRepository(db);
    await ours.append('job_b', 'Queued', {}, '2026-01-01T00:00:00.000Z');
    await theirs.append('job_b', 'Progress', {}, '2026-01-01T00:00:01.000Z');
    let writes = 0;
    const done = await ours.appendWith(
      'job_b',
      'Completed',
      '2026-01-01T00:00:02.000Z',
      [db.jobs],
      async () => {
        writes += 1;
        return { value: true, data: {} };
      },
    );
    // The cached sequence collided once; the retry re-read it.
    expect(writes).toBe(2);
    expect(done?.envelope.sequence).toBe(3);
    expect(await storedEvents(db, 'job_b')).toEqual([
      [1, 'Queued'],
      [2, 'Progress'],
      [3, 'Completed'],
    ]);
  });
});
