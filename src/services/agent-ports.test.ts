import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_LENGTH } from '../contracts/notes';
import { NotesRepository } from '../db';
import type { NotesAgentDatabase } from '../db/database';
import { NoteVersionRepository } from '../db/note-versions';
import { freshDatabase } from '../db/test-database';
import { AppNotesPort } from './agent-ports';
import { NotesService } from './notes-service';
import type { SearchService } from './search-service';
import { codeOf } from './test-error-code';

let db: NotesAgentDatabase | undefined;
afterEach(async () => db?.delete());

function setup() {
  db = freshDatabase();
  const repository = new NotesRepository(db, {
    history: { limits: { coalesceMs: 0, perNote: 50, total: 2000 } },
  });
  const notes = new NotesService(repository);
  const port = new AppNotesPort(notes, {} as SearchService);
  return { notes, port, versions: new NoteVersionRepository(db) };
}

describe('AppNotesPort.organise', () => {
  it('sets folder and tags through the notes service, leaving the text and its blocks alone', async () => {
    const { notes, port, versions } = setup();
    const note = await notes.create({ title: '进程调度', body: '# 进程调度\n\nFCFS\n', tags: ['os'] });
    const before = await port.read(note.note_id);

    const moved = await port.organise(
      { note_id: note.note_id, folder: ' 课程 / 操作系统 ', tags: ['os', '数据库'], expected_version: 1 },
      { run_id: 'run_1', tool: 'notes.organise' },
    );
    expect(moved).toMatchObject({ folder: '课程/操作系统', tags: ['os', '数据库'], version: 2 });
    expect(moved.body).toBe('# 进程调度\n\nFCFS\n');
    expect(moved.blocks.map((block) => block.block_id)).toEqual(
      before?.blocks.map((block) => block.block_id),
    );
    expect((await notes.folders()).map((folder) => folder.path)).toContain('课程/操作系统');

    // The agent's change keeps where the note was, for "Undo agent change".
    expect(await versions.forNote(note.note_id)).toMatchObject([
      {
        origin: 'agent',
        run_id: 'run_1',
        tool: 'notes.organise',
        folder: '',
        tags: ['os'],
        body: '# 进程调度\n\nFCFS\n',
      },
    ]);
  });

  it('refuses a stale version, as a user edit would be', async () => {
    const { notes, port } = setup();
    const note = await notes.create({ title: 'n', body: 'x' });
    await notes.update({ note_id: note.note_id, body: 'y' });
    const stale = await codeOf(port.organise({ note_id: note.note_id, folder: 'a', expected_version: 1 }));
    expect(stale).toBe('NOTE_VERSION_CONFLICT');
  });
});

describe('AppNotesPort.create', () => {
  it('keeps the creation as an agent version of a blank note, so it can be undone', async () => {
    const { notes, port, versions } = setup();
    const created = await port.create(
      { title: '进程调度', body: '# 进程调度\n\nFCFS、SJF、RR。\n', folder: '操作系统', tags: ['os'] },
      { run_id: 'run_1', tool: 'notes.create' },
    );

    const stored = await notes.get(created.note_id);
    expect(stored).toMatchObject({ title: '进程调度', folder: '操作系统', tags: ['os'] });
    expect(stored.body).toBe('# 进程调度\n\nFCFS、SJF、RR。\n');
    expect(created.version).toBe(stored.version);
    // One write: no blank note was ever stored on its own.
    expect(stored.version).toBe(1);
    expect(created.blocks.length).toBeGreaterThan(0);
    expect(await versions.forNote(created.note_id)).toMatchObject([
      {
        origin: 'agent',
        creation: true,
        title: '',
        body: '',
        run_id: 'run_1',
        tool: 'notes.create',
        changed_to_version: stored.version,
      },
    ]);
  });

  it('leaves no blank note behind when the text is refused', async () => {
    const { notes, port } = setup();
    const refused = await codeOf(
      port.create({ title: 'Huge', body: 'x'.repeat(MAX_BODY_LENGTH + 1), folder: '', tags: [] }),
    );
    expect(refused).toBe('VALIDATION_FAILED');
    expect((await notes.list()).items).toEqual([]);
    expect((await notes.list({ trashed: true })).items).toEqual([]);
  });
});
