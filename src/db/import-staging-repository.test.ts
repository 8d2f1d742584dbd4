import { afterEach, describe, expect, it } from 'vitest';
import type { NotesAgentDatabase } from './database';
import { ImportStagingRepository } from './import-staging-repository';
import { freshDatabase } from './test-database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

const staged = (job_id: string, note_id: string) => ({
  job_id,
  note_id,
  title: note_id,
  folder: '',
  body: `body of ${note_id}`,
  tags: [],
  pinned: false,
  version: 1,
});

describe('ImportStagingRepository', () => {
  it("hands a job's staged notes a page at a time, in id order, and none of another job's", async () => {
    db = freshDatabase();
    const staging = new ImportStagingRepository(db);
    const ids = Array.from({ length: 120 }, (_, i) => `note_${String(i).padStart(3, '0')}`);
    for (const id of [...ids].reverse()) await staging.stage(staged('job_a', id));
    for (const id of ['note_000', 'note_500', 'note_999']) await staging.stage(staged('job_b', id));
    await staging.stage(staged('job_0', 'note_x'));
    const pages: string[][] = [];
    await staging.forEachOfJob('job_a', (page) => void pages.push(page.map((row) => row.note_id)), 50);
    expect(pages.map((page) => page.length)).toEqual([50, 50, 20]);
    expect(pages.flat()).toEqual(ids);
    const none: unknown[] = [];
    await staging.forEachOfJob('job_missing', (page) => void none.push(page));
    expect(none).toEqual([]);
  });
});
