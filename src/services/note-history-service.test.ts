import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_LENGTH } from '../contracts/notes';
import type { HistoryLimits } from '../core/note-history';
import { NotesRepository } from '../db';
import type { NotesAgentDatabase } from '../db/database';
import { NoteVersionRepository } from '../db/note-versions';
import { freshDatabase } from '../db/test-database';
import { AppNotesPort } from './agent-ports';
import { NoteHistoryService } from './note-history-service';
import { NotesService } from './notes-service';
import type { SearchService } from './search-service';
import { codeOf } from './test-error-code';

const MINUTE = 60_000;
let db: NotesAgentDatabase | undefined;
afterEach(async () => db?.delete());

/** The notes and history services over one database, with a clock the test moves. */
function setup(limits: Partial<HistoryLimits> = {}) {
  db = freshDatabase();
  let time = Date.UTC(2026, 0, 1, 9, 0);
  const repository = new NotesRepository(db, {
    now: () => new Date(time).toISOString(),
    history: { limits: { coalesceMs: 5 * MINUTE, perNote: 50, total: 2000, ...limits } },
  });
  const notes = new NotesService(repository);
  const history = new NoteHistoryService(notes, new NoteVersionRepository(db), {
    now: () => new Date(time).toISOString(),
    limits: { coalesceMs: 5 * MINUTE, perNote: 50, total: 2000, ...limits },
  });
  return {
    notes,
    history,
    db,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

describe('NoteHistoryService', () => {
  it('keeps one version per burst of typing and its own version for each agent change', async () => {
    const { notes, history, advance } = setup();
    const note = await notes.create({ title: 'Plan', body: 'v1' });
    for (const body of ['v2', 'v3', 'v4']) {
      advance(MINUTE);
      await notes.update({ note_id: note.note_id, body });
    }
    advance(MINUTE);
    await notes.update(
      { note_id: note.note_id, body: 'agent' },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.update' },
    );
    advance(MINUTE);
    await notes.update({ note_id: note.note_id, body: 'mine again' });
    advance(10 * MINUTE);
    await notes.update({ note_id: note.note_id, body: 'later' });
    // The user's own folder and tag changes are not part of a version.
    await notes.update({ note_id: note.note_id, tags: ['x'] });

    const versions = await history.list(note.note_id);
    expect(versions.map((version) => [version.origin, version.note_version])).toEqual([
      ['user', 6],
      ['user', 5],
      ['agent', 4],
      ['user', 1],
    ]);
    expect(versions[2]).toMatchObject({ run_id: 'run_1', tool: 'notes.update', changed_to_version: 5 });
    expect(versions[0]).not.toHaveProperty('body');
    expect((await history.get(versions[3]!.version_id)).body).toBe('v1');
    expect((await history.get(versions[2]!.version_id)).body).toBe('v4');
  });

  it('shows the diff against the current text and restores a version, undoably', async () => {
    const { notes, history, advance } = setup();
    const note = await notes.create({ title: 'Draft', body: 'one\ntwo\n' });
    advance(MINUTE);
    const edited = await notes.update({ note_id: note.note_id, title: 'Final', body: 'one\nthree\n' });
    const [first] = await history.list(note.note_id);
    const detail = await history.get(first!.version_id);
    expect(detail.version).toMatchObject({ title: 'Draft', origin: 'user' });
    expect(detail.diff).toContain('-two');
    expect(detail.diff).toContain('+three');

    advance(MINUTE);
    const restored = await history.restore({
      version_id: first!.version_id,
      expected_version: edited.version,
    });
    expect(restored).toMatchObject({ title: 'Draft', body: 'one\ntwo\n', version: 3 });
    const [restoreVersion] = await history.list(note.note_id);
    expect(restoreVersion).toMatchObject({ origin: 'restore', title: 'Final' });

    // The restore is undone by restoring the version it made.
    advance(MINUTE);
    const undone = await history.restore({ version_id: restoreVersion!.version_id });
    expect(undone).toMatchObject({ title: 'Final', body: 'one\nthree\n' });
    expect((await history.list(note.note_id)).map((version) => version.origin)).toEqual([
      'restore',
      'restore',
      'user',
    ]);
  });

  it("keeps an agent's move or re-tagging as a version, and restoring it puts folder and tags back", async () => {
    const { notes, history, advance } = setup();
    const note = await notes.create({ title: '进程调度', body: 'FCFS', folder: '收件箱', tags: ['草稿'] });
    advance(MINUTE);
    const moved = await notes.update(
      { note_id: note.note_id, folder: '操作系统', tags: ['os', '数据库'] },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.organise' },
    );
    const [kept] = await history.list(note.note_id);
    expect(kept).toMatchObject({
      origin: 'agent',
      tool: 'notes.organise',
      folder: '收件箱',
      tags: ['草稿'],
      note_version: 1,
      changed_to_version: moved.version,
    });
    expect((await history.get(kept!.version_id)).diff).not.toMatch(/^[-+][^-+]/m);

    advance(MINUTE);
    const restored = await history.restore({ version_id: kept!.version_id, expected_version: moved.version });
    expect(restored).toMatchObject({ folder: '收件箱', tags: ['草稿'], body: 'FCFS', title: '进程调度' });
    // Restoring is itself undoable: its version keeps where the agent had put the note.
    const [restoreVersion] = await history.list(note.note_id);
    expect(restoreVersion).toMatchObject({ origin: 'restore', folder: '操作系统', tags: ['os', '数据库'] });
  });

  it("restoring a text version leaves the note's current folder and tags alone", async () => {
    const { notes, history, advance } = setup();
    const note = await notes.create({ title: 'Plan', body: 'v1', folder: 'A', tags: ['a'] });
    advance(MINUTE);
    await notes.update({ note_id: note.note_id, body: 'v2' });
    advance(MINUTE);
    const moved = await notes.update({ note_id: note.note_id, folder: 'B', tags: ['b'] });
    const versions = await history.list(note.note_id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).not.toHaveProperty('folder');
    const restored = await history.restore({
      version_id: versions[0]!.version_id,
      expected_version: moved.version,
    });
    expect(restored).toMatchObject({ body: 'v1', folder: 'B', tags: ['b'] });
  });

  it('prunes the oldest versions per note and across notes', async () => {
    const { notes, history, advance } = setup({ perNote: 2, total: 3, coalesceMs: 0 });
    const a = await notes.create({ title: 'A', body: 'a0' });
    const b = await notes.create({ title: 'B', body: 'b0' });
    for (let i = 1; i <= 4; i++) {
      advance(MINUTE);
      await notes.update({ note_id: a.note_id, body: `a${i}` });
    }
    expect((await history.list(a.note_id)).map((version) => version.note_version)).toEqual([4, 3]);
    for (let i = 1; i <= 2; i++) {
      advance(MINUTE);
      await notes.update({ note_id: b.note_id, body: `b${i}` });
    }
    // Four versions in all, three allowed: A's oldest goes.
    expect((await history.list(a.note_id)).map((version) => version.note_version)).toEqual([4]);
    expect(await history.list(b.note_id)).toHaveLength(2);
  });

  it('rejects invalid input with VALIDATION_FAILED', async () => {
    const { history } = setup();
    expect(await codeOf(history.list(''))).toBe('VALIDATION_FAILED');
    expect(await codeOf(history.get(''))).toBe('VALIDATION_FAILED');
    expect(await codeOf(history.restore({ version_id: '' }))).toBe('VALIDATION_FAILED');
    expect(await codeOf(history.restore({ version_id: 'v', expected_version: 0 }))).toBe('VALIDATION_FAILED');
  });

  it('answers NOTE_NOT_FOUND and RESOURCE_NOT_FOUND, and a purged note takes its history along', async () => {
    const { notes, history, advance } = setup();
    expect(await codeOf(history.list('note_missing'))).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(history.get('note_version_missing'))).toBe('RESOURCE_NOT_FOUND');
    expect(await codeOf(history.restore({ version_id: 'note_version_missing' }))).toBe('RESOURCE_NOT_FOUND');
    const note = await notes.create({ title: 'Gone', body: 'x' });
    advance(MINUTE);
    await notes.update({ note_id: note.note_id, body: 'y' });
    const [version] = await history.list(note.note_id);
    await notes.trash(note.note_id);
    await notes.purge(note.note_id);
    expect(await codeOf(history.get(version!.version_id))).toBe('RESOURCE_NOT_FOUND');
  });

  it('emptying the trash takes the history of every purged note along, and only theirs', async () => {
    const { notes, history, advance, db } = setup();
    const gone = await notes.create({ title: 'Gone', body: 'x' });
    const kept = await notes.create({ title: 'Kept', body: 'x' });
    advance(MINUTE);
    await notes.update({ note_id: gone.note_id, body: 'y' });
    await notes.update({ note_id: kept.note_id, body: 'y' });
    const [goneVersion] = await history.list(gone.note_id);
    await notes.trash(gone.note_id);
    expect(await notes.emptyTrash()).toEqual({ deleted: 1 });
    expect(await codeOf(history.get(goneVersion!.version_id))).toBe('RESOURCE_NOT_FOUND');
    expect(await history.list(kept.note_id)).toHaveLength(1);
    expect(await db.table('note_versions').count()).toBe(1);
  });

  it('refuses to restore over a newer change or into a trashed note, writing nothing', async () => {
    const { notes, history, advance } = setup();
    const note = await notes.create({ title: 'T', body: 'old' });
    advance(MINUTE);
    await notes.update({ note_id: note.note_id, body: 'new' });
    const [version] = await history.list(note.note_id);
    expect(await codeOf(history.restore({ version_id: version!.version_id, expected_version: 1 }))).toBe(
      'NOTE_VERSION_CONFLICT',
    );
    await notes.trash(note.note_id);
    expect(await codeOf(history.restore({ version_id: version!.version_id }))).toBe('STATE_CONFLICT');
    expect(await history.list(note.note_id)).toHaveLength(1);
    expect((await notes.get(note.note_id)).body).toBe('new');
  });

  it('keeps the note unchanged when its version cannot be written', async () => {
    const { notes, history, db: database } = setup();
    const note = await notes.create({ title: 'Safe', body: 'kept' });
    database.table('note_versions').hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(notes.update({ note_id: note.note_id, body: 'lost' })).rejects.toThrow('disk full');
    expect(await notes.get(note.note_id)).toMatchObject({ body: 'kept', version: 1 });
    expect(await history.list(note.note_id)).toEqual([]);
  });
});

describe('NoteHistoryService.keepConflict', () => {
  /** Two tabs opened the note at version 1; tab A saved first. */
  async function lostSave() {
    const context = setup();
    const note = await context.notes.create({ title: 'Plan', body: 'both saw this' });
    context.advance(MINUTE);
    await context.notes.update({ note_id: note.note_id, body: 'tab A wins', expected_version: 1 });
    const save = { note_id: note.note_id, title: 'Plan', body: 'tab B text', expected_version: 1 };
    expect(await codeOf(context.notes.update(save))).toBe('NOTE_VERSION_CONFLICT');
    return { ...context, note };
  }

  it("keeps the losing tab's text as a conflict version that can be seen and restored", async () => {
    const { notes, history, note, advance } = await lostSave();
    advance(MINUTE);
    const kept = await history.keepConflict({
      note_id: note.note_id,
      title: 'Plan',
      body: 'tab B text',
      base_version: 1,
    });
    expect(kept).toMatchObject({
      note_id: note.note_id,
      origin: 'conflict',
      note_version: 1,
      changed_to_version: null,
      created_at: '2026-01-01T09:02:00.000Z',
    });
    expect(kept).not.toHaveProperty('body');
    // The winner stays the note; the loser is the newest history entry.
    expect((await notes.get(note.note_id)).body).toBe('tab A wins');
    expect((await history.list(note.note_id)).map((version) => version.origin)).toEqual(['conflict', 'user']);
    const detail = await history.get(kept.version_id);
    expect(detail.body).toBe('tab B text');
    expect(detail.diff).toContain('-tab B text');
    expect(detail.diff).toContain('+tab A wins');

    // Restoring it is a change like any other: tab A's text is kept in turn.
    advance(MINUTE);
    const restored = await history.restore({ version_id: kept.version_id, expected_version: 2 });
    expect(restored).toMatchObject({ body: 'tab B text', version: 3 });
    const [latest] = await history.list(note.note_id);
    expect(latest).toMatchObject({ origin: 'restore', note_version: 2 });
    expect((await history.get(latest!.version_id)).body).toBe('tab A wins');
  });

  it('keeps the same text once, however often the save is retried', async () => {
    const { history, note } = await lostSave();
    const input = { note_id: note.note_id, title: 'Plan', body: 'tab B text', base_version: 1 };
    const first = await history.keepConflict(input);
    expect(await history.keepConflict(input)).toEqual(first);
    const other = await history.keepConflict({ ...input, body: 'tab B typed more' });
    expect(other.version_id).not.toBe(first.version_id);
    expect(
      (await history.list(note.note_id)).filter((version) => version.origin === 'conflict'),
    ).toHaveLength(2);
  });

  it('refuses text that is not behind the note (STATE_CONFLICT), writing nothing', async () => {
    const { history, note, db: database } = await lostSave();
    const count = await database.table('note_versions').count();
    expect(
      await codeOf(
        history.keepConflict({ note_id: note.note_id, title: 'Plan', body: 'mine', base_version: 2 }),
      ),
    ).toBe('STATE_CONFLICT');
    expect(
      await codeOf(
        history.keepConflict({ note_id: note.note_id, title: 'Plan', body: 'tab A wins', base_version: 1 }),
      ),
    ).toBe('STATE_CONFLICT');
    expect(await database.table('note_versions').count()).toBe(count);
  });

  it('answers NOTE_NOT_FOUND for an unknown note and VALIDATION_FAILED for bad input', async () => {
    const { history, note, db: database } = await lostSave();
    const count = await database.table('note_versions').count();
    expect(
      await codeOf(history.keepConflict({ note_id: 'note_gone', title: '', body: 'x', base_version: 1 })),
    ).toBe('NOTE_NOT_FOUND');
    expect(await codeOf(history.keepConflict({ note_id: '', title: '', body: 'x', base_version: 1 }))).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await codeOf(history.keepConflict({ note_id: note.note_id, title: '', body: 'x', base_version: 0 })),
    ).toBe('VALIDATION_FAILED');
    expect(
      await codeOf(
        history.keepConflict({
          note_id: note.note_id,
          title: '',
          body: 'x'.repeat(MAX_BODY_LENGTH + 1),
          base_version: 1,
        }),
      ),
    ).toBe('VALIDATION_FAILED');
    expect(await database.table('note_versions').count()).toBe(count);
  });

  it('reports STORAGE_QUOTA_EXCEEDED when the version cannot be stored, leaving the history as it was', async () => {
    const { history, note, db: database } = await lostSave();
    const count = await database.table('note_versions').count();
    database.table('note_versions').hook('creating', () => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(
      await codeOf(
        history.keepConflict({ note_id: note.note_id, title: 'Plan', body: 'tab B', base_version: 1 }),
      ),
    ).toBe('STORAGE_QUOTA_EXCEEDED');
    expect(await database.table('note_versions').count()).toBe(count);
  });

  it('prunes the oldest versions to stay within the per-note limit', async () => {
    const context = setup({ perNote: 2 });
    const note = await context.notes.create({ title: 'T', body: 'a' });
    for (const body of ['b', 'c']) {
      context.advance(10 * MINUTE);
      await context.notes.update({ note_id: note.note_id, body });
    }
    // Kept a minute later than the last save, so the list's newest-first order has no tie.
    context.advance(MINUTE);
    await context.history.keepConflict({ note_id: note.note_id, title: 'T', body: 'lost', base_version: 1 });
    expect((await context.history.list(note.note_id)).map((version) => version.origin)).toEqual([
      'conflict',
      'user',
    ]);
  });
});

describe('NoteHistoryService.undoAgentCreation', () => {
  async function agentCreated(notes: NotesService) {
    const port = new AppNotesPort(notes, {} as SearchService);
    return port.create(
      { title: '进程调度', body: '# 进程调度\n\nFCFS\n', folder: '', tags: [] },
      { run_id: 'run_1', tool: 'notes.create' },
    );
  }

  it('moves a note the agent created, untouched since, to the trash', async () => {
    const { notes, history } = setup();
    const created = await agentCreated(notes);

    const trashed = await history.undoAgentCreation(created.note_id);
    expect(trashed.deleted_at).not.toBeNull();
    expect((await notes.list()).items).toEqual([]);
    const [version] = await history.list(created.note_id);
    expect(version).toMatchObject({ origin: 'agent', creation: true });
    expect(version?.undone_at).not.toBeNull();
    // Back from the trash it is the agent's note again, and the creation is not undone twice.
    await notes.restore(created.note_id);
    expect((await notes.get(created.note_id)).body).toBe('# 进程调度\n\nFCFS\n');
    expect(await codeOf(history.undoAgentCreation(created.note_id))).toBe('RESOURCE_NOT_FOUND');
  });

  it('refuses once the user edited the note, keeping it and their text', async () => {
    const { notes, history, advance } = setup();
    const created = await agentCreated(notes);
    advance(MINUTE);
    await notes.update({ note_id: created.note_id, body: '# 进程调度\n\nmy own notes\n' });

    expect(await codeOf(history.undoAgentCreation(created.note_id))).toBe('STATE_CONFLICT');
    const note = await notes.get(created.note_id);
    expect(note.deleted_at).toBeNull();
    expect(note.body).toBe('# 进程调度\n\nmy own notes\n');
  });

  it('refuses for a note the user created', async () => {
    const { notes, history } = setup();
    const note = await notes.create({ title: 'Mine', body: 'x' });
    await notes.update(
      { note_id: note.note_id, body: 'agent' },
      { origin: 'agent', run_id: 'r', tool: 'notes.update' },
    );

    expect(await codeOf(history.undoAgentCreation(note.note_id))).toBe('RESOURCE_NOT_FOUND');
    expect((await notes.get(note.note_id)).deleted_at).toBeNull();
  });
});
