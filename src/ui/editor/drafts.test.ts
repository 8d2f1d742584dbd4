import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../contracts/errors';
import { journalKey, parseJournal } from './edit-journal';
import {
  DRAFT_KEY_PREFIX,
  DraftStore,
  JOURNAL_FOLD_WEIGHT,
  LEGACY_TAB_ID,
  MAX_JOURNAL_WEIGHT,
  MAX_MIRRORED_DRAFT_CHARS,
  MAX_STORED_DRAFT_CHARS,
  MAX_SYNC_MIRRORED_DRAFT_CHARS,
  TAB_ID_KEY,
  defaultDraftDelay,
  draftKey,
  tabIdFrom,
  parseDraft,
  resolveDraft,
  type DraftBackend,
  type DraftStorage,
  type DraftTimers,
  type NoteDraft,
  type TabDraft,
} from './drafts';

class MemoryStorage implements DraftStorage {
  readonly map = new Map<string, string>();
  quota = Number.POSITIVE_INFINITY;
  get length() {
    return this.map.size;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    if (value.length > this.quota) throw new DOMException('full', 'QuotaExceededError');
    this.map.set(key, value);
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
}

const draft = (overrides: Partial<NoteDraft> = {}): NoteDraft => ({
  note_id: 'n1',
  title: 'Title',
  folder: 'work',
  tags: ['a'],
  body: 'typed text',
  base_version: 3,
  saved_at: '2026-03-10T12:00:00.000Z',
  ...overrides,
});

const note = (overrides = {}) => ({
  title: 'Title',
  folder: 'work',
  tags: ['a'],
  body: 'stored text',
  version: 3,
  updated_at: '2026-03-10T11:00:00.000Z',
  deleted_at: null as string | null,
  ...overrides,
});

/** The core's drafts service in memory: one draft per tab and note, a switchable quota. */
class FakeBackend implements DraftBackend {
  readonly rows = new Map<string, TabDraft>();
  full = false;
  saves = 0;
  async save(draft: TabDraft) {
    this.saves += 1;
    if (this.full) throw new AppError('STORAGE_QUOTA_EXCEEDED', 'full');
    this.rows.set(`${draft.tab_id}/${draft.note_id}`, structuredClone(draft));
  }
  async get({ tab_id, note_id }: { tab_id: string; note_id: string }) {
    return this.rows.get(`${tab_id}/${note_id}`) ?? null;
  }
  async remove({ tab_id, note_id }: { tab_id: string; note_id: string }) {
    return { removed: this.rows.delete(`${tab_id}/${note_id}`) };
  }
  async list() {
    return [...this.rows.values()];
  }
}

/** Timers the test fires by hand: no waiting on the clock. */
class ManualTimers implements DraftTimers {
  readonly waiting = new Map<number, { run: () => void; ms: number }>();
  #next = 0;
  set(run: () => void, ms: number) {
    this.#next += 1;
    this.waiting.set(this.#next, { run, ms });
    return this.#next;
  }
  clear(handle: unknown) {
    this.waiting.delete(handle as number);
  }
  /** Fires the timers of this length, as if that pause had passed. */
  fire(ms: number) {
    for (const [handle, timer] of [...this.waiting]) {
      if (timer.ms !== ms) continue;
      this.waiting.delete(handle);
      timer.run();
    }
  }
}

function setup(options: { tabId?: string; backend?: FakeBackend; local?: MemoryStorage | null } = {}) {
  const backend = options.backend ?? new FakeBackend();
  const timers = new ManualTimers();
  const local = options.local === undefined ? new MemoryStorage() : options.local;
  const failed: string[] = [];
  const written: string[] = [];
  const store = new DraftStore({
    backend,
    tabId: options.tabId ?? 'tabA',
    local,
    timers,
    delayMs: () => 100,
    maxWaitMs: 2000,
    mirrorDelayMs: 50,
    onWriteFailed: (noteId) => failed.push(noteId),
    onWritten: (noteId) => written.push(noteId),
  });
  return { store, backend, timers, local, failed, written };
}

describe('DraftStore', () => {
  it('records on the keystroke and writes once typing pauses, keyed by tab and note', async () => {
    const { store, backend, timers } = setup();
    store.write(draft({ body: 't' }));
    store.write(draft({ body: 'ty' }));
    expect(backend.saves).toBe(0);
    expect(await store.read('n1')).toEqual(draft({ body: 'ty' }));
    timers.fire(100);
    await store.flush();
    expect(backend.saves).toBe(1);
    expect([...backend.rows.keys()]).toEqual(['tabA/n1']);
    expect(backend.rows.get('tabA/n1')).toEqual({ tab_id: 'tabA', ...draft({ body: 'ty' }) });
    expect(store.pending('n1')).toBe(false);
    expect(await store.read('n1')).toEqual(draft({ body: 'ty' }));
  });

  it('knows without asking the core which notes this tab has no draft of, once listed', async () => {
    const { store, backend } = setup();
    await backend.save({ tab_id: 'tabA', ...draft({ note_id: 'n1' }) });
    await backend.save({ tab_id: 'tabB', ...draft({ note_id: 'n2' }) });
    expect(store.known('n1')).toBeUndefined();
    await store.list();
    expect(store.known('n1')).toBeUndefined();
    expect(store.known('n2')).toBeNull();
    store.write(draft({ note_id: 'n2', body: 'typed' }));
    expect(store.known('n2')?.body).toBe('typed');
    await store.flush();
    expect(store.known('n2')).toBeUndefined();
    expect((await store.read('n2'))?.body).toBe('typed');
    await store.remove('n2');
    await store.removeDraft('tabA', 'n1');
    expect(store.known('n1')).toBeNull();
    expect(store.known('n2')).toBeNull();
  });

  it('still writes during continuous typing, at the longest wait', async () => {
    const { store, backend, timers } = setup();
    for (const body of ['a', 'ab', 'abc']) store.write(draft({ body }));
    timers.fire(2000);
    await store.read('n1');
    expect(backend.rows.get('tabA/n1')?.body).toBe('abc');
    // The pause timer went with the write: nothing is written twice.
    timers.fire(100);
    await store.flush();
    expect(backend.saves).toBe(1);
  });

  it('removes after a save without racing a write in flight, and drops a pending write (cancel)', async () => {
    const { store, backend, timers } = setup();
    let release = () => {};
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const save = backend.save.bind(backend);
    backend.save = async (row) => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      await save(row);
    };
    store.write(draft({ body: 'first' }));
    timers.fire(100);
    await inFlight;
    store.write(draft({ body: 'saved text' }));
    const removed = store.remove('n1');
    release();
    await removed;
    // The removal went after the write in flight; the pending second one was cancelled.
    timers.fire(100);
    await store.flush();
    expect(backend.rows.size).toBe(0);
    expect(backend.saves).toBe(1);
    expect(await store.read('n1')).toBeNull();
  });

  it('keeps one draft per tab for the same note; each tab reads and removes only its own', async () => {
    const backend = new FakeBackend();
    const tabA = setup({ tabId: 'tabA', backend }).store;
    const tabB = setup({ tabId: 'tabB', backend }).store;
    tabA.write(draft({ body: 'typed in A' }));
    tabB.write(draft({ body: 'typed in B' }));
    await Promise.all([tabA.flush(), tabB.flush()]);
    expect((await tabA.read('n1'))?.body).toBe('typed in A');
    expect((await tabB.read('n1'))?.body).toBe('typed in B');
    expect((await tabA.list()).map((item) => `${item.tab_id}:${item.body}`).sort()).toEqual([
      'tabA:typed in A',
      'tabB:typed in B',
    ]);
    await tabA.remove('n1');
    expect(await tabA.read('n1')).toBeNull();
    expect((await tabB.read('n1'))?.body).toBe('typed in B');
  });

  it('keeps a draft the full storage refused in memory, says so, and writes it once there is room', async () => {
    const { store, backend, failed, written } = setup();
    backend.full = true;
    store.write(draft({ body: 'needs room' }));
    await store.flush();
    expect(failed).toEqual(['n1']);
    expect(store.inMemoryOnly('n1')).toBe(true);
    expect((await store.read('n1'))?.body).toBe('needs room');
    expect(backend.rows.size).toBe(0);

    backend.full = false;
    await store.flush();
    expect(written).toEqual(['n1']);
    expect(store.inMemoryOnly('n1')).toBe(false);
    expect(backend.rows.get('tabA/n1')?.body).toBe('needs room');
  });

  it('writes a draft far over 5 Mi characters as it is', async () => {
    const { store, backend } = setup();
    const huge = 'x'.repeat(MAX_STORED_DRAFT_CHARS + 1);
    store.write(draft({ body: huge }));
    await store.flush();
    expect(backend.rows.get('tabA/n1')?.body).toBe(huge);
  });

  it('a read that fails says nothing is there rather than throwing', async () => {
    const { store, backend } = setup();
    backend.get = () => Promise.reject(new Error('worker gone'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await store.read('n1')).toBeNull();
    warn.mockRestore();
  });

  it('mirrors a small draft to localStorage on the keystroke itself, so a killed tab loses nothing it showed', () => {
    const { store, local, timers } = setup();
    store.write(draft({ body: 'typed just before the crash' }));
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe('typed just before the crash');
    expect(timers.waiting.size).toBe(2);
    expect([...timers.waiting.values()].map((timer) => timer.ms).sort()).toEqual([100, 2000]);
  });

  it('mirrors a medium draft to localStorage shortly after the keystroke, so a killed tab loses at most that moment, and drops the mirror once the core has it', async () => {
    const { store, backend, local, timers } = setup();
    const medium = 'm'.repeat(MAX_SYNC_MIRRORED_DRAFT_CHARS);
    store.write(draft({ body: `${medium} typed 50 ms before` }));
    // The keystroke itself writes nothing: serialising this much text would delay its frame.
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    store.write(draft({ body: `${medium} typed 50 ms before the crash` }));
    // Typing on does not push the mirror back: once its moment has passed it holds the newest text.
    timers.fire(50);
    // No pause has passed and no unload came: the mirror alone holds the text.
    expect(backend.saves).toBe(0);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(
      `${medium} typed 50 ms before the crash`,
    );
    // The next start (a new store on the same localStorage) moves it into the core.
    const next = setup({ local, backend: new FakeBackend() });
    expect(await next.store.moveLocalDrafts()).toBe(1);
    expect(next.backend.rows.get('tabA/n1')?.body).toBe(`${medium} typed 50 ms before the crash`);
    // In the living tab, once the core holds the newest text, the mirror goes.
    local!.setItem(
      draftKey('tabA', 'n1'),
      JSON.stringify(draft({ body: `${medium} typed 50 ms before the crash` })),
    );
    timers.fire(100);
    await store.flush();
    expect(backend.rows.get('tabA/n1')?.body).toBe(`${medium} typed 50 ms before the crash`);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    store.write(draft({ body: 'saved text' }));
    await store.remove('n1');
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
  });

  it('does not mirror a large draft, and drops an older mirror of it so it cannot come back over the newer text', async () => {
    const { store, local, timers } = setup();
    store.write(draft({ body: 'small at first' }));
    timers.fire(50);
    expect(local!.getItem(draftKey('tabA', 'n1'))).not.toBeNull();
    store.write(draft({ body: 'x'.repeat(MAX_MIRRORED_DRAFT_CHARS + 1) }));
    timers.fire(50);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
  });

  it('writes a large draft that has no journal (a textarea pasted into) to the core when the mirror is due', async () => {
    const { store, backend, timers } = setup();
    const large = 'x'.repeat(MAX_MIRRORED_DRAFT_CHARS + 1);
    store.write(draft({ body: large }));
    store.write(draft({ body: `${large}y` }));
    timers.fire(50);
    await store.list();
    expect(backend.saves).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(`${large}y`);
    expect(store.pending('n1')).toBe(false);
  });

  it('mirrors nothing for text the core already holds, or that was removed, by the time the mirror is due', async () => {
    const { store, backend, local, timers } = setup();
    store.write(draft({ body: 'saved by a pause first' }));
    store.write(draft({ note_id: 'n2', body: 'removed after a save' }));
    await store.flush();
    await store.remove('n2');
    timers.fire(50);
    expect(backend.rows.get('tabA/n1')?.body).toBe('saved by a pause first');
    expect(local!.map.size).toBe(0);
  });

  it('keeps typing when localStorage refuses the mirror', () => {
    const local = new MemoryStorage();
    local.quota = 10;
    const { store, timers } = setup({ local });
    store.write(draft({ body: 'more than ten characters' }));
    timers.fire(50);
    expect(local.map.size).toBe(0);
    expect(store.pending('n1')).toBe(true);
  });

  it('spills unwritten drafts to localStorage at unload (not those too long for it), and takes them back on return', () => {
    const { store, local } = setup();
    store.write(draft({ body: 'typed just before the unload' }));
    store.write(draft({ note_id: 'n2', body: 'x'.repeat(MAX_STORED_DRAFT_CHARS + 1) }));
    store.spill();
    expect([...local!.map.keys()]).toEqual([draftKey('tabA', 'n1')]);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe('typed just before the unload');
    store.unspill();
    expect(local!.map.size).toBe(0);
  });

  it('moves spilled drafts and those of older versions into the core once, dropping unreadable ones', async () => {
    const local = new MemoryStorage();
    local.setItem(draftKey('tabZ', 'n1'), JSON.stringify(draft({ body: 'spilled by tabZ' })));
    local.setItem(`${DRAFT_KEY_PREFIX}n2`, JSON.stringify(draft({ note_id: 'n2', body: 'before tab ids' })));
    local.setItem(`${DRAFT_KEY_PREFIX}broken`, '{nope');
    local.setItem(`${DRAFT_KEY_PREFIX}a.b.n1`, JSON.stringify(draft()));
    local.setItem('other.key', 'kept');
    const { store, backend } = setup({ local });
    expect(await store.moveLocalDrafts()).toBe(2);
    expect((await store.list()).map((item) => `${item.tab_id}/${item.note_id}:${item.body}`).sort()).toEqual([
      `${LEGACY_TAB_ID}/n2:before tab ids`,
      'tabZ/n1:spilled by tabZ',
    ]);
    expect([...local.map.keys()]).toEqual(['other.key']);
    expect(await store.moveLocalDrafts()).toBe(0);
    expect(backend.saves).toBe(2);
  });

  it('leaves a local draft the full storage refused for the next start', async () => {
    const local = new MemoryStorage();
    local.setItem(draftKey('tabZ', 'n1'), JSON.stringify(draft()));
    const { store, backend } = setup({ local });
    backend.full = true;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await store.moveLocalDrafts()).toBe(0);
    warn.mockRestore();
    expect(local.map.size).toBe(1);
  });

  it('works without localStorage at all', async () => {
    const { store } = setup({ local: null });
    store.write(draft());
    store.spill();
    expect(await store.moveLocalDrafts()).toBe(0);
    await store.flush();
    expect((await store.list()).map((item) => item.body)).toEqual(['typed text']);
  });
});

/** A large note's text as the store sees it from its editor: keys journaled one by one, the text handed over on a pause. */
class LargeEditor {
  text: string;
  constructor(
    readonly store: DraftStore,
    text: string,
    readonly noteId = 'n1',
  ) {
    this.text = text;
  }
  /** Types `keys` at `at` (the end by default), one change per key; true when the store asked for the text. */
  type(keys: string, at = this.text.length): boolean {
    let heavy = false;
    for (const [index, key] of [...keys].entries()) {
      const before = this.text;
      heavy = this.store.edit(this.noteId, [{ from: at + index, to: at + index, insert: key }], () => before);
      this.text = before.slice(0, at + index) + key + before.slice(at + index);
    }
    return heavy;
  }
  /** The pause: the text is handed over (marked, then written as the draft). */
  handOver(): void {
    this.store.mark(this.noteId, this.text);
    this.store.write(draft({ note_id: this.noteId, body: this.text }));
  }
}

const largeText = 'Paragraph: the scheduler picks the next runnable thread.\n'.repeat(5000);

/** The next start, on the same localStorage and core: journals replayed against the stored note. */
async function nextStart(
  local: MemoryStorage,
  backend: FakeBackend,
  notes: Record<string, string | null>,
  live: string[] = [],
) {
  const next = setup({ tabId: 'tabNext', local, backend });
  const replayed = await next.store.recoverJournals({
    note: async (noteId) => {
      const body = notes[noteId];
      return body === undefined || body === null
        ? null
        : { title: 'Stored', folder: '', tags: [], body, version: 7 };
    },
    skip: async (noteId) => live.includes(noteId),
  });
  return { replayed, store: next.store };
}

const journalKeys = (local: MemoryStorage) => [...local.map.keys()].filter((key) => key.includes('journal'));

describe('DraftStore edit journal (large notes)', () => {
  it('writes each key of a large note to localStorage within the mirror delay, and the next start replays it exactly into the tab draft', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('调度 typed before the crash 🚀', 0);
    editor.type(' and at the end');
    // The key itself writes nothing; the journal is written a moment later, without the whole text.
    expect(journalKeys(local!)).toEqual([]);
    timers.fire(50);
    const written = local!.getItem(journalKey('tabA', 'n1'))!;
    expect(written.length).toBeLessThan(2000);
    expect(backend.saves).toBe(0);

    // The tab is killed here: nothing reached the core. The next start finds every key.
    const { replayed } = await nextStart(local!, backend, { n1: largeText });
    expect(replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
    expect(backend.rows.get('tabA/n1')?.base_version).toBe(7);
    expect(journalKeys(local!)).toEqual([]);
  });

  it('starts again from the draft once it is written, and replays from the draft or the note, whichever write landed', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('first ', 0);
    editor.handOver();
    editor.type('second ', 6);
    timers.fire(50);
    // The pause is over: the handed-over text is written; its place is known before the write goes.
    let release = () => {};
    let started = () => {};
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const save = backend.save.bind(backend);
    backend.save = async (row) => {
      started();
      await new Promise<void>((resolve) => (release = resolve));
      await save(row);
    };
    timers.fire(100);
    await inFlight;
    const before = parseJournal(local!.getItem(journalKey('tabA', 'n1')))!;
    // The run of typing before it is one change.
    expect(before.marks.map((mark) => mark.at)).toEqual([0, 1]);
    // Killed with the write in flight (not landed): the note is the start.
    const copy = new MemoryStorage();
    for (const [key, value] of local!.map) copy.setItem(key, value);
    const lost = await nextStart(copy, new FakeBackend(), { n1: largeText });
    expect(lost.replayed).toBe(1);

    release();
    await store.list();
    backend.save = save;
    // Landed: the journal holds only what was typed since.
    const after = parseJournal(local!.getItem(journalKey('tabA', 'n1')))!;
    expect(after.changes).toEqual([{ from: 6, to: 6, insert: 'second ' }]);
    editor.type(' third');
    timers.fire(50);
    // The note was saved over since by another tab: the draft is the start.
    const { replayed } = await nextStart(local!, backend, { n1: 'changed elsewhere' });
    expect(replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('leaves localStorage once the note holds its text, and keeps only what was typed during the save', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('saved ', 0);
    editor.handOver();
    const saving = editor.text;
    store.checkpoint('n1', saving);
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.marks.at(-1)!.at).toBe(1);
    // Typed while the save is in flight.
    editor.type('during ', 6);
    store.saved('n1', saving);
    timers.fire(50);
    const kept = parseJournal(local!.getItem(journalKey('tabA', 'n1')))!;
    expect(kept.changes).toEqual([{ from: 6, to: 6, insert: 'during ' }]);
    const { replayed } = await nextStart(local!, backend, { n1: saving });
    expect(replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);

    // Saved again with nothing typed since: the journal goes, the draft too.
    const fresh = setup();
    const quiet = new LargeEditor(fresh.store, largeText);
    quiet.type('all saved ', 0);
    quiet.handOver();
    fresh.timers.fire(50);
    expect(journalKeys(fresh.local!)).toHaveLength(1);
    fresh.store.checkpoint('n1', quiet.text);
    await fresh.store.remove('n1', quiet.text);
    expect(journalKeys(fresh.local!)).toEqual([]);
    // The next key starts again from the saved text, without asking the editor for it.
    let asked = false;
    fresh.store.edit('n1', [{ from: 0, to: 0, insert: '!' }], () => {
      asked = true;
      return quiet.text;
    });
    expect(asked).toBe(false);
  });

  it('asks for the text once the journal is heavy, writes it to the core at once and starts again', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    // Pasting in many places: no run of typing to join.
    let heavy = false;
    for (let index = 0; !heavy; index += 1) {
      const at = (index * 997) % largeText.length;
      const insert = 'k'.repeat(1000);
      heavy = store.edit('n1', [{ from: at, to: at, insert }], () => editor.text);
      editor.text = editor.text.slice(0, at) + insert + editor.text.slice(at);
    }
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))).toBeNull();
    timers.fire(50);
    expect(local!.getItem(journalKey('tabA', 'n1'))!.length).toBeGreaterThan(JOURNAL_FOLD_WEIGHT / 2);
    editor.handOver();
    // No pause: the write went at once.
    await store.list();
    expect(backend.saves).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
    expect(journalKeys(local!)).toEqual([]);
  });

  it('joins a run of typing (and its corrections) into one change', () => {
    const { store, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('helo', 10);
    store.edit('n1', [{ from: 13, to: 14, insert: '' }], () => editor.text);
    store.edit('n1', [{ from: 13, to: 13, insert: 'lo' }], () => editor.text);
    timers.fire(50);
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.changes).toEqual([
      { from: 10, to: 10, insert: 'hello' },
    ]);
  });

  it('does not write a journal heavier than the bound (a huge paste); the text goes to the core instead', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    const heavy = store.edit(
      'n1',
      [{ from: 0, to: 0, insert: 'p'.repeat(MAX_JOURNAL_WEIGHT) }],
      () => editor.text,
    );
    expect(heavy).toBe(true);
    editor.text = 'p'.repeat(MAX_JOURNAL_WEIGHT) + editor.text;
    timers.fire(50);
    expect(journalKeys(local!)).toEqual([]);
    editor.handOver();
    await store.list();
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('storage full: a journal localStorage refuses leaves it, and the text goes to the core at once', async () => {
    const local = new MemoryStorage();
    local.quota = 100;
    const { store, backend, timers } = setup({ local });
    const editor = new LargeEditor(store, largeText);
    editor.handOver();
    editor.type('x'.repeat(200), 0);
    timers.fire(50);
    expect(journalKeys(local)).toEqual([]);
    await store.list();
    expect(backend.saves).toBe(1);
  });

  it('two tabs keep a journal each; each is replayed into its own tab draft, and one whose note a live tab holds is left', async () => {
    const local = new MemoryStorage();
    const backend = new FakeBackend();
    const tabA = setup({ tabId: 'tabA', local, backend });
    const tabB = setup({ tabId: 'tabB', local, backend });
    const inA = new LargeEditor(tabA.store, largeText);
    const inB = new LargeEditor(tabB.store, largeText);
    const inB2 = new LargeEditor(tabB.store, largeText, 'n2');
    inA.type('typed in A ', 0);
    inB.type(' typed in B');
    inB2.type('other note');
    tabA.timers.fire(50);
    tabB.timers.fire(50);
    expect(journalKeys(local).sort()).toEqual(
      [journalKey('tabA', 'n1'), journalKey('tabB', 'n1'), journalKey('tabB', 'n2')].sort(),
    );
    const { replayed } = await nextStart(local, backend, { n1: largeText, n2: largeText }, ['n2']);
    expect(replayed).toBe(2);
    expect(backend.rows.get('tabA/n1')?.body).toBe(inA.text);
    expect(backend.rows.get('tabB/n1')?.body).toBe(inB.text);
    expect(backend.rows.has('tabB/n2')).toBe(false);
    expect(journalKeys(local)).toEqual([journalKey('tabB', 'n2')]);
  });

  it('removes a journal that cannot be read or fits no stored text, leaving the draft as it was', async () => {
    const local = new MemoryStorage();
    const backend = new FakeBackend();
    const { store, timers } = setup({ local, backend });
    const editor = new LargeEditor(store, largeText);
    editor.type('lost start', 0);
    timers.fire(50);
    local.setItem(journalKey('tabZ', 'n9'), '{nope');
    await backend.save({ tab_id: 'tabA', ...draft({ body: 'the draft as it was' }) });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { replayed } = await nextStart(local, backend, { n1: 'neither the start', n9: null });
    warn.mockRestore();
    expect(replayed).toBe(0);
    expect(backend.rows.get('tabA/n1')?.body).toBe('the draft as it was');
    expect(journalKeys(local)).toEqual([]);
  });

  it('keeps a journal the full core refuses for the next start', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('waits for room', 0);
    timers.fire(50);
    backend.full = true;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect((await nextStart(local!, backend, { n1: largeText })).replayed).toBe(0);
    warn.mockRestore();
    expect(journalKeys(local!)).toHaveLength(1);
    backend.full = false;
    expect((await nextStart(local!, backend, { n1: largeText })).replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('drops the journal when the text is dropped on purpose (cancel), or another editor takes the note over', async () => {
    const { store, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('discarded', 0);
    timers.fire(50);
    await store.remove('n1');
    expect(journalKeys(local!)).toEqual([]);

    editor.type('again', 0);
    timers.fire(50);
    expect(journalKeys(local!)).toHaveLength(1);
    // A text the journal never saw (written from a textarea): it no longer applies.
    store.write(draft({ body: 'x'.repeat(MAX_MIRRORED_DRAFT_CHARS + 1) }));
    expect(journalKeys(local!)).toEqual([]);
  });

  it('remembers the place of only a few refused writes (each holds a whole text), and still replays exactly', async () => {
    const { store, backend, local } = setup();
    backend.full = true;
    const editor = new LargeEditor(store, largeText);
    for (let round = 0; round < 8; round += 1) {
      editor.type(`key ${round} `, 0);
      editor.handOver();
      await store.flush();
    }
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.marks.length).toBeLessThanOrEqual(5);
    backend.full = false;
    expect((await nextStart(local!, backend, { n1: largeText })).replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('writes the journal at once when the page goes away', () => {
    const { store, local } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('just before the unload', 0);
    store.spill();
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))?.changes).toEqual([
      { from: 0, to: 0, insert: 'just before the unload' },
    ]);
  });
});

describe('defaultDraftDelay', () => {
  it('waits longer before writing a large text', () => {
    expect(defaultDraftDelay(draft())).toBeLessThan(defaultDraftDelay(draft({ body: 'x'.repeat(300_000) })));
  });
});

describe('tabIdFrom', () => {
  it('keeps the id for the tab (a reload) and makes one for a new tab', () => {
    const session = new MemoryStorage();
    let made = 0;
    const make = () => `tab${++made}`;
    expect(tabIdFrom(session, make)).toBe('tab1');
    expect(tabIdFrom(session, make)).toBe('tab1');
    expect(session.getItem(TAB_ID_KEY)).toBe('tab1');
    expect(tabIdFrom(new MemoryStorage(), make)).toBe('tab2');
    expect(tabIdFrom(null, make)).toBe('tab3');
  });
});

describe('parseDraft', () => {
  it('rejects wrong shapes', () => {
    expect(parseDraft(null)).toBeNull();
    expect(parseDraft('"text"')).toBeNull();
    expect(parseDraft(JSON.stringify({ ...draft(), tags: 'a' }))).toBeNull();
  });
});

describe('resolveDraft', () => {
  it('discards a draft the note already holds', () => {
    expect(resolveDraft(draft({ body: 'stored text' }), note())).toBe('discard');
  });

  it('restores a draft typed on the stored version', () => {
    expect(resolveDraft(draft(), note())).toBe('restore');
  });

  it('restores a draft written after the note was last saved', () => {
    expect(resolveDraft(draft({ base_version: 2 }), note())).toBe('restore');
  });

  it('copies a draft when the note changed elsewhere later, or is gone', () => {
    const later = note({ version: 5, updated_at: '2026-03-10T13:00:00.000Z' });
    expect(resolveDraft(draft(), later)).toBe('copy');
    expect(resolveDraft(draft(), null)).toBe('copy');
    expect(resolveDraft(draft(), note({ deleted_at: '2026-03-10T11:30:00.000Z' }))).toBe('copy');
  });
});
