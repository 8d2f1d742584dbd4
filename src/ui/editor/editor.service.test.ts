// The editor's workflows against the real core services, in-thread over
// fake-indexeddb: autosave, drafts, version conflicts and crash recovery.
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../contracts/settings';

const memory = vi.hoisted(() => {
  const map = new Map<string, string>();
  const storage = {
    get length() {
      return map.size;
    },
    key: (index: number) => [...map.keys()][index] ?? null,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, String(value)),
    removeItem: (key: string) => void map.delete(key),
    clear: () => map.clear(),
  };
  (globalThis as { localStorage?: unknown }).localStorage = storage;
  return { map, storage };
});

vi.mock('../api/core-client', async () =>
  (await import('../../services/test-core')).coreClientDouble({}, { jobEvents: false }),
);

const { core } = await import('../api/core-client');
const { testCore } = (await import('../api/core-client')) as unknown as {
  testCore: { close: () => Promise<void> };
};
const { editor } = await import('./editor.svelte');
const service = await import('./editor.service');
const { settings } = await import('../settings/settings.svelte');
const { toasts } = await import('../toasts/toasts.svelte');
const { DRAFT_KEY_PREFIX, draftKey } = await import('./drafts');
const { notes } = await import('../notes/notes.svelte');
const { refreshList } = await import('../notes/notes.service');

/** This tab's draft of the note as the core stores it, once pending writes and removals are done. */
async function draftFor(noteId: string) {
  await service.flushDrafts();
  return core.drafts.get({ tab_id: service.draftTabId(), note_id: noteId });
}

const storedDraft = (note: { note_id: string; title: string }, body: string, baseVersion: number) => ({
  tab_id: service.draftTabId(),
  note_id: note.note_id,
  title: note.title,
  folder: '',
  tags: [],
  body,
  base_version: baseVersion,
  saved_at: new Date().toISOString(),
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A hang guard, not a speed claim: a loaded machine may take seconds to save.
async function waitFor(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await sleep(5);
  }
}

beforeEach(() => {
  service.closeNote();
  memory.map.clear();
  toasts.reset();
  settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 30 });
});

afterAll(async () => {
  service.closeNote();
  await testCore.close();
});

