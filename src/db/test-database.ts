import { NotesAgentDatabase } from './database';
import type { Migration } from './schema';

let counter = 0;

/** A fresh, uniquely named database per test (fake-indexeddb in Node). */
export function freshDatabase(migrations?: readonly Migration[]): NotesAgentDatabase {
  counter += 1;
  return new NotesAgentDatabase(
    `test-${process.pid}-${counter}-${Math.random().toString(36).slice(2)}`,
    migrations,
  );
}
