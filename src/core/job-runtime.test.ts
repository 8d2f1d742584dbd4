import { describe, expect, it, vi } from 'vitest';
import { AppError, type EventEnvelope } from '../contracts';
import { EventLog } from './event-log';
import { MemoryEventStore } from './event-store';
import { JobRuntime, PRUNE_FINISHED_EVERY, type JobContext } from './job-runtime';
import { MemoryJobStore } from './job-store';
import { MemoryLeaseManager, jobLeaseName } from './job-leases';

function setup() {
  const jobs = new MemoryJobStore();
  const eventStore = new MemoryEventStore();
  const events = new EventLog(eventStore);
  const runtime = new JobRuntime(jobs, events);
  return { jobs, eventStore, events, runtime };
}

/** A job body the test steers by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function collect(runtime: JobRuntime, jobId: string, after = 0) {
  const seen: EventEnvelope[] = [];
  const subscription = runtime.subscribe(jobId, after, (envelope) => seen.push(envelope));
  return { seen, subscription };
}

/** Resolves once the job has emitted Started: tests wait on the event, not on time. */
function started(runtime: JobRuntime, jobId: string): Promise<void> {
  return new Promise((resolve) => {
    const subscription = runtime.subscribe(jobId, 0, (envelope) => {
      if (envelope.event !== 'Started') return;
      subscription.close();
      resolve();
    });
  });
}

/** A job body that runs until it is cancelled. */
function untilAborted(context: JobContext<unknown>): Promise<never> {
  return new Promise((_, reject) =>
    context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true }),
  );
}

async function expectCode(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toSatisfy((error) => error instanceof AppError && error.code === code);
}