describe('editor workflows', () => {
  it('writes a draft after typing pauses and removes it once the pause-save lands', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 10_000 });
    service.editTitle('周报');
    service.editBody('第一行');
    expect(editor.status).toBe('unsaved');
    expect(await draftFor(noteId)).toMatchObject({ title: '周报', body: '第一行', base_version: 1 });
    await service.saveNow();
    expect(editor.status).toBe('saved');
    expect(await draftFor(noteId)).toBeNull();
    expect(await core.notes.get(noteId)).toMatchObject({ title: '周报', body: '第一行', version: 2 });
  });

  it('keeps typing during an in-flight save and stores the latest text', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    let text = '';
    for (const character of 'hello world') {
      text += character;
      service.editBody(text);
      if (character === ' ') void service.saveNow();
      await sleep(1);
    }
    await service.saveNow();
    await waitFor(() => editor.status === 'saved');
    expect((await core.notes.get(noteId)).body).toBe('hello world');
    expect(await draftFor(noteId)).toBeNull();
  });

  it('journals a long note typed in the textarea: a key writes the change, the text is copied once; typed back to the stored text, both go', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 10_000 });
    const long = 'A line of a long note typed in the textarea.\n'.repeat(800);
    service.typeBody(long);
    await service.saveNow();
    expect(editor.status).toBe('saved');
    const journalKey = `notesagent.journal.${service.draftTabId()}.${noteId}`;
    const mirror = () =>
      JSON.parse(memory.map.get(draftKey(service.draftTabId(), noteId)) ?? 'null') as {
        body: string;
      } | null;

    service.typeBody(`${long}x`);
    service.typeBody(`${long}xy`);
    // On the key: the journal holds what was typed, the mirror the stored text it applies to.
    expect(JSON.parse(memory.map.get(journalKey) ?? '{}').changes).toEqual([
      { from: long.length, to: long.length, insert: 'xy' },
    ]);
    expect(mirror()?.body).toBe(long);

    service.typeBody(long);
    expect(memory.map.has(journalKey)).toBe(false);
    expect(mirror()).toBeNull();
    expect(editor.status).toBe('saved');
  });

  it('saves folder and tags, normalised', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    service.editFolder(' 工作 / 项目 ');
    service.editTags('a， #b, a');
    await service.saveNow();
    expect(await core.notes.get(noteId)).toMatchObject({ folder: '工作/项目', tags: ['a', 'b'] });
  });

  it('keeps the text on a version conflict and can overwrite on request', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    await core.notes.update({ note_id: noteId, body: 'from another tab' });
    service.editBody('mine');
    await service.saveNow();
    expect(editor.conflict).toBe(true);
    expect(editor.status).toBe('error');
    expect(editor.body).toBe('mine');
    expect((await draftFor(noteId))?.body).toBe('mine');
    // Told once the text is kept in the history.
    await waitFor(() => toasts.items.some((toast) => toast.kind === 'error'));

    service.editBody('mine, still typing');
    await sleep(60);
    expect((await core.notes.get(noteId)).body).toBe('from another tab');

    await service.overwriteWithMine();
    expect(editor.conflict).toBe(false);
    expect((await core.notes.get(noteId)).body).toBe('mine, still typing');
    expect(await draftFor(noteId)).toBeNull();
  });

  it("keeps the text that lost to another tab's save in the note's history, and can show the saved version instead", async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    await core.notes.update({ note_id: noteId, body: 'from another tab', expected_version: 1 });
    service.editBody('mine');
    await service.saveNow();
    expect(editor.conflict).toBe(true);
    await waitFor(() => editor.conflictVersionId !== null);
    const kept = await core.history.get(editor.conflictVersionId as string);
    expect(kept).toMatchObject({ version: { origin: 'conflict', note_version: 1 }, body: 'mine' });
    const notice = toasts.items.find((toast) => toast.action?.label === 'Show in history');
    expect(notice?.message).toContain("kept in the note's history");
    notice?.action?.run();
    expect(editor.historyRequest).toBe(kept.version.version_id);

    // Typed on after the conflict: that text is kept too before the saved version is shown.
    service.editBody('mine, typed on');
    await service.useStoredVersion();
    expect(editor.conflict).toBe(false);
    expect(editor.body).toBe('from another tab');
    expect(await draftFor(noteId)).toBeNull();
    const conflicts = (await core.history.list(noteId)).filter((version) => version.origin === 'conflict');
    const bodies = await Promise.all(
      conflicts.map(async (version) => (await core.history.get(version.version_id)).body),
    );
    expect(bodies.sort()).toEqual(['mine', 'mine, typed on']);
    expect((await core.notes.get(noteId)).body).toBe('from another tab');
  });

  it('keeps the text of a draft typed on an older version when the note is opened again', async () => {
    const note = await core.notes.create({ title: 'n', body: 'v1' });
    await core.drafts.save({ ...storedDraft(note, 'typed on v1', 1), saved_at: '2000-01-01T00:00:00.000Z' });
    await core.notes.update({ note_id: note.note_id, body: 'v2 from another tab' });
    await service.openNote(note.note_id);
    expect(editor.conflict).toBe(true);
    await waitFor(() => editor.conflictVersionId !== null);
    expect((await core.history.get(editor.conflictVersionId as string)).body).toBe('typed on v1');
  });

  it('refuses a body over 5 MiB with its size, keeps the text and its draft (stored by the core), and saves once it is short enough', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    const tooLong = 'x'.repeat(5 * 1024 * 1024 + 200_000);
    const tooLongNotice =
      'This note is 5.2 MiB; a note holds at most 5.0 MiB. Nothing was saved: your text stays here until you shorten it or split it into several notes.';
    service.editBody(tooLong);
    await service.saveNow();
    expect(editor.status).toBe('error');
    expect(editor.body).toBe(tooLong);
    expect((await draftFor(noteId))?.body).toBe(tooLong);
    expect(toasts.items.map((toast) => toast.message)).toEqual([tooLongNotice]);
    expect((await core.notes.get(noteId)).body).toBe('');

    service.editBody(tooLong.slice(0, 1000));
    await service.saveNow();
    expect(editor.status).toBe('saved');
    expect(toasts.items.map((toast) => toast.message)).not.toContain(tooLongNotice);
    expect(await draftFor(noteId)).toBeNull();
    expect((await core.notes.get(noteId)).body).toHaveLength(1000);
  });

  it("shows storage full with its way to Settings → Storage even when another write's plain notice says the same", async () => {
    const { AppError } = await import('../../contracts/errors');
    const { errorText } = await import('../i18n');
    await service.createNote();
    const full = errorText('STORAGE_QUOTA_EXCEEDED', '');
    // An import at the quota told it first, without an action (toasts with equal words merge).
    toasts.show(full, { kind: 'error' });
    const update = vi
      .spyOn(core.notes, 'update')
      .mockRejectedValueOnce(new AppError('STORAGE_QUOTA_EXCEEDED', 'full'));
    service.editBody('needs room');
    await service.saveNow();
    update.mockRestore();
    expect(editor.status).toBe('error');
    expect(
      toasts.items.filter((toast) => toast.message === full).map((toast) => toast.action?.label),
    ).toEqual(['Open Settings → Storage']);
    // Room again: Ctrl+S saves the pending text.
    await service.saveNow();
    expect(editor.status).toBe('saved');
  });

  it('shows a change made elsewhere (e.g. by the agent) when the open note is opened again with no edits', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    service.editBody('first');
    await service.saveNow();
    await core.notes.update({ note_id: noteId, body: 'first\n\n- [ ] task from the agent' });
    await service.openNote(noteId);
    expect(editor.body).toBe('first\n\n- [ ] task from the agent');

    // With unsaved edits the user's text stays; the save reports the conflict instead.
    service.editBody('mine');
    await core.notes.update({ note_id: noteId, body: 'changed again elsewhere' });
    await service.refreshOpenNote();
    expect(editor.body).toBe('mine');
  });

  it('moves a localStorage draft of an older version into the core and restores it at start-up', async () => {
    const note = await core.notes.create({ title: 'n', body: 'stored' });
    memory.storage.setItem(
      DRAFT_KEY_PREFIX + note.note_id,
      JSON.stringify({
        note_id: note.note_id,
        title: 'n',
        folder: '',
        tags: [],
        body: 'typed before the crash',
        base_version: note.version,
        saved_at: new Date().toISOString(),
      }),
    );
    await service.recoverDrafts();
    expect((await core.notes.get(note.note_id)).body).toBe('typed before the crash');
    expect(await draftFor(note.note_id)).toBeNull();
  });

  it('keeps a stale draft as a recovered copy instead of overwriting a later change', async () => {
    const note = await core.notes.create({ title: 'plan', body: 'v1' });
    const staleDraft = {
      note_id: note.note_id,
      title: 'plan',
      folder: '',
      tags: [],
      body: 'my old edit',
      base_version: 1,
      saved_at: '2020-01-01T00:00:00.000Z',
    };
    await core.notes.update({ note_id: note.note_id, body: 'v2 from elsewhere' });
    memory.storage.setItem(DRAFT_KEY_PREFIX + note.note_id, JSON.stringify(staleDraft));
    await service.recoverDrafts();
    expect((await core.notes.get(note.note_id)).body).toBe('v2 from elsewhere');
    const copies = await core.notes.list({ title_query: 'plan (recovered)' });
    expect(copies.items).toHaveLength(1);
    expect(await draftFor(note.note_id)).toBeNull();
  });

  it("restores another tab's draft at start-up and removes only that tab's draft", async () => {
    const note = await core.notes.create({ title: 'n', body: 'stored' });
    await core.drafts.save({ ...storedDraft(note, 'typed in a closed tab', note.version), tab_id: 'closed' });
    await service.recoverDrafts();
    expect((await core.notes.get(note.note_id)).body).toBe('typed in a closed tab');
    expect(await core.drafts.list()).toEqual([]);
  });

  it("offers a closed tab's draft too long for a note as a file or to discard; this tab's own stays for its note", async () => {
    const { oversizedDrafts } = await import('./oversized-drafts.svelte');
    const note = await core.notes.create({ title: 'Log', body: 'stored' });
    const long = 'x'.repeat(5 * 1024 * 1024 + 1);
    await core.drafts.save({ ...storedDraft(note, long, note.version), tab_id: 'closed' });
    await core.drafts.save(storedDraft(note, `${long}mine`, note.version));
    await service.recoverDrafts();
    expect(oversizedDrafts.current).toMatchObject({
      draft: { tab_id: 'closed', note_id: note.note_id, title: 'Log' },
      length: long.length,
      max: 5 * 1024 * 1024,
    });
    // Asked once however often recovery runs.
    await service.recoverDrafts();
    await service.discardOversizedDraft();
    expect(oversizedDrafts.current).toBeNull();
    expect((await core.drafts.list()).map((draft) => draft.tab_id)).toEqual([service.draftTabId()]);
    expect((await core.notes.get(note.note_id)).body).toBe('stored');
    expect(toasts.items.map((toast) => toast.message)).toContain('The unsaved text was discarded.');
    await core.drafts.remove({ tab_id: service.draftTabId(), note_id: note.note_id });
  });

  it('spills an unwritten draft to localStorage when the page goes, and the next start saves it', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 10_000 });
    service.editBody('typed just before the reload');
    service.spillDrafts();
    expect(JSON.parse(memory.storage.getItem(draftKey(service.draftTabId(), noteId)) ?? '{}')).toMatchObject({
      note_id: noteId,
      body: 'typed just before the reload',
    });
    service.closeNote();
    await service.recoverDrafts();
    expect((await core.notes.get(noteId)).body).toBe('typed just before the reload');
    expect(memory.map.size).toBe(0);
    expect(await draftFor(noteId)).toBeNull();
  });

  it('keeps a draft the full storage refused in memory, says so once, and writes it once there is room', async () => {
    const { AppError } = await import('../../contracts/errors');
    await service.createNote();
    const noteId = editor.noteId as string;
    settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 10_000 });
    const save = vi
      .spyOn(core.drafts, 'save')
      .mockRejectedValue(new AppError('STORAGE_QUOTA_EXCEEDED', 'full'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    service.editBody('needs room');
    await service.flushDrafts();
    service.editBody('needs room, still');
    await service.flushDrafts();
    const inMemory = toasts.items.filter((toast) => toast.message.includes('kept in this tab only'));
    expect(inMemory).toHaveLength(1);
    save.mockRestore();
    warn.mockRestore();
    expect(await core.drafts.get({ tab_id: service.draftTabId(), note_id: noteId })).toBeNull();
    // Room again: the next flush writes the text held in memory.
    expect((await draftFor(noteId))?.body).toBe('needs room, still');
  });

  it('brings back a draft left by a failed save when the note is opened again', async () => {
    const { AppError } = await import('../../contracts/errors');
    const note = await core.notes.create({ title: 'x', body: 'stored' });
    await service.openNote(note.note_id);
    const update = vi
      .spyOn(core.notes, 'update')
      .mockRejectedValue(new AppError('STORAGE_QUOTA_EXCEEDED', 'full'));
    service.editBody('unsaved');
    await service.saveNow();
    service.closeNote();
    update.mockRestore();
    expect((await draftFor(note.note_id))?.body).toBe('unsaved');
    await service.openNote(note.note_id);
    expect(editor.body).toBe('unsaved');
    await service.saveNow();
    expect((await core.notes.get(note.note_id)).body).toBe('unsaved');
  });

  it('flushes the open note before switching to another', async () => {
    const first = await core.notes.create({ title: 'first' });
    const second = await core.notes.create({ title: 'second' });
    await service.openNote(first.note_id);
    service.editBody('typed just before switching');
    await service.openNote(second.note_id);
    expect(editor.noteId).toBe(second.note_id);
    expect((await core.notes.get(first.note_id)).body).toBe('typed just before switching');
  });

  it('binds an edit to the note it was typed in: input from another note is dropped', async () => {
    const first = await core.notes.create({ title: 'first', body: 'one' });
    const second = await core.notes.create({ title: 'second', body: 'two' });
    await service.openNote(first.note_id);
    await service.openNote(second.note_id);
    service.editBody('typed into the first note', first.note_id);
    expect(editor.body).toBe('two');
    expect(await draftFor(first.note_id)).toBeNull();
    expect(await draftFor(second.note_id)).toBeNull();
    await service.saveNow();
    expect((await core.notes.get(second.note_id)).body).toBe('two');
    expect((await core.notes.get(first.note_id)).body).toBe('one');
  });

  it('marks a switch from the moment a note is asked for until it is shown', async () => {
    const first = await core.notes.create({ title: 'first' });
    const second = await core.notes.create({ title: 'second' });
    await service.openNote(first.note_id);
    const opening = service.openNote(second.note_id);
    expect(editor.switching).toBe(true);
    // Typed meanwhile: held for the note being opened, with the field it was typed in.
    editor.hold('body', 'ab');
    await opening;
    expect(editor.switching).toBe(false);
    expect(editor.noteId).toBe(second.note_id);
    expect(editor.takeHeld()).toEqual({ field: 'body', text: 'ab' });
  });

  it('ends a failed switch on the note still shown', async () => {
    const first = await core.notes.create({ title: 'first' });
    await service.openNote(first.note_id);
    const opening = service.openNote('note_missing');
    expect(editor.switching).toBe(true);
    await opening;
    expect(editor.switching).toBe(false);
    expect(editor.noteId).toBe(first.note_id);
    toasts.reset();
  });

  it('holds typing after Alt+N for the new note title', async () => {
    const first = await core.notes.create({ title: 'first', body: 'kept' });
    await service.openNote(first.note_id);
    const creating = service.createNote();
    editor.hold('body', 'New title');
    await creating;
    expect(editor.noteId).not.toBe(first.note_id);
    expect(editor.takeHeld()).toEqual({ field: 'title', text: 'New title' });
    expect((await core.notes.get(first.note_id)).body).toBe('kept');
  });

  it('holds a title and then a body typed while a new note is made as title and body', async () => {
    const first = await core.notes.create({ title: 'first', body: 'kept' });
    await service.openNote(first.note_id);
    const creating = service.createNote();
    // Into the title, then (Tab, a click) into the body still shown: the title ends there.
    editor.hold('title', 'Paging notes');
    editor.hold('body', '# Paging');
    editor.hold('body', '\n\nA TLB');
    await creating;
    expect(editor.takeHeld()).toEqual({ field: 'title', text: 'Paging notes\n# Paging\n\nA TLB' });
    // Alt+N with the focus in the old body: all of it is the title, however many keys.
    const again = service.createNote();
    editor.hold('body', 'a');
    editor.hold('body', 'b');
    await again;
    expect(editor.takeHeld()).toEqual({ field: 'title', text: 'ab' });
    expect((await core.notes.get(first.note_id)).body).toBe('kept');
  });

  it('makes another new note for Alt+N pressed again while one is made: each takes the keys typed after its own press', async () => {
    const first = await core.notes.create({ title: 'first', body: 'kept' });
    await service.openNote(first.note_id);
    // What each new note's editor takes as it is shown.
    const taken: { noteId: string | null; held: unknown }[] = [];
    const open = editor.open.bind(editor);
    const spy = vi.spyOn(editor, 'open').mockImplementation((note, content) => {
      open(note, content);
      taken.push({ noteId: editor.noteId, held: editor.takeHeld() });
    });
    try {
      const creating = service.createNote();
      editor.hold('title', 'One');
      await service.createNote();
      editor.hold('title', 'Two');
      await creating;
    } finally {
      spy.mockRestore();
    }
    expect(taken.map(({ held }) => held)).toEqual([
      { field: 'title', text: 'One' },
      { field: 'title', text: 'Two' },
    ]);
    expect(new Set(taken.map(({ noteId }) => noteId)).size).toBe(2);
    expect(taken.map(({ noteId }) => noteId)).not.toContain(first.note_id);
    expect((await core.notes.get(first.note_id)).title).toBe('first');
  });

  it('still saves what reached the old note after the switch flushed it', async () => {
    const first = await core.notes.create({ title: 'first' });
    const second = await core.notes.create({ title: 'second' });
    await service.openNote(first.note_id);
    const opening = service.openNote(second.note_id);
    // An IME composition cannot be held back; it lands in the note still shown.
    service.editBody('composed', first.note_id);
    await opening;
    expect((await core.notes.get(first.note_id)).body).toBe('composed');
  });

  it('trashes after saving, opens the note below it in the list, restores, and purges', async () => {
    await core.notes.create({ title: 'stays' });
    await service.createNote();
    const noteId = editor.noteId as string;
    const index = notes.items.findIndex((row) => row?.note_id === noteId);
    const below = notes.items[index + 1]?.note_id;
    expect(below).toBeDefined();
    service.editBody('to the trash');
    expect(await service.trashCurrentNote()).toEqual({ kind: 'next', noteId: below });
    expect(editor.noteId).toBe(below);
    expect(notes.items.some((row) => row?.note_id === noteId)).toBe(false);
    const trashed = await core.notes.get(noteId);
    expect(trashed.body).toBe('to the trash');
    expect(trashed.deleted_at).not.toBeNull();
    await service.restoreNote(noteId);
    expect((await core.notes.get(noteId)).deleted_at).toBeNull();
  });

  it('restores from the trash without leaving it: the next trashed note opens, the toast names the note with Open', async () => {
    const first = await core.notes.create({ title: 'first back' });
    const second = await core.notes.create({ title: 'second back' });
    await core.notes.trash(first.note_id);
    await core.notes.trash(second.note_id);
    notes.setView('trash');
    await refreshList();
    await service.openNote(second.note_id);
    const index = notes.items.findIndex((row) => row?.note_id === second.note_id);
    const neighbour = (notes.items[index + 1] ?? notes.items[index - 1])?.note_id;

    expect(await service.restoreFromTrash(second)).toEqual({ kind: 'next', noteId: neighbour });
    expect(notes.view).toBe('trash');
    expect(editor.noteId).toBe(neighbour);
    expect(editor.readOnly).toBe(true);
    expect(notes.items.some((row) => row?.note_id === second.note_id)).toBe(false);
    expect((await core.notes.get(second.note_id)).deleted_at).toBeNull();
    const toast = toasts.items.find((item) => item.message === 'Restored “second back”');
    expect(toast?.action?.label).toBe('Open');
    notes.setView('notes');
  });
  it('shows an agent write to the open note in place when nothing is unsaved, and saves on top of it', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    service.editBody('first');
    await service.saveNow();
    await core.notes.update(
      { note_id: noteId, body: 'first\n\nfrom the agent' },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.update' },
    );
    await service.showBackgroundWrite();
    expect(editor.noteId).toBe(noteId);
    expect(editor.body).toBe('first\n\nfrom the agent');
    expect(editor.note?.version).toBe(3);
    expect(editor.conflict).toBe(false);

    service.editBody('first\n\nfrom the agent\n\nmine');
    await service.saveNow();
    expect(editor.status).toBe('saved');
    expect((await core.notes.get(noteId)).body).toBe('first\n\nfrom the agent\n\nmine');
  });

  it('leaves a note being opened alone when a background write is shown meanwhile', async () => {
    const first = await core.notes.create({ title: 'first', body: 'one' });
    const second = await core.notes.create({ title: 'second', body: 'two' });
    await service.openNote(first.note_id);
    await core.notes.update({ note_id: first.note_id, body: 'one, by the agent' }, { origin: 'agent' });
    const shown = service.showBackgroundWrite();
    const opening = service.openNote(second.note_id);
    await Promise.all([shown, opening]);
    expect(editor.noteId).toBe(second.note_id);
    expect(editor.body).toBe('two');
    expect(editor.switching).toBe(false);
  });

  it('keeps unsaved text on screen and in the history when a background write changes the open note', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    settings.set({ ...DEFAULT_SETTINGS, autosave_delay_ms: 10_000 });
    service.editBody('mine, not saved yet');
    await core.notes.update({ note_id: noteId, body: 'from the agent' }, { origin: 'agent' });
    await service.showBackgroundWrite();
    expect(editor.conflict).toBe(true);
    expect(editor.body).toBe('mine, not saved yet');
    await waitFor(() => editor.conflictVersionId !== null);
    expect((await core.history.get(editor.conflictVersionId as string)).body).toBe('mine, not saved yet');
    expect((await core.notes.get(noteId)).body).toBe('from the agent');
  });

  it('shows the open note as trashed when another tab trashed it and nothing here is unsaved', async () => {
    await service.createNote();
    const noteId = editor.noteId as string;
    service.editBody('kept');
    await service.saveNow();
    await core.notes.trash(noteId);
    await service.showBackgroundWrite();
    expect(editor.noteId).toBe(noteId);
    expect(editor.readOnly).toBe(true);
    expect(editor.body).toBe('kept');
    expect(editor.conflict).toBe(false);
  });

  it('undoes the agent’s creation of the open note into the trash, with Undo in its toast', async () => {
    const blank = await core.notes.create({ title: '' });
    await core.notes.update(
      { note_id: blank.note_id, title: '进程调度', body: 'FCFS', expected_version: 1 },
      { origin: 'agent', run_id: 'run_1', tool: 'notes.create', creation: true },
    );
    await service.openNote(blank.note_id);
    await service.undoAgentCreation();
    expect(editor.noteId).toBeNull();
    expect((await core.notes.get(blank.note_id)).deleted_at).not.toBeNull();
    const toast = toasts.items.find((item) => item.action !== null);
    expect(toast?.message).toBe('The note the agent created was moved to the trash.');
    toast?.action?.run();
    await waitFor(() => editor.noteId === blank.note_id);
    expect((await core.notes.get(blank.note_id)).deleted_at).toBeNull();
    expect(editor.body).toBe('FCFS');
  });
});
