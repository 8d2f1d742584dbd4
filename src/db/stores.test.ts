import { afterEach, describe, expect, it } from 'vitest';
import type { Transaction } from 'dexie';
import { EventLog } from '../core/event-log';
import { JobRuntime } from '../core/job-runtime';
import type { NotesAgentDatabase } from './database';
import { EventRepository } from './event-repository';
import { JobRepository } from './job-repository';
import { SettingsRepository } from './settings-repository';
import { AttachmentRepository } from './attachment-repository';
import { BLOCK_CITATIONS_TABLE } from './block-citation-repository';
import { freshDatabase } from './test-database';
import { MIGRATIONS } from './schema';
import { NotesAgentDatabase as Database } from './database';

let db: NotesAgentDatabase;
afterEach(async () => db?.delete());

describe('EventRepository', () => {
  it('assigns per-resource sequences atomically, even for concurrent appends', async () => {
    db = freshDatabase();
    const events = new EventRepository(db);
    const written = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        events.append(i % 2 ? 'a' : 'b', 'Progress', { i }, '2026-01-01T00:00:00.000Z'),
      ),
    );
    const sequencesOf = (id: string) =>
      written
        .filter((e) => e.resource_id === id)
        .map((e) => e.sequence)
        .sort((x, y) => x - y);
    expect(sequencesOf('a')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sequencesOf('b')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect((await events.list('a', 8, 10)).map((e) => e.sequence)).toEqual([9, 10]);
    expect((await events.list('a', 0, 3)).map((e) => e.sequence)).toEqual([1, 2, 3]);
    expect((await events.last('b'))?.id).toBe(10);
    expect(await events.last('none')).toBeUndefined();
  });

  it('writes appends that arrive together in one transaction, each resource in call order', async () => {
    db = freshDatabase();
    const events = new EventRepository(db);
    let transactions = 0;
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => unknown;
    (db as unknown as { transaction: (...args: unknown[]) => unknown }).transaction = (...args) => {
      transactions++;
      return transaction(...args);
    };
    const written = await Promise.all(
      Array.from({ length: 300 }, (_, i) => events.append(`r${i % 3}`, 'Progress', { i }, 't')),
    );
    expect(transactions).toBe(1);
    // Call order within a resource is sequence order: r0 got i = 0, 3, 6, ... as 1, 2, 3, ...
    for (const envelope of written)
      expect(envelope.sequence).toBe(Math.floor((envelope.data as { i: number }).i / 3) + 1);
    expect(await db.events.count()).toBe(300);

    // A later append, after the batch, continues the sequence.
    expect((await events.append('r0', 'Progress', {}, 't')).sequence).toBe(101);
  });

  it('two tabs appending to one resource never reuse a sequence', async () => {
    db = freshDatabase();
    const tabA = new EventRepository(db);
    const tabBDatabase = new Database(db.name);
    const tabB = new EventRepository(tabBDatabase);
    await tabA.append('r', 'Queued', {}, 't');
    await tabB.append('r', 'Progress', {}, 't'); // B reads 1 from the table and writes 2
    // A's cache still says 1: its batch collides, is rolled back whole and written again.
    const [a3, a4] = await Promise.all([
      tabA.append('r', 'Progress', { from: 'a' }, 't'),
      tabA.append('r', 'Progress', { from: 'a' }, 't'),
    ]);
    expect([a3.sequence, a4.sequence]).toEqual([3, 4]);
    const rows = await db.events.where('resource_id').equals('r').toArray();
    expect(rows.map((row) => row.sequence)).toEqual([1, 2, 3, 4]);
    tabBDatabase.close();
  });

  it('a write that fails rejects its whole batch and leaves no row behind', async () => {
    db = freshDatabase();
    const events = new EventRepository(db);
    const good = events.append('r', 'Progress', { ok: true }, 't');
    const bad = events.append('r', 'Progress', { fn: () => 1 }, 't'); // not cloneable
    await expect(bad).rejects.toThrow();
    await expect(good).rejects.toThrow();
    expect(await db.events.count()).toBe(0);
    // The log keeps working: the next append takes sequence 1.
    expect((await events.append('r', 'Progress', {}, 't')).sequence).toBe(1);
  });

  it('refuses a second row with the same (resource_id, sequence)', async () => {
    db = freshDatabase();
    await db.events.add({ resource_id: 'r', sequence: 1, event: 'Queued', data: {}, timestamp: 't' });
    await expect(
      db.events.add({ resource_id: 'r', sequence: 1, event: 'Queued', data: {}, timestamp: 't' }),
    ).rejects.toThrow();
  });
});

describe('jobs over IndexedDB', () => {
  it('survives a reload: a running job is failed with JOB_INTERRUPTED and its events replay', async () => {
    db = freshDatabase();
    const first = new JobRuntime(new JobRepository(db), new EventLog(new EventRepository(db)));
    first.register({ kind: 'import', run: () => new Promise(() => undefined) });
    const job = await first.create('import', { attachment_id: 'a1' });
    // Synchronise on the job's own Started event, not on time.
    await new Promise<void>((resolve) => {
      const subscription = first.subscribe(job.job_id, 0, (e) => {
        if (e.event === 'Started') {
          subscription.close();
          resolve();
        }
      });
    });
    expect((await first.get(job.job_id)).status).toBe('running');

    const reopened = new Database(db.name);
    const second = new JobRuntime(new JobRepository(reopened), new EventLog(new EventRepository(reopened)));
    second.register({ kind: 'import', run: async () => undefined });
    expect(await second.recover()).toEqual({ failed: 1, requeued: 0 });
    const failed = await second.get(job.job_id);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'JOB_INTERRUPTED' } });
    const seen: string[] = [];
    await second.subscribe(job.job_id, 0, (e) => seen.push(e.event)).closed;
    expect(seen).toEqual(['Queued', 'Started', 'Failed']);
    const page = await second.list({ status: 'failed', limit: 10, offset: 0 });
    expect(page.page.total).toBe(1);
    reopened.close();
  });
});

