import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts';
import type { MetonaToolCall } from '../../ir';
import { ToolRegistry, type ToolExecution } from '../tool-registry';
import { notesOrganiseTool } from './notes-organise';
import type { NoteChange, NoteRecord, NotesPort } from './ports';

const NOW = Date.parse('2026-08-31T10:30:00Z');

/** Only what notes.organise uses; every organise call is kept with who made it. */
class FolderTagNotes implements NotesPort {
  readonly notes = new Map<string, NoteRecord>();
  readonly changes: NoteChange[] = [];

  add(note: Pick<NoteRecord, 'note_id' | 'title' | 'folder' | 'tags'>): void {
    this.notes.set(note.note_id, {
      ...note,
      body: '# Text\n',
      version: 1,
      updated_at: '2026-08-31T10:00:00.000Z',
      blocks: [],
    });
  }

  async read(noteId: string): Promise<NoteRecord | undefined> {
    return this.notes.get(noteId);
  }

  async organise(
    input: { note_id: string; folder?: string; tags?: string[]; expected_version: number },
    change?: NoteChange,
  ): Promise<NoteRecord> {
    const note = this.notes.get(input.note_id);
    if (!note) throw new AppError('NOTE_NOT_FOUND', 'gone', { note_id: input.note_id });
    if (note.version !== input.expected_version) {
      throw new AppError('NOTE_VERSION_CONFLICT', 'changed', { note_id: input.note_id });
    }
    if (change) this.changes.push(change);
    const next = {
      ...note,
      folder: input.folder ?? note.folder,
      tags: input.tags ?? note.tags,
      version: note.version + 1,
    };
    this.notes.set(note.note_id, next);
    return next;
  }

  search(): never {
    throw new Error('not used');
  }
  list(): never {
    throw new Error('not used');
  }
  create(): never {
    throw new Error('not used');
  }
  update(): never {
    throw new Error('not used');
  }
}

function setup(port?: NotesPort) {
  const notes = new FolderTagNotes();
  notes.add({ note_id: 'n1', title: '进程调度', folder: '', tags: ['os', 'draft'] });
  const registry = new ToolRegistry().register(notesOrganiseTool(port ?? notes));
  let callCount = 0;
  const run = (
    args: Record<string, unknown>,
    signal = new AbortController().signal,
  ): Promise<ToolExecution> => {
    const call: MetonaToolCall = {
      id: `c${++callCount}`,
      name: 'notes.organise',
      args,
      iteration: 1,
      timestamp: NOW,
    };
    return registry.execute(call, { signal, runId: 'r1', sessionId: 's', step: 1 });
  };
  const preview = (args: Record<string, unknown>) => {
    const spec = registry.get('notes.organise')!.spec;
    return spec.preview!(spec.parameters.parse(args) as never, { signal: new AbortController().signal });
  };
  return { notes, registry, run, preview };
}

