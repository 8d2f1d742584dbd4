import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../contracts';
import { ATTACHMENT_REUSES_TABLE, AttachmentRepository } from './attachment-repository';
import type { NotesAgentDatabase } from './database';
import { EventRepository } from './event-repository';
import { JobRepository } from './job-repository';
import { NotesRepository } from './notes-repository';
import { isQuotaExceededError, mapStorageError } from './storage-errors';
import { freshDatabase } from './test-database';

const quotaDom = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

/** Every shape a full disk reaches the app in. */
const QUOTA_SHAPES: Array<[string, () => unknown]> = [
  ['the browser’s QuotaExceededError', quotaDom],
  ['Dexie’s QuotaExceededError', () => new Dexie.QuotaExceededError('Quota exceeded', quotaDom())],
  [
    'an AbortError with the quota error as `inner`',
    () => new Dexie.AbortError('Transaction aborted', quotaDom()),
  ],
  [
    'an AbortError whose transaction error is the quota error',
    () => Object.assign(new DOMException('aborted', 'AbortError'), { transaction: { error: quotaDom() } }),
  ],
  [
    'an AbortError event whose target transaction failed on the quota',
    () =>
      Object.assign(new Error('aborted'), {
        name: 'AbortError',
        target: { transaction: { error: quotaDom() } },
      }),
  ],
  ['a BulkError listing a quota failure', () => new Dexie.BulkError('bulkAdd failed', [quotaDom()])],
];

describe('isQuotaExceededError', () => {
  it.each(QUOTA_SHAPES)('recognises %s', (_name, make) => {
    expect(isQuotaExceededError(make())).toBe(true);
    const mapped = mapStorageError(make());
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
    expect((mapped as AppError).message).toMatch(/Settings → Storage/);
  });

  it('leaves a user cancel, a constraint error and unrelated values alone', () => {
    const cancel = new DOMException('Cancelled by the user.', 'AbortError');
    const constraint = new Dexie.ConstraintError('Key already exists');
    for (const error of [cancel, constraint, new Dexie.AbortError('aborted'), null, 'quota', 42]) {
      expect(isQuotaExceededError(error)).toBe(false);
      expect(mapStorageError(error)).toBe(error);
    }
  });

  it('stops on a cycle of causes', () => {
    const a: { name: string; inner?: unknown } = { name: 'AbortError' };
    a.inner = { name: 'AbortError', inner: a };
    expect(isQuotaExceededError(a)).toBe(false);
  });
});

let db: NotesAgentDatabase | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.delete();
  db = undefined;
});

async function expectQuota(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'STORAGE_QUOTA_EXCEEDED' });
}

describe('repository writes at the quota', () => {
  it.each(QUOTA_SHAPES)(
    'a note update that hits %s rolls back and says STORAGE_QUOTA_EXCEEDED',
    async (_n, make) => {
      db = freshDatabase();
      const notes = new NotesRepository(db, { history: {} });
      const note = await notes.create({ title: 'Plan', folder: '', body: 'first line', tags: [] });
      // The note row is written first; the blocks write then fails on the quota.
      vi.spyOn(db.blocks, 'bulkPut').mockImplementation(() => Dexie.Promise.reject(make()));
      await expectQuota(notes.update(note.note_id, { body: 'a much longer body\n\nwith two blocks' }));
      expect(await notes.get(note.note_id)).toMatchObject({ body: 'first line', version: 1 });
      expect((await notes.blocks(note.note_id)).map((block) => block.text)).toEqual(['first line']);
      expect(await db.table('note_versions').count()).toBe(0);
    },
  );

  it.each(QUOTA_SHAPES)('an imported batch that hits %s leaves no note behind', async (_n, make) => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    vi.spyOn(db.blocks, 'bulkAdd').mockImplementation(() => Dexie.Promise.reject(make()));
    const drafts = [1, 2, 3].map((n) => ({
      title: `Note ${n}`,
      folder: 'vault',
      body: `body ${n}`,
      tags: [],
    }));
    await expectQuota(notes.createMany(drafts));
    expect(await db.notes.count()).toBe(0);
  });

  it('an attachment, a job and an event at the quota say STORAGE_QUOTA_EXCEEDED', async () => {
    db = freshDatabase();
    vi.spyOn(db.attachments, 'add').mockImplementation(() =>
      Dexie.Promise.reject(new Dexie.AbortError('aborted', quotaDom())),
    );
    await expectQuota(new AttachmentRepository(db).put(new Blob(['zip']), { name: 'vault.zip' }));
    expect(await db.attachments.count()).toBe(0);

    vi.spyOn(db.jobs, 'put').mockImplementation(() =>
      Dexie.Promise.reject(new Dexie.AbortError('aborted', quotaDom())),
    );
    const job = { job_id: 'job_1' } as Parameters<JobRepository['put']>[0];
    await expectQuota(new JobRepository(db).put(job));

    vi.spyOn(db.events, 'bulkAdd').mockImplementation(() =>
      Dexie.Promise.reject(new Dexie.AbortError('aborted', quotaDom())),
    );
    await expectQuota(new EventRepository(db).append('job_1', 'Progress', {}, '2026-01-01T00:00:00.000Z'));
    expect(await db.events.count()).toBe(0);
  });

  it('a picture already stored is handed out again at the quota; a new one says STORAGE_QUOTA_EXCEEDED', async () => {
    db = freshDatabase();
    const attachments = new AttachmentRepository(db);
    const stored = await attachments.putOnce(new Blob(['png']), { name: 'a.png', sha256: 'h1' });
    // Marking the hand-out is a write, which a full disk refuses: the paste still gets its picture.
    vi.spyOn(db.table(ATTACHMENT_REUSES_TABLE), 'put').mockImplementation(() =>
      Dexie.Promise.reject(new Dexie.AbortError('aborted', quotaDom())),
    );
    expect(await attachments.putOnce(new Blob(['png']), { name: 'b.png', sha256: 'h1' })).toEqual({
      attachment: stored.attachment,
      created: false,
    });
    vi.spyOn(db.attachments, 'add').mockImplementation(() =>
      Dexie.Promise.reject(new Dexie.AbortError('aborted', quotaDom())),
    );
    await expectQuota(attachments.putOnce(new Blob(['new']), { name: 'c.png', sha256: 'h2' }));
    expect(await db.attachments.count()).toBe(1);
  });

  it('a user cancel stays an AbortError, so it still reads as a cancel', async () => {
    db = freshDatabase();
    const notes = new NotesRepository(db);
    const cancel = new DOMException('Cancelled by the user.', 'AbortError');
    vi.spyOn(db.blocks, 'bulkAdd').mockImplementation(() => Dexie.Promise.reject(cancel));
    const error: unknown = await notes
      .create({ title: 'x', folder: '', body: 'y', tags: [] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(error).not.toBeInstanceOf(AppError);
  });
});