describe('settings and attachments', () => {
  it('round-trips settings and blobs', async () => {
    db = freshDatabase();
    const settings = new SettingsRepository(db);
    await settings.put('locale', 'zh-CN');
    expect(await settings.get('locale')).toBe('zh-CN');
    expect(await settings.entries()).toEqual({ locale: 'zh-CN' });
    const attachments = new AttachmentRepository(db);
    const info = await attachments.put(new Blob(['hello'], { type: 'text/plain' }), { name: 'a.txt' });
    expect(info).toMatchObject({ name: 'a.txt', mime_type: 'text/plain', size: 5 });
    const row = await attachments.get(info.attachment_id);
    expect(await row?.blob.text()).toBe('hello');
    await attachments.delete(info.attachment_id);
    expect(await attachments.get(info.attachment_id)).toBeUndefined();
  });
});

describe('migrations', () => {
  it('upgrades data written by an earlier version', async () => {
    db = freshDatabase();
    await db.notes.add({
      note_id: 'n1',
      title: 'old',
      folder: '',
      body: '',
      tags: [],
      version: 1,
      created_at: 'x',
      updated_at: 'x',
      deleted_at: null,
      trashed: 0,
    });
    db.close();
    const nextVersion = MIGRATIONS.at(-1)!.version + 1;
    const next = [
      ...MIGRATIONS,
      {
        version: nextVersion,
        stores: {},
        upgrade: async (tx: Transaction) => {
          await tx
            .table('notes')
            .toCollection()
            .modify((row: { title: string }) => void (row.title = row.title.toUpperCase()));
        },
      },
    ];
    const upgraded = new Database(db.name, next);
    expect((await upgraded.notes.get('n1'))?.title).toBe('OLD');
    expect(upgraded.verno).toBe(nextVersion);
    upgraded.close();
  });

  it('version 2 adds the search index stores to a version 1 database and keeps its notes', async () => {
    db = freshDatabase(MIGRATIONS.slice(0, 1));
    await db.notes.add({
      note_id: 'n1',
      title: 'kept',
      folder: '',
      body: 'text',
      tags: [],
      version: 1,
      created_at: 'x',
      updated_at: 'x',
      deleted_at: null,
      trashed: 0,
    });
    expect(db.verno).toBe(1);
    db.close();
    const upgraded = new Database(db.name, MIGRATIONS.slice(0, 2));
    expect((await upgraded.notes.get('n1'))?.title).toBe('kept');
    expect(upgraded.verno).toBe(2);
    expect(await upgraded.search_index.count()).toBe(0);
    await upgraded.search_index_dirty.put({ note_id: 'n1', token: 't1' });
    expect(await upgraded.search_index_dirty.get('n1')).toEqual({ note_id: 'n1', token: 't1' });
    upgraded.close();
  });

  it('version 3 adds the provider and chat stores and keeps earlier data', async () => {
    db = freshDatabase(MIGRATIONS.slice(0, 2));
    await db.search_index_dirty.put({ note_id: 'n1', token: 't1' });
    db.close();
    const upgraded = new Database(db.name, MIGRATIONS.slice(0, 3));
    expect(upgraded.verno).toBe(3);
    expect(await upgraded.search_index_dirty.get('n1')).toEqual({ note_id: 'n1', token: 't1' });
    expect(await upgraded.providers.count()).toBe(0);
    expect(await upgraded.conversations.count()).toBe(0);
    expect(await upgraded.messages.count()).toBe(0);
    upgraded.close();
  });

  it('version 5 indexes attachments by SHA-256 and adds block citations, keeping older attachments', async () => {
    db = freshDatabase(MIGRATIONS.slice(0, 4));
    const old = await new AttachmentRepository(db).put(new Blob(['old']), { name: 'old.wav' });
    db.close();
    const upgraded = new Database(db.name, MIGRATIONS.slice(0, 5));
    expect(upgraded.verno).toBe(5);
    expect((await new AttachmentRepository(upgraded).info(old.attachment_id))?.name).toBe('old.wav');
    await upgraded.attachments.add({
      ...(await upgraded.attachments.get(old.attachment_id))!,
      attachment_id: 'a2',
      sha256: 'h1',
    });
    expect((await upgraded.attachments.where('sha256').equals('h1').first())?.attachment_id).toBe('a2');
    expect(await upgraded.table(BLOCK_CITATIONS_TABLE).count()).toBe(0);
    upgraded.close();
  });

  it('refuses migrations out of order', () => {
    expect(() => new Database('x', [MIGRATIONS[0]!, MIGRATIONS[0]!])).toThrow(/ascending/);
  });
});

describe('EventRepository across tabs', () => {
  it('never reuses a sequence when another tab appended to the same resource', async () => {
    db = freshDatabase();
    const tabA = new EventRepository(db);
    const otherConnection = new Database(db.name);
    const tabB = new EventRepository(otherConnection);
    await tabA.append('job', 'Queued', {}, 't');
    await tabB.append('job', 'Progress', {}, 't'); // tab A's cache is now stale
    const next = await tabA.append('job', 'Progress', {}, 't');
    expect(next.sequence).toBe(3);
    expect((await tabA.list('job', 0, 10)).map((e) => e.sequence)).toEqual([1, 2, 3]);
    otherConnection.close();
  });
});