describe('notes.organise', () => {
  it('asks for notes.write and previews only the real changes, as data for the prompt', async () => {
    const { registry, preview } = setup();
    const tool = registry.get('notes.organise');
    expect(tool?.definition.requiresPermission).toBe(true);
    expect(tool?.permission).toBe('notes.write');

    await expect(
      preview({
        note_id: 'n1',
        folder: ' 课程 / 操作系统 ',
        add_tags: ['#数据库', 'os'],
        remove_tags: ['draft', 'never-had'],
      }),
    ).resolves.toEqual({
      summary:
        'Move “进程调度” to the folder “课程/操作系统”. Tag “进程调度” with #数据库. Remove #draft from “进程调度”.',
      action: {
        kind: 'note_organise',
        title: '进程调度',
        folder: '课程/操作系统',
        tags_added: ['数据库'],
        tags_removed: ['draft'],
      },
    });
    await expect(preview({ note_id: 'n1', add_tags: ['os'] })).resolves.toMatchObject({
      action: { folder: null, tags_added: [], tags_removed: [] },
      summary: '“进程调度” already is where and how it was asked; nothing to change.',
    });
  });

  it('moves the note and adds and removes tags, keeping the order of the tags it keeps', async () => {
    const { run, notes } = setup();
    const done = await run({
      note_id: 'n1',
      folder: '操作系统',
      add_tags: ['数据库'],
      remove_tags: ['draft'],
    });
    expect(done.status).toBe('ok');
    expect(notes.notes.get('n1')).toMatchObject({
      folder: '操作系统',
      tags: ['os', '数据库'],
      body: '# Text\n',
      version: 2,
    });
    expect(done.result.result).toMatchObject({
      folder: '操作系统',
      tags: ['os', '数据库'],
      previous: { folder: '', tags: ['os', 'draft'] },
      changed: true,
    });
    expect(done.result.summary).toBe(
      'Moved “进程调度” to the folder “操作系统”. Tagged “进程调度” with #数据库. Removed #draft from “进程调度”.' +
        ' It is now in “操作系统” with tags #os #数据库 (version 2).',
    );
    // Marked as the agent's, with its run and tool, like notes.update's writes.
    expect(notes.changes).toEqual([{ run_id: 'r1', tool: 'notes.organise' }]);

    // Back to the top level; nothing else is sent.
    await run({ note_id: 'n1', folder: '' });
    expect(notes.notes.get('n1')).toMatchObject({ folder: '', tags: ['os', '数据库'], version: 3 });
  });

  it('writes nothing when the note already is as asked', async () => {
    const { run, notes } = setup();
    const done = await run({ note_id: 'n1', folder: '', add_tags: ['os'] });
    expect(done.status).toBe('ok');
    expect(done.result.result).toMatchObject({ changed: false, version: 1 });
    expect(notes.changes).toEqual([]);
  });

  it('compares tags without case, as the tag list does: removes OS for os, adds no second spelling', async () => {
    const { run, notes, preview } = setup();
    notes.add({ note_id: 'n2', title: 'Kernel', folder: '', tags: ['OS', 'Draft', '数据库'] });
    await expect(preview({ note_id: 'n2', remove_tags: ['os'], add_tags: ['draft'] })).resolves.toMatchObject(
      {
        action: { tags_added: [], tags_removed: ['OS'] },
        summary: 'Remove #OS from “Kernel”.',
      },
    );
    const done = await run({ note_id: 'n2', remove_tags: ['os'], add_tags: ['DRAFT', 'Linux', 'linux'] });
    expect(done.status).toBe('ok');
    expect(notes.notes.get('n2')?.tags).toEqual(['Draft', '数据库', 'Linux']);
    expect(done.result.result).toMatchObject({ tags: ['Draft', '数据库', 'Linux'], changed: true });

    const same = await run({ note_id: 'n2', add_tags: ['draft', 'LINUX'] });
    expect(same.result.result).toMatchObject({ changed: false, version: 2 });
    const both = await run({ note_id: 'n2', add_tags: ['Work'], remove_tags: ['work'] });
    expect(both.status).toBe('invalid_arguments');
    expect(both.result.error).toContain('a tag cannot be both added and removed: Work');
  });

  it('rejects arguments that ask for nothing or contradict themselves, before anything runs', async () => {
    const { run, notes } = setup();
    const nothing = await run({ note_id: 'n1' });
    expect(nothing.status).toBe('invalid_arguments');
    expect(nothing.result.error).toContain('give a folder, add_tags or remove_tags');
    const both = await run({ note_id: 'n1', add_tags: ['a'], remove_tags: ['a'] });
    expect(both.result.error).toContain('a tag cannot be both added and removed: a');
    const dots = await run({ note_id: 'n1', folder: 'a/../b' });
    expect(dots.result.error).toContain('folder names cannot be . or ..');
    const emptyTag = await run({ note_id: 'n1', add_tags: ['#'] });
    expect(emptyTag.status).toBe('invalid_arguments');
    expect(notes.changes).toEqual([]);
  });

  it('says which note is unknown, and refuses a stale version', async () => {
    const { run } = setup();
    const missing = await run({ note_id: 'nope', add_tags: ['a'] });
    expect(missing).toMatchObject({ status: 'error', result: { error: 'No note has the id "nope".' } });
    const stale = await run({ note_id: 'n1', add_tags: ['a'], expected_version: 4 });
    expect(stale.result.error).toBe('The note is at version 1, not 4; read it again.');
  });

  it('writes nothing once the run is cancelled', async () => {
    const { run, notes } = setup();
    const controller = new AbortController();
    controller.abort();
    const cancelled = await run({ note_id: 'n1', folder: 'x' }, controller.signal);
    expect(cancelled.status).toBe('cancelled');
    expect(notes.notes.get('n1')?.folder).toBe('');
  });
});