describe('JobRuntime', () => {
  it('returns queued at once, then runs with progress and completes with completed_at', async () => {
    const { runtime } = setup();
    const release = gate();
    runtime.register({
      kind: 'count',
      async run(context: JobContext<{ n: number }>) {
        await release.opened;
        for (let i = 1; i <= context.input.n; i++)
          await context.progress({ phase: 'counting', current: i, total: 4 });
        return { counted: context.input.n };
      },
    });
    const job = await runtime.create('count', { n: 4 });
    expect(job.status).toBe('queued');
    expect(job.completed_at).toBeNull();
    const { seen, subscription } = collect(runtime, job.job_id);
    release.open();
    await subscription.closed;
    expect(seen.map((e) => e.event)).toEqual([
      'Queued',
      'Started',
      'Progress',
      'Progress',
      'Progress',
      'Progress',
      'Completed',
    ]);
    expect(seen.map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(seen[2]!.data).toEqual({ phase: 'counting', current: 1, total: 4, percent: 25, message: null });
    const done = await runtime.get(job.job_id);
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ counted: 4 });
    expect(done.completed_at).not.toBeNull();
    expect(done.progress?.percent).toBe(100);
  });

  it('reports null percent when the total is unknown', async () => {
    const { runtime } = setup();
    runtime.register({ kind: 'open', run: async (c) => c.progress({ phase: 'reading', current: 3 }) });
    const job = await runtime.create('open');
    await runtime.idle();
    const { items } = await new EventLog(new MemoryEventStore()).list('none');
    expect(items).toEqual([]);
    expect((await runtime.get(job.job_id)).progress).toMatchObject({
      current: 3,
      total: null,
      percent: null,
    });
  });

  it('puts extra event data into the Progress event only, never into the stored job', async () => {
    const { runtime, events } = setup();
    runtime.register({
      kind: 'windows',
      run: async (c) => c.progress({ phase: 'transcribing', current: 1, total: 2 }, { segments: ['a'] }),
    });
    const job = await runtime.create('windows');
    await runtime.idle();
    const { items } = await events.list(job.job_id);
    expect(items.find((e) => e.event === 'Progress')?.data).toEqual({
      segments: ['a'],
      phase: 'transcribing',
      current: 1,
      total: 2,
      percent: 50,
      message: null,
    });
    expect((await runtime.get(job.job_id)).progress).toEqual({
      phase: 'transcribing',
      current: 1,
      total: 2,
      percent: 50,
      message: null,
    });
  });

  it('ends failed with the storage error when the finished row itself cannot be written, never left running', async () => {
    const { runtime, jobs } = setup();
    const put = jobs.put.bind(jobs);
    // A full storage: the completed row (with its result) is refused; the smaller failed row fits.
    jobs.put = async (job) => {
      if (job.status === 'completed')
        throw new AppError('STORAGE_QUOTA_EXCEEDED', 'Storage for this site is full.');
      await put(job);
    };
    runtime.register({ kind: 'fill', run: async () => ({ imported: 20 }) });
    const job = await runtime.create('fill');
    const { seen } = collect(runtime, job.job_id);
    await runtime.idle();
    const ended = await runtime.get(job.job_id);
    expect(ended.status).toBe('failed');
    expect(ended.error?.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(seen.map((event) => event.event)).toContain('Failed');
    expect(seen.map((event) => event.event)).not.toContain('Completed');
  });

  it('when no end can be stored at all, the job settles, whenEnded resolves and nothing is left unhandled', async () => {
    const { runtime, jobs } = setup();
    const put = jobs.put.bind(jobs);
    // The database went away mid-job: every terminal row is refused.
    jobs.put = async (job) => {
      if (job.status !== 'queued' && job.status !== 'running') throw new Error('Database has been closed');
      await put(job);
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      runtime.register({ kind: 'lost', run: async () => 'done' });
      const job = await runtime.create('lost');
      const { seen, subscription } = collect(runtime, job.job_id);
      await runtime.whenEnded(job.job_id);
      await runtime.idle();
      // Rejections are reported after the microtask queue drains: let one macrotask pass.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect((await runtime.get(job.job_id)).status).toBe('running');
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(job.job_id), expect.anything());
      // Whoever watches the job hears it end (it showed "running" for good): unstored, once.
      await subscription.closed;
      expect(seen.map((event) => event.event)).toEqual(['Queued', 'Started', 'Failed']);
      expect(seen.at(-1)!.data).toMatchObject({ error: { code: 'JOB_FAILED' } });
    } finally {
      process.off('unhandledRejection', onUnhandled);
      warn.mockRestore();
    }
  });

  it('at a storage full to the last byte, the job ends for its watchers with STORAGE_QUOTA_EXCEEDED', async () => {
    const { runtime, jobs, eventStore } = setup();
    const put = jobs.put.bind(jobs);
    const full = () => new AppError('STORAGE_QUOTA_EXCEEDED', 'Storage for this site is full.');
    // No terminal row fits, and no event either: every end write is refused.
    jobs.put = async (job) => {
      if (job.status !== 'queued' && job.status !== 'running') throw full();
      await put(job);
    };
    const append = eventStore.append.bind(eventStore);
    eventStore.append = async (resourceId, event, data, timestamp) => {
      if (event === 'Failed' || event === 'Completed') throw full();
      return append(resourceId, event, data, timestamp);
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      runtime.register({ kind: 'fill', run: async () => ({ imported: 20 }) });
      const job = await runtime.create('fill');
      const { seen, subscription } = collect(runtime, job.job_id);
      await subscription.closed;
      expect(seen.at(-1)).toMatchObject({
        event: 'Failed',
        data: { error: { code: 'STORAGE_QUOTA_EXCEEDED' } },
      });
      // Nothing half-written: the stored row is still the running one, for the next start to settle.
      expect((await runtime.get(job.job_id)).status).toBe('running');
      expect((await eventStore.list(job.job_id, 0, 10)).map((event) => event.event)).toEqual([
        'Queued',
        'Started',
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('fails with a project error code and no stack', async () => {
    const { runtime } = setup();
    runtime.register({
      kind: 'boom',
      run: async () => {
        throw new Error('TypeError at /src/secret.ts:1');
      },
    });
    runtime.register({
      kind: 'typed',
      run: async () => {
        throw new AppError('IMPORT_ARCHIVE_INVALID', 'Not a zip file.');
      },
    });
    const a = await runtime.create('boom');
    const b = await runtime.create('typed');
    await runtime.idle();
    const failed = await runtime.get(a.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('JOB_FAILED');
    expect(JSON.stringify(failed)).not.toContain('secret.ts');
    expect((await runtime.get(b.job_id)).error).toEqual({
      code: 'IMPORT_ARCHIVE_INVALID',
      message: 'Not a zip file.',
      details: {},
    });
  });

  it("names its kind's cancellation code in the Cancelled event, and only there", async () => {
    const { runtime } = setup();
    runtime.register({
      kind: 'listen',
      cancelledError: { code: 'TRANSCRIPTION_CANCELLED', message: 'The transcription was cancelled.' },
      run: untilAborted,
    });
    runtime.register({ kind: 'plain', run: untilAborted });
    const blocker = await runtime.create('listen');
    const queued = await runtime.create('listen');
    const plain = await runtime.create('plain');
    await runtime.cancel(queued.job_id);
    const listen = collect(runtime, queued.job_id);
    await listen.subscription.closed;
    expect(listen.seen.at(-1)).toMatchObject({
      event: 'Cancelled',
      data: {
        error: { code: 'TRANSCRIPTION_CANCELLED', message: 'The transcription was cancelled.', details: {} },
      },
    });
    expect((await runtime.get(queued.job_id)).error).toBeNull();
    await runtime.cancel(plain.job_id);
    const other = collect(runtime, plain.job_id);
    await other.subscription.closed;
    expect(other.seen.at(-1)).toMatchObject({ event: 'Cancelled', data: {} });
    expect(blocker.status).toBe('queued');
    await runtime.cancel(blocker.job_id);
    await runtime.idle();
  });

  it('cancels a running job through its AbortSignal', async () => {
    const { runtime } = setup();
    let sawAbort = false;
    const started = gate();
    runtime.register({
      kind: 'long',
      run: (context) =>
        new Promise((_, reject) => {
          started.open();
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(context.signal.reason);
          });
        }),
    });
    const job = await runtime.create('long');
    const { seen, subscription } = collect(runtime, job.job_id);
    await started.opened;
    const accepted = await runtime.cancel(job.job_id);
    expect(accepted.status).toBe('running');
    await subscription.closed;
    expect(sawAbort).toBe(true);
    expect(seen.at(-1)?.event).toBe('Cancelled');
    const cancelled = await runtime.get(job.job_id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.completed_at).not.toBeNull();
    expect(cancelled.error).toBeNull();
  });

  it('treats work that ignores the signal but finishes after cancel as cancelled', async () => {
    const { runtime } = setup();
    const release = gate();
    const started = gate();
    runtime.register({
      kind: 'stubborn',
      run: async () => {
        started.open();
        await release.opened;
        return 'done';
      },
    });
    const job = await runtime.create('stubborn');
    await started.opened;
    await runtime.cancel(job.job_id);
    release.open();
    await runtime.idle();
    expect((await runtime.get(job.job_id)).status).toBe('cancelled');
  });

  it('cancels a queued job at once', async () => {
    const { runtime } = setup();
    const release = gate();
    runtime.register({ kind: 'slot', run: () => release.opened });
    const first = await runtime.create('slot');
    const second = await runtime.create('slot');
    const cancelled = await runtime.cancel(second.job_id);
    expect(cancelled.status).toBe('cancelled');
    release.open();
    await runtime.idle();
    expect((await runtime.get(first.job_id)).status).toBe('completed');
    expect((await runtime.get(second.job_id)).status).toBe('cancelled');
  });

  it('rejects illegal transitions with 409 STATE_CONFLICT and unknown ids with JOB_NOT_FOUND', async () => {
    const { runtime } = setup();
    runtime.register({ kind: 'quick', run: async () => 1 });
    const job = await runtime.create('quick');
    await runtime.idle();
    await expectCode(runtime.cancel(job.job_id), 'STATE_CONFLICT');
    await runtime.cancel(job.job_id).catch((error: AppError) => expect(error.status).toBe(409));
    await expectCode(runtime.cancel('job_missing'), 'JOB_NOT_FOUND');
    await expectCode(runtime.get('job_missing'), 'JOB_NOT_FOUND');
    await expectCode(runtime.create('no-such-kind'), 'INVALID_REQUEST');
  });

  it('deletes a finished job; refuses a running one and an unknown id', async () => {
    const { runtime } = setup();
    const release = gate();
    runtime.register({ kind: 'held', run: async () => release.opened });
    const job = await runtime.create('held');
    await expectCode(runtime.delete(job.job_id), 'STATE_CONFLICT');
    release.open();
    await collect(runtime, job.job_id).subscription.closed;
    await runtime.delete(job.job_id);
    await expectCode(runtime.get(job.job_id), 'JOB_NOT_FOUND');
    await expectCode(runtime.delete(job.job_id), 'JOB_NOT_FOUND');
  });

  it('limits concurrency per kind and queues the rest in order', async () => {
    const { runtime } = setup();
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    runtime.register({
      kind: 'limited',
      concurrency: 2,
      run: async (context: JobContext<{ i: number }>) => {
        active++;
        peak = Math.max(peak, active);
        order.push(context.input.i);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active--;
      },
    });
    runtime.register({ kind: 'other', run: async () => undefined });
    for (let i = 0; i < 6; i++) await runtime.create('limited', { i });
    await runtime.create('other');
    await runtime.idle();
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('on start-up fails jobs left running by a closed tab and resumes resumable kinds', async () => {
    const { jobs, eventStore } = setup();
    const before = new JobRuntime(jobs, new EventLog(eventStore));
    const never = new Promise<never>(() => undefined);
    before.register({ kind: 'fragile', run: () => never });
    before.register({ kind: 'resumable', resumable: true, run: () => never });
    before.register({ kind: 'waiting', run: () => never });
    const fragile = await before.create('fragile');
    const resumable = await before.create('resumable');
    const firstWaiting = await before.create('waiting');
    const waiting = await before.create('waiting'); // stays queued behind the first
    await Promise.all([fragile, resumable, firstWaiting].map((job) => started(before, job.job_id)));
    expect((await jobs.get(fragile.job_id))?.status).toBe('running');

    // The tab dies: a new runtime over the same stores.
    const after = new JobRuntime(jobs, new EventLog(eventStore));
    let resumed = 0;
    after.register({ kind: 'fragile', run: async () => undefined });
    after.register({ kind: 'resumable', resumable: true, run: async () => void resumed++ });
    after.register({ kind: 'waiting', run: async () => undefined });
    const summary = await after.recover();
    await after.idle();
    expect(summary).toEqual({ failed: 2, requeued: 2 });
    const failed = await after.get(fragile.job_id);
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('JOB_INTERRUPTED');
    expect(resumed).toBe(1);
    expect((await after.get(resumable.job_id)).status).toBe('completed');
    expect((await after.get(waiting.job_id)).status).toBe('completed');
    const { seen, subscription } = collect(after, fragile.job_id);
    await subscription.closed; // closes itself after the terminal event
    expect(seen.map((e) => e.event)).toEqual(['Queued', 'Started', 'Failed']);
  });

  it('reads a job’s stored events page by page, so a resumed run can see what the last one published', async () => {
    const { jobs, eventStore } = setup();
    const before = new JobRuntime(jobs, new EventLog(eventStore));
    const halfway = gate();
    before.register({
      kind: 'steps',
      resumable: true,
      async run(context) {
        await context.progress({ phase: 'step', current: 1, total: 2 }, { done: ['a'] });
        halfway.open();
        return new Promise<never>(() => undefined);
      },
    });
    const job = await before.create('steps');
    await halfway.opened;

    const after = new JobRuntime(jobs, new EventLog(eventStore));
    const seenByResume: unknown[] = [];
    after.register({
      kind: 'steps',
      resumable: true,
      async run(context) {
        for (let cursor = 0; ;) {
          const page = await after.events(context.jobId, cursor, 2);
          seenByResume.push(...page.items.filter((e) => e.event === 'Progress').map((e) => e.data));
          cursor = page.next_sequence;
          if (!page.has_more) break;
        }
      },
    });
    await after.recover();
    await after.whenEnded(job.job_id);
    expect(seenByResume).toEqual([expect.objectContaining({ done: ['a'], current: 1 })]);
    const { items } = await after.events(job.job_id);
    expect(items.map((e) => e.event)).toEqual([
      'Queued',
      'Started',
      'Progress',
      'Queued',
      'Started',
      'Completed',
    ]);
  });

  describe('with other tabs open (leases)', () => {
    const never = () => new Promise<never>(() => undefined);

    it('leaves a job another live tab runs or has queued alone, and its own lease ends with the job', async () => {
      const { jobs, eventStore } = setup();
      const leases = new MemoryLeaseManager();
      const first = new JobRuntime(jobs, new EventLog(eventStore), undefined, leases.tab());
      const release = gate();
      first.register({ kind: 'import', run: () => release.opened });
      first.register({ kind: 'resumable', resumable: true, run: never });
      const running = await first.create('import');
      const queued = await first.create('import'); // waits behind the first
      const resumable = await first.create('resumable');
      await Promise.all([started(first, running.job_id), started(first, resumable.job_id)]);

      // The user opens a second tab: its start-up finds the first tab's jobs unfinished.
      const second = new JobRuntime(jobs, new EventLog(eventStore), undefined, leases.tab());
      let ranInSecond = 0;
      second.register({ kind: 'import', run: async () => void ranInSecond++ });
      second.register({ kind: 'resumable', resumable: true, run: async () => void ranInSecond++ });
      expect(await second.recover()).toEqual({ failed: 0, requeued: 0 });
      expect((await jobs.get(running.job_id))?.status).toBe('running');
      expect((await jobs.get(resumable.job_id))?.status).toBe('running');
      expect((await jobs.get(queued.job_id))?.status).toBe('queued');
      // Stopping another tab's running work is that tab's to do.
      await expectCode(second.cancel(running.job_id), 'STATE_CONFLICT');

      release.open();
      await first.whenEnded(running.job_id);
      await first.whenEnded(queued.job_id);
      expect((await first.get(running.job_id)).status).toBe('completed');
      expect((await first.get(queued.job_id)).status).toBe('completed');
      expect(ranInSecond).toBe(0);
      expect(leases.isHeld(jobLeaseName(running.job_id))).toBe(false);
      expect(leases.isHeld(jobLeaseName(resumable.job_id))).toBe(true);
    });

    it('recovers a closed tab’s jobs as before once their leases are free', async () => {
      const { jobs, eventStore } = setup();
      const leases = new MemoryLeaseManager();
      const closedTab = leases.tab();
      const before = new JobRuntime(jobs, new EventLog(eventStore), undefined, closedTab);
      before.register({ kind: 'fragile', run: never });
      before.register({ kind: 'resumable', resumable: true, run: never });
      const fragile = await before.create('fragile');
      const resumable = await before.create('resumable');
      await Promise.all([started(before, fragile.job_id), started(before, resumable.job_id)]);
      const waiting = await before.create('fragile'); // queued behind the first
      closedTab.close();

      const after = new JobRuntime(jobs, new EventLog(eventStore), undefined, leases.tab());
      let resumed = 0;
      after.register({ kind: 'fragile', run: async () => undefined });
      after.register({ kind: 'resumable', resumable: true, run: async () => void resumed++ });
      expect(await after.recover()).toEqual({ failed: 1, requeued: 2 });
      await after.idle();
      expect((await after.get(fragile.job_id)).error?.code).toBe('JOB_INTERRUPTED');
      expect((await after.get(resumable.job_id)).status).toBe('completed');
      expect((await after.get(waiting.job_id)).status).toBe('completed');
      expect(resumed).toBe(1);
    });

    it('lets only one of two tabs starting at once take a job left behind', async () => {
      const { jobs, eventStore } = setup();
      const leases = new MemoryLeaseManager();
      const closedTab = leases.tab();
      const before = new JobRuntime(jobs, new EventLog(eventStore), undefined, closedTab);
      before.register({ kind: 'resumable', resumable: true, run: never });
      before.register({ kind: 'waiting', run: never });
      const resumable = await before.create('resumable');
      await started(before, resumable.job_id);
      const waiting = await before.create('waiting');
      await started(before, waiting.job_id);
      const queued = await before.create('waiting');
      closedTab.close();

      const runs: string[] = [];
      const tab = (name: string) => {
        const runtime = new JobRuntime(jobs, new EventLog(eventStore), undefined, leases.tab());
        runtime.register({ kind: 'resumable', resumable: true, run: async () => void runs.push(name) });
        runtime.register({ kind: 'waiting', run: async () => void runs.push(name) });
        return runtime;
      };
      const [a, b] = [tab('a'), tab('b')];
      const summaries = await Promise.all([a.recover(), b.recover()]);
      await Promise.all([a.idle(), b.idle()]);
      // The running "waiting" job is failed once, the resumable and the queued job run once each.
      expect(summaries.reduce((sum, s) => sum + s.failed, 0)).toBe(1);
      expect(summaries.reduce((sum, s) => sum + s.requeued, 0)).toBe(2);
      expect(runs).toHaveLength(2);
      expect((await jobs.get(resumable.job_id))?.status).toBe('completed');
      expect((await jobs.get(queued.job_id))?.status).toBe('completed');
      const { seen, subscription } = collect(a, waiting.job_id);
      await subscription.closed;
      expect(seen.map((e) => e.event)).toEqual(['Queued', 'Started', 'Failed']);
    });

    it('still cancels its own running and queued jobs, and frees their leases', async () => {
      const { jobs, eventStore } = setup();
      const leases = new MemoryLeaseManager();
      const runtime = new JobRuntime(jobs, new EventLog(eventStore), undefined, leases.tab());
      runtime.register({ kind: 'long', run: untilAborted });
      const running = await runtime.create('long');
      const queued = await runtime.create('long');
      await started(runtime, running.job_id);
      await runtime.cancel(queued.job_id);
      await runtime.cancel(running.job_id);
      await runtime.whenEnded(running.job_id);
      await runtime.idle();
      expect((await runtime.get(running.job_id)).status).toBe('cancelled');
      expect((await runtime.get(queued.job_id)).status).toBe('cancelled');
      expect(leases.isHeld(jobLeaseName(running.job_id))).toBe(false);
      expect(leases.isHeld(jobLeaseName(queued.job_id))).toBe(false);
    });
  });

  it('lists newest first with offset pages', async () => {
    const { runtime } = setup();
    let t = 1_000;
    const clocked = new JobRuntime(
      new MemoryJobStore(),
      new EventLog(new MemoryEventStore()),
      () => (t += 1000),
    );
    clocked.register({ kind: 'k', run: async () => undefined });
    for (let i = 0; i < 3; i++) await clocked.create('k', { i });
    const page = await clocked.list({ limit: 2, offset: 0 });
    expect(page.page).toEqual({ total: 3, limit: 2, offset: 0 });
    expect(page.items.map((job) => job.input['i'])).toEqual([2, 1]);
    expect((await runtime.list({ limit: 10, offset: 0 })).items).toEqual([]);
  });

  it('prunes finished jobs of a kind beyond the newest few, never a running or queued one', async () => {
    let t = 1_000;
    const store = new MemoryJobStore();
    const clocked = new JobRuntime(store, new EventLog(new MemoryEventStore()), () => (t += 1000));
    const release = gate();
    clocked.register({
      kind: 'k',
      concurrency: 1,
      run: async (context: JobContext<{ hold?: boolean }>) =>
        context.input.hold ? release.opened : undefined,
    });
    clocked.register({ kind: 'other', run: async () => undefined });
    const finished = [];
    for (let i = 0; i < 4; i++) {
      const job = await clocked.create('k', { i });
      await collect(clocked, job.job_id).subscription.closed;
      finished.push(job.job_id);
    }
    const other = await clocked.create('other');
    await collect(clocked, other.job_id).subscription.closed;
    const running = await clocked.create('k', { hold: true });
    const queued = await clocked.create('k', { i: 9 });

    expect(await clocked.prune('k', 2)).toBe(2);
    const left = (await clocked.list({ kind: 'k', limit: 10, offset: 0 })).items.map((job) => job.job_id);
    expect(left).toEqual([queued.job_id, running.job_id, finished[3], finished[2]]);
    await expectCode(clocked.get(finished[0]!), 'JOB_NOT_FOUND');
    expect((await clocked.get(other.job_id)).status).toBe('completed');
    expect(await clocked.prune('k', 2)).toBe(0);
    release.open();
    await clocked.idle();
    // Now the held and the queued job have finished too: the two newest stay.
    expect(await clocked.prune('k', 2)).toBe(2);
    expect((await clocked.list({ kind: 'k', limit: 10, offset: 0 })).items.map((job) => job.job_id)).toEqual([
      queued.job_id,
      running.job_id,
    ]);
  });

  it('keeps at most keepFinished + PRUNE_FINISHED_EVERY finished jobs of a kind, the newest always', async () => {
    let t = 1_000;
    const store = new MemoryJobStore();
    const clocked = new JobRuntime(store, new EventLog(new MemoryEventStore()), () => (t += 1000));
    const keep = 3;
    clocked.register({ kind: 'often', keepFinished: keep, run: async () => undefined });
    clocked.register({ kind: 'kept', run: async () => undefined });
    const kept = await clocked.create('kept');
    const counts: number[] = [];
    for (let i = 0; i < 2 * PRUNE_FINISHED_EVERY + 2; i++) {
      const job = await clocked.create('often', { i });
      await clocked.idle();
      const left = (await clocked.list({ kind: 'often', limit: 100, offset: 0 })).items;
      expect(left[0]!.job_id).toBe(job.job_id);
      expect(left.every((each) => each.status === 'completed')).toBe(true);
      counts.push(left.length);
    }
    expect(Math.max(...counts)).toBe(keep + PRUNE_FINISHED_EVERY - 1);
    // Pruned at the first end, then at every PRUNE_FINISHED_EVERY-th: not after each job.
    const prunedAfter = counts.flatMap((count, i) => (i > 0 && count < counts[i - 1]! ? [i + 1] : []));
    expect(prunedAfter).toEqual([PRUNE_FINISHED_EVERY + 1, 2 * PRUNE_FINISHED_EVERY + 1]);
    expect(counts[PRUNE_FINISHED_EVERY]).toBe(keep);
    expect(counts.at(-1)).toBe(keep + 1);
    // Other kinds are never pruned.
    expect((await clocked.get(kept.job_id)).status).toBe('completed');
  });

  it('resolves whenEnded for its own jobs without reading events, and for others through their events', async () => {
    const { jobs, eventStore, runtime } = setup();
    const release = gate();
    runtime.register({ kind: 'held', run: () => release.opened });
    runtime.register({ kind: 'stopped', run: untilAborted });
    const held = await runtime.create('held');
    const queuedBehind = await runtime.create('held');
    const stopped = await runtime.create('stopped');
    await started(runtime, stopped.job_id);
    const list = eventStore.list.bind(eventStore);
    let reads = 0;
    eventStore.list = (...args) => {
      reads += 1;
      return list(...args);
    };
    const ends: string[] = [];
    const watch = (jobId: string) => runtime.whenEnded(jobId).then(() => ends.push(jobId));
    const watched = [watch(held.job_id), watch(queuedBehind.job_id), watch(stopped.job_id)];
    await runtime.cancel(queuedBehind.job_id);
    await runtime.cancel(stopped.job_id);
    release.open();
    await Promise.all(watched);
    expect(ends.sort()).toEqual([held.job_id, queuedBehind.job_id, stopped.job_id].sort());
    expect(reads).toBe(0);
    expect((await runtime.get(held.job_id)).status).toBe('completed');
    expect((await runtime.get(queuedBehind.job_id)).status).toBe('cancelled');

    // Another runtime (a second tab) learns the end from the stored events.
    const other = new JobRuntime(jobs, new EventLog(eventStore));
    await other.whenEnded(held.job_id);
    expect(reads).toBeGreaterThan(0);
  });
});
