import { NotesAgentDatabase } from '../db';
import { freshDatabase } from '../db/test-database';
import type { EventEnvelope } from '../contracts';
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
