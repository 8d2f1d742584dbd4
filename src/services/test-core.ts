import { freshDatabase } from '../db/test-database';
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
