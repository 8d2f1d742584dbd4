import { freshDatabase } from '../db/test-database';
import { createCoreApi } from './core-api';

/** The whole core in-thread over a fresh fake IndexedDB, as the worker builds it. */
export function testCore() {
  const db = freshDatabase();
  const core = createCoreApi(db);
  return { db, ...core, close: () => db.delete() };
}
