import Dexie from 'dexie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../contracts';
import type { NotesAgentDatabase } from '../db/database';
import { DRAFTS_TABLE, DraftRepository } from '../db/draft-repository';
import { freshDatabase } from '../db/test-database';
import { DraftsService, MAX_DRAFT_CHARS } from './drafts-service';

let db: NotesAgentDatabase | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.delete();
});

function setup() {
  db = freshDatabase();
  return { drafts: new DraftsService(new DraftRepository(db)), db };
}

const draft = (overrides: Record<string, unknown> = {}) => ({
  tab_id: 'tabA',
  note_id: 'note_1',
  title: 'Plan',
  folder: 'work',
  tags: ['a'],
  body: 'typed text',
  base_version: 3,
  saved_at: '2026-03-10T12:00:00.000Z',
  ...overrides,
});

async function errorOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('DraftsService', () => {
  it('saves, reads back, replaces and removes a tab’s draft of a note', async () => {
    const { drafts } = setup();
    await drafts.save(draft());
    expect(await drafts.get({ tab_id: 'tabA', note_id: 'note_1' })).toEqual(draft());
    await drafts.save(draft({ body: 'typed on' }));
    expect(await drafts.list()).toEqual([draft({ body: 'typed on' })]);
    expect(await drafts.remove({ tab_id: 'tabA', note_id: 'note_1' })).toEqual({ removed: true });
    expect(await drafts.get({ tab_id: 'tabA', note_id: 'note_1' })).toBeNull();
  });

  it('keeps a draft longer than a note may be (that is when it matters most)', async () => {
    const { drafts } = setup();
    const body = 'x'.repeat(6 * 1024 * 1024);
    await drafts.save(draft({ body }));
    expect((await drafts.get({ tab_id: 'tabA', note_id: 'note_1' }))?.body).toHaveLength(body.length);
  });

  it('two tabs keep a draft each of the same note; neither overwrites nor removes the other', async () => {
    const { drafts } = setup();
    await drafts.save(draft({ tab_id: 'tabA', body: 'typed in A' }));
    await drafts.save(draft({ tab_id: 'tabB', body: 'typed in B' }));
    await drafts.save(draft({ tab_id: 'tabA', body: 'typed on in A' }));
    expect((await drafts.get({ tab_id: 'tabB', note_id: 'note_1' }))?.body).toBe('typed in B');
    expect(await drafts.remove({ tab_id: 'tabA', note_id: 'note_1' })).toEqual({ removed: true });
    expect((await drafts.list()).map((row) => `${row.tab_id}:${row.body}`)).toEqual(['tabB:typed in B']);
  });

  it('finds nothing to read or remove for a tab or note without a draft', async () => {
    const { drafts } = setup();
    await drafts.save(draft());
    expect(await drafts.get({ tab_id: 'tabB', note_id: 'note_1' })).toBeNull();
    expect(await drafts.get({ tab_id: 'tabA', note_id: 'note_2' })).toBeNull();
    expect(await drafts.remove({ tab_id: 'tabA', note_id: 'note_2' })).toEqual({ removed: false });
    expect(await drafts.list()).toHaveLength(1);
  });

  it('refuses invalid input with VALIDATION_FAILED and stores nothing', async () => {
    const { drafts } = setup();
    const cases = [
      draft({ tab_id: '' }),
      draft({ tab_id: 'a.b' }),
      draft({ note_id: '' }),
      draft({ tags: 'a' }),
      draft({ base_version: -1 }),
      draft({ saved_at: 'yesterday' }),
      { ...draft(), body: undefined },
    ];
    for (const input of cases) {
      expect((await errorOf(drafts.save(input as never))).code).toBe('VALIDATION_FAILED');
    }
    expect((await errorOf(drafts.get({ tab_id: 'tabA', note_id: '' }))).code).toBe('VALIDATION_FAILED');
    expect((await errorOf(drafts.remove({ tab_id: 'tab A', note_id: 'n' }))).code).toBe('VALIDATION_FAILED');
    expect(await drafts.list()).toEqual([]);
  });

  it('refuses a draft over its limit with PAYLOAD_TOO_LARGE naming the size', async () => {
    const { drafts } = setup();
    const error = await errorOf(drafts.save(draft({ title: 'T', body: 'x'.repeat(MAX_DRAFT_CHARS) })));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.details).toMatchObject({ length: MAX_DRAFT_CHARS + 1, max_length: MAX_DRAFT_CHARS });
    expect(await drafts.list()).toEqual([]);
  });

  it('reports STORAGE_QUOTA_EXCEEDED when the storage is full, keeping the previous draft', async () => {
    const { drafts, db: database } = setup();
    await drafts.save(draft({ body: 'older text' }));
    vi.spyOn(database.table(DRAFTS_TABLE), 'put').mockImplementation(() =>
      Dexie.Promise.reject(
        new Dexie.AbortError(
          'Transaction aborted',
          new DOMException('Quota exceeded.', 'QuotaExceededError'),
        ),
      ),
    );
    const error = await errorOf(drafts.save(draft({ body: 'newer text' })));
    expect(error.code).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(error.message).toContain('Storage for this site is full');
    vi.restoreAllMocks();
    expect((await drafts.get({ tab_id: 'tabA', note_id: 'note_1' }))?.body).toBe('older text');
  });

  it('is reached through the core API, over a database upgraded to the drafts store', async () => {
    const { testCore } = await import('./test-core');
    const core = testCore();
    try {
      expect(core.db.verno).toBeGreaterThanOrEqual(17);
      await core.api.drafts.save(draft());
      expect(await core.api.drafts.list()).toEqual([draft()]);
    } finally {
      await core.close();
    }
  });
});
