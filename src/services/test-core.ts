import { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import type { EventEnvelope, JobDto } from '../contracts';
import { createCoreApi, type CoreOptions } from './core-api';

/** The whole core in-thread over a fresh fake IndexedDB, as the worker builds it. */
export function testCore(options: CoreOptions = {}) {
  const db = freshDatabase();
  const core = createCoreApi(db, options);
  return {
    db,
    ...core,
    close: async () => {
      core.dispose();
      // Jobs still running would otherwise write to a database Dexie re-opens after the delete.
      await core.idle().catch(() => undefined);
      await db.delete();
    },
  };
}

export type RestartableCore = ReturnType<typeof createCoreApi> & { db: NotesAgentDatabase };

/**
 * The cores of one test over its database: `open` starts one over a fresh
 * database, or over the same database again (a restart); `closeAll`, for
 * `afterEach`, stops every core and deletes the database.
 */
export function restartableCores() {
  const opened: RestartableCore[] = [];
  let databaseName: string | null = null;
  return {
    open(
      options: CoreOptions = {},
      sameDatabase = false,
      prepare?: (db: NotesAgentDatabase) => void,
    ): RestartableCore {
      let db: NotesAgentDatabase;
      if (sameDatabase && databaseName) db = new NotesAgentDatabase(databaseName);
      else {
        db = freshDatabase();
        databaseName = db.name;
      }
      prepare?.(db);
      const core = { ...createCoreApi(db, options), db };
      opened.push(core);
      return core;
    },
    databaseName: () => databaseName,
    async closeAll(): Promise<void> {
      for (const core of opened.splice(0)) await closeCore(core);
      if (databaseName) await new NotesAgentDatabase(databaseName).delete();
      databaseName = null;
    },
  };
}

/** Stops a core once its work is idle and closes its database, keeping the data. */
export async function closeCore(core: RestartableCore): Promise<void> {
  core.dispose();
  await core.idle().catch(() => undefined);
  core.db.close();
}

/** Every event of a job until its terminal one, through the events service as the page gets them. */
export async function eventsOf(
  core: { api: ReturnType<typeof createCoreApi>['api'] },
  jobId: string,
  onEvent?: (envelope: EventEnvelope) => void,
): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  const subscription = core.api.events.subscribe(jobId, 0, (envelope) => {
    seen.push(envelope);
    onEvent?.(envelope);
  });
  await subscription.closed;
  return seen;
}

/** The job once the core's work is idle: finished, failed or cancelled. */
export async function settledJob(
  core: { idle(): Promise<void>; api: ReturnType<typeof createCoreApi>['api'] },
  job: JobDto,
): Promise<JobDto> {
  await core.idle();
  return core.api.jobs.get(job.job_id);
}

/**
 * What a UI test's `vi.mock` puts in place of `ui/api/core-client`: a whole
 * core in-thread (`testCore` for the test), its job events delivered from the
 * core's own event log as the worker delivers them, or none with
 * `jobEvents: false` (the page's job list then never hears of a job).
 */
export function coreClientDouble(options: CoreOptions = {}, { jobEvents = true } = {}) {
  const current = testCore(options);
  const subscribeJob = (jobId: string, onEvent: (envelope: unknown) => void) => {
    if (!jobEvents) return () => {};
    const subscription = current.api.events.subscribe(jobId, 0, onEvent);
    return () => subscription.close();
  };
  return { core: current.api, subscribeJob, testCore: current };
}
