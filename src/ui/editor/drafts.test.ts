import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../contracts/errors';
import { journalKey, parseJournal, type JournalFields } from './edit-journal';
import {
  DRAFT_KEY_PREFIX,
  DraftStore,
  JOURNAL_FOLD_WEIGHT,
  JOURNALED_TEXT_CHARS,
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
  /** Characters handed to `setItem` so far: what the writes cost. */
  written = 0;
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
    this.written += value.length;
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
  /** While set, a write waits for it: a write in flight while typing goes on. */
  gate: Promise<void> | null = null;
  async save(draft: TabDraft) {
    if (this.gate) await this.gate;
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

  it('still writes during continuous typing, at the longest wait, a text only memory holds', async () => {
    const { store, backend, timers } = setup({ local: null });
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
    // The mirror holds it: no longest wait posts it to the core while typing goes on.
    expect([...timers.waiting.values()].map((timer) => timer.ms)).toEqual([100]);
  });

  it('tells the pause whether the mirror holds the text, and arms the longest wait when it does not', async () => {
    const backend = new FakeBackend();
    const timers = new ManualTimers();
    const local = new MemoryStorage();
    const asked: boolean[] = [];
    const store = new DraftStore({
      backend,
      tabId: 'tabA',
      local,
      timers,
      delayMs: (_draft, mirrored) => (asked.push(mirrored), mirrored ? 1000 : 100),
      maxWaitMs: 2000,
    });
    store.write(draft({ body: 'mirrored' }));
    expect(asked).toEqual([true]);
    expect([...timers.waiting.values()].map((timer) => timer.ms)).toEqual([1000]);
    // localStorage full: only memory holds the next text, so it goes to the core soon.
    local.quota = 10;
    store.write(draft({ body: 'refused by the mirror' }));
    expect(asked).toEqual([true, false]);
    expect(local.getItem(draftKey('tabA', 'n1'))).toBeNull();
    expect([...timers.waiting.values()].map((timer) => timer.ms).sort()).toEqual([100, 2000]);
    timers.fire(100);
    await store.flush();
    expect(backend.rows.get('tabA/n1')?.body).toBe('refused by the mirror');
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

  it('spills unwritten drafts to localStorage at unload (not those too long for it), and takes back on return those no mirror holds', () => {
    const { store, local } = setup();
    store.write(draft({ body: 'typed just before the unload' }));
    store.write(draft({ note_id: 'n2', body: 'x'.repeat(MAX_STORED_DRAFT_CHARS + 1) }));
    store.write(draft({ note_id: 'n3', body: 'y'.repeat(MAX_MIRRORED_DRAFT_CHARS + 1) }));
    store.spill();
    expect([...local!.map.keys()].sort()).toEqual([draftKey('tabA', 'n1'), draftKey('tabA', 'n3')]);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe('typed just before the unload');
    store.unspill();
    // The small text's spill is its mirror: a tab killed after the return still finds it.
    expect([...local!.map.keys()]).toEqual([draftKey('tabA', 'n1')]);
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
  /**
   * Types `keys` at `at` (the end by default), one change per key, on the note as `fields` says
   * (its other fields and the version typed on); true when the store asked for the text.
   */
  type(keys: string, at = this.text.length, fields: Partial<JournalFields> = {}): boolean {
    let heavy = false;
    const now = { title: 'Title', folder: 'work', tags: ['a'], base_version: 3, ...fields };
    for (const [index, key] of [...keys].entries()) {
      const before = this.text;
      heavy = this.store.edit(
        this.noteId,
        [{ from: at + index, to: at + index, insert: key }],
        () => before,
        () => now,
      );
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

    // The tab is killed here: no typed text reached the core (at most the start, kept once). The next
    // start finds every key, typed on the version the editor said.
    const { replayed } = await nextStart(local!, backend, { n1: largeText });
    expect(replayed).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
    expect(backend.rows.get('tabA/n1')?.base_version).toBe(3);
    expect(journalKeys(local!)).toEqual([]);
  });

  it('starts again from the draft once it is written, and replays from the draft or the note, whichever write landed', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('first ', 0);
    editor.handOver();
    // Handing the text over kept the journal's start (the note's text, too long for the mirror) in the core.
    await store.list();
    expect(backend.rows.get('tabA/n1')?.body).toBe(largeText);
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
    // The saved text, which the journal now starts from, is kept at once (another tab may save over the note).
    await store.list();
    expect(backend.rows.get('tabA/n1')?.body).toBe(saving);
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

  it('keeps the start once after each save of the note, so a save over it by another tab loses nothing', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('saved ', 0);
    editor.handOver();
    // The note is saved with this text (as the autosaver does), nothing typed during the save.
    const saved = editor.text;
    store.checkpoint('n1', saved);
    await store.remove('n1', saved);
    expect(backend.rows.has('tabA/n1')).toBe(false);
    expect(journalKeys(local!)).toEqual([]);
    // Typed after the save and handed over at the pause; the tab is killed before the draft's write.
    editor.type(' typed after the save', saved.length, { base_version: 4 });
    editor.handOver();
    timers.fire(50);
    await store.list();
    // Another tab saved over the note meanwhile: the kept start still gives back every key, as a copy.
    const crashed = snapshot(local!, backend);
    const theirs = storedNote('another tab’s text', { version: 9, updated_at: '2999-01-01T00:00:00.000Z' });
    const after = await recoverAfterCrash(crashed.local, crashed.backend, theirs);
    expect(after.replayed).toBe(1);
    expect(after.resolution).toBe('copy');
    expect(after.copy).toBe(editor.text);
    expect(after.note).toBe(theirs.body);

    // Nothing saved over it: the typed text is restored over the saved note.
    const calm = snapshot(local!, backend);
    const ours = storedNote(saved, { version: 4, updated_at: '2000-01-01T00:00:00.000Z' });
    expect((await recoverAfterCrash(calm.local, calm.backend, ours)).note).toBe(editor.text);
    // The saved text was kept once more as this tab's draft (too long for the mirror).
    expect(backend.rows.get('tabA/n1')?.body).toBe(saved);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
  });

  it('keeps the start once when the journal starts, so a save over the note by another tab before the first draft loses nothing', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new LargeEditor(store, largeText);
    editor.type('first keys ', 0);
    // No write of megabytes while keys come: the start goes to the core once the text is handed over.
    timers.fire(50);
    await store.list();
    expect(backend.saves).toBe(0);
    editor.handOver();
    editor.type('and more');
    timers.fire(50);
    await store.list();
    const crashed = snapshot(local!, backend);
    const theirs = storedNote('another tab’s text', { version: 9, updated_at: '2999-01-01T00:00:00.000Z' });
    const after = await recoverAfterCrash(crashed.local, crashed.backend, theirs);
    expect(after.replayed).toBe(1);
    expect(after.copy).toBe(editor.text);
    // The note's text as the journal found it was kept as this tab's draft, once.
    expect(backend.rows.get('tabA/n1')?.body).toBe(largeText);
    expect(backend.saves).toBe(1);
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
    // No pause: the write went at once (after the start, kept once at the first key).
    await store.list();
    expect(backend.saves).toBe(2);
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

/** The textarea as the store sees it: each change hands over the text before and after. */
class TextareaEditor {
  text: string;
  /** The stored note's version the text is typed on. */
  version = 3;
  constructor(
    readonly store: DraftStore,
    text: string,
    readonly noteId = 'n1',
  ) {
    this.text = text;
  }
  /** Replaces `from`..`to` with `insert`, as one input event. */
  change(from: number, to: number, insert: string): void {
    const before = this.text;
    this.text = before.slice(0, from) + insert + before.slice(to);
    this.store.typed(
      before,
      draft({
        note_id: this.noteId,
        body: this.text,
        base_version: this.version,
        saved_at: new Date().toISOString(),
      }),
    );
  }
  /** Types `keys` one by one at `at` (the end by default). */
  type(keys: string, at = this.text.length): void {
    for (const [index, key] of [...keys].entries()) this.change(at + index, at + index, key);
  }
}

/** A text over the journal threshold and under the mirror's bound: the textarea's long note. */
const mediumText = 'Paragraph: the scheduler picks the next runnable thread.\n'.repeat(600);

/** A copy of localStorage and of the core as a killed tab leaves them (writes not yet made are lost). */
function snapshot(local: MemoryStorage, backend: FakeBackend) {
  const localCopy = new MemoryStorage();
  for (const [key, value] of local.map) localCopy.map.set(key, value);
  const backendCopy = new FakeBackend();
  for (const [key, row] of backend.rows) backendCopy.rows.set(key, structuredClone(row));
  return { local: localCopy, backend: backendCopy };
}

interface StoredNote {
  title: string;
  folder: string;
  tags: string[];
  body: string;
  version: number;
  updated_at: string;
  deleted_at: string | null;
}

/**
 * The next start after a crash, as `recoverDrafts` runs it: drafts in
 * localStorage moved into the core, journals replayed, then each of this
 * tab's drafts resolved against the stored note. Returns the note's text
 * afterwards and the text of a recovered copy (null when none).
 */
async function recoverAfterCrash(
  local: MemoryStorage,
  backend: FakeBackend,
  stored: StoredNote | null,
  noteId = 'n1',
): Promise<{ note: string | null; copy: string | null; resolution: string | null; replayed: number }> {
  const next = setup({ tabId: 'tabNext', local, backend });
  await next.store.moveLocalDrafts();
  const replayed = await next.store.recoverJournals({
    note: async (id) => (id === noteId && stored ? { ...stored } : null),
    skip: async () => false,
  });
  const held = (await next.store.list()).find((row) => row.tab_id === 'tabA' && row.note_id === noteId);
  if (!held) return { note: stored?.body ?? null, copy: null, resolution: null, replayed };
  const resolution = resolveDraft(held, stored);
  await next.store.removeDraft(held.tab_id, held.note_id);
  if (resolution === 'restore') return { note: held.body, copy: null, resolution, replayed };
  if (resolution === 'copy') return { note: stored?.body ?? null, copy: held.body, resolution, replayed };
  return { note: stored?.body ?? null, copy: null, resolution, replayed };
}

const storedNote = (body: string, overrides: Partial<StoredNote> = {}): StoredNote => ({
  title: 'Title',
  folder: 'work',
  tags: ['a'],
  body,
  version: 3,
  updated_at: '2026-03-10T11:00:00.000Z',
  deleted_at: null,
  ...overrides,
});

describe('DraftStore.typed (the textarea)', () => {
  it('keeps the whole-text path for a text up to the threshold: mirrored on the key, no journal', () => {
    const { store, local } = setup();
    const small = 's'.repeat(JOURNALED_TEXT_CHARS - 10);
    const editor = new TextareaEditor(store, small);
    editor.type('typed');
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(editor.text);
    expect(journalKeys(local!)).toEqual([]);
    expect(store.pending('n1')).toBe(true);
  });

  it('journals a text over the threshold: after the start is kept once, a key costs what was typed, not the note', () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('F');
    // The first key keeps the start (the text before it) once, with the journal.
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(mediumText);
    expect(journalKeys(local!)).toHaveLength(1);
    // Each key writes the journal (a few hundred characters), not the text (tens of thousands).
    let heaviest = 0;
    const measured = (run: () => void) => {
      const before = local!.written;
      run();
      heaviest = Math.max(heaviest, local!.written - before);
    };
    for (const key of 'irst words') measured(() => editor.type(key, editor.text.indexOf('F') + 1));
    for (const key of ' and the end') measured(() => editor.type(key));
    measured(() => editor.change(10, 14, ''));
    measured(() => timers.fire(50));
    expect(heaviest).toBeGreaterThan(0);
    expect(heaviest).toBeLessThan(500);
    expect(mediumText.length).toBeGreaterThan(30_000);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(mediumText);
    expect(backend.saves).toBe(0);

    // Killed here: nothing reached the core; the next start gives back exactly the typed text.
    const crashed = snapshot(local!, backend);
    return recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText)).then((after) => {
      expect(after.note).toBe(editor.text);
      expect(after.resolution).toBe('restore');
      expect(journalKeys(crashed.local)).toEqual([]);
    });
  });

  it('joins a run of typing into one change in the journal', () => {
    const { store, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('helo', 10);
    editor.change(13, 14, '');
    editor.type('lo', 13);
    timers.fire(50);
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.changes).toEqual([
      { from: 10, to: 10, insert: 'hello' },
    ]);
  });

  it('does not post a journaled text to the core while typing goes on: the pause writes it, or a crash replays the journal', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('steady typing', 0);
    // No longest-wait timer: only the pause, and the mirror of the journal.
    expect([...timers.waiting.values()].map((timer) => timer.ms).sort()).toEqual([100, 50]);
    timers.fire(2000);
    timers.fire(50);
    expect(backend.saves).toBe(0);
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText));
    expect(after.note).toBe(editor.text);
    // Once typing pauses, the text goes to the core as before.
    timers.fire(100);
    await store.flush();
    expect(backend.saves).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('still posts a small text at the longest wait while typing goes on (it has no journal)', async () => {
    const { store, backend, timers } = setup();
    const editor = new TextareaEditor(store, 'short note');
    editor.type('more', 0);
    timers.fire(2000);
    await store.flush();
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
  });

  it('drops the mirrored start once the draft lands in the core, and starts the journal from there', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('written ', 0);
    timers.fire(100);
    await store.list();
    expect(backend.rows.get('tabA/n1')?.body).toBe(editor.text);
    // A stale mirror here would be moved over the newer draft at the next start.
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    expect(journalKeys(local!)).toEqual([]);
    editor.type('more');
    timers.fire(50);
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.changes).toEqual([
      { from: editor.text.length - 4, to: editor.text.length - 4, insert: 'more' },
    ]);
    const crashed = snapshot(local!, backend);
    expect((await recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText))).note).toBe(
      editor.text,
    );
  });

  it('drops the mirrored start when a draft lands while typing goes on, so it is not moved over the newer draft', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('first ', 0);
    let release = () => {};
    backend.gate = new Promise<void>((resolve) => (release = resolve));
    timers.fire(100);
    await Promise.resolve();
    // Typed while the write is in flight.
    editor.type('second ', 6);
    release();
    backend.gate = null;
    await store.list();
    expect(backend.rows.get('tabA/n1')?.body).toBe(`first ${mediumText}`);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    const crashed = snapshot(local!, backend);
    expect((await recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText))).note).toBe(
      editor.text,
    );
  });

  it('keeps the mirrored start when a draft lands after the note was saved (its removal follows it)', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('saved ', 0);
    let release = () => {};
    backend.gate = new Promise<void>((resolve) => (release = resolve));
    // The pause's draft write is in flight when the note's save lands and the draft is to go.
    timers.fire(100);
    await Promise.resolve();
    const saved = editor.text;
    store.checkpoint('n1', saved);
    editor.version = 4;
    void store.remove('n1', saved);
    editor.type(' typed after the save');
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(saved);
    release();
    backend.gate = null;
    await store.list();
    // The draft landed and was removed after it: the note and the mirror are where the start is.
    expect(backend.rows.has('tabA/n1')).toBe(false);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(saved);
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(
      crashed.local,
      crashed.backend,
      storedNote('saved over by another tab', { version: 9, updated_at: '2999-01-01T00:00:00.000Z' }),
    );
    expect(after.copy).toBe(editor.text);
  });

  it('mirrors the start once after each save of the note, so a save over it by another tab loses nothing', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('saved ', 0);
    // The note is saved with this text (as the autosaver does), nothing typed during the save.
    const saved = editor.text;
    store.checkpoint('n1', saved);
    editor.version = 4;
    await store.remove('n1', saved);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    expect(journalKeys(local!)).toEqual([]);
    // The next key keeps the saved text once more.
    editor.type(' typed after the save');
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(saved);
    timers.fire(50);
    // Another tab saved over the note meanwhile: the kept start still gives back every key, as a copy.
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(
      crashed.local,
      crashed.backend,
      storedNote('another tab’s text', { version: 9, updated_at: '2999-01-01T00:00:00.000Z' }),
    );
    expect(after.resolution).toBe('copy');
    expect(after.copy).toBe(editor.text);
    expect(after.note).toBe('another tab’s text');
  });

  it('keeps what was typed during a save: the start becomes the saved text, mirrored at once', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('saving ', 0);
    const saving = editor.text;
    store.checkpoint('n1', saving);
    editor.type('during ', 7);
    store.saved('n1', saving);
    editor.version = 4;
    store.write(draft({ body: editor.text, base_version: 4, saved_at: new Date().toISOString() }));
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(saving);
    expect(parseJournal(local!.getItem(journalKey('tabA', 'n1')))!.changes).toEqual([
      { from: 7, to: 7, insert: 'during ' },
    ]);
    timers.fire(50);
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(
      crashed.local,
      crashed.backend,
      storedNote(saving, { version: 4, updated_at: '2000-01-01T00:00:00.000Z' }),
    );
    expect(after.note).toBe(editor.text);
  });

  it('the note deleted elsewhere: the journal is replayed on the kept start and the text comes back as a copy', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('typed before the crash ', 0);
    timers.fire(50);
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(crashed.local, crashed.backend, null);
    expect(after.replayed).toBe(1);
    expect(after.resolution).toBe('copy');
    expect(after.copy).toBe(editor.text);
  });

  it('the note changed elsewhere (a conflict): the typed text is kept as a copy, the other text stays', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('mine ', 0);
    timers.fire(50);
    const crashed = snapshot(local!, backend);
    const theirs = storedNote(`theirs ${mediumText}`, { version: 5, updated_at: '2999-01-01T00:00:00.000Z' });
    const after = await recoverAfterCrash(crashed.local, crashed.backend, theirs);
    expect(after.resolution).toBe('copy');
    expect(after.copy).toBe(editor.text);
    expect(after.note).toBe(theirs.body);
  });

  it('invalid input: a change with no note id records nothing; a stored journal or draft without one is removed', async () => {
    const { store, local, timers } = setup();
    store.typed(mediumText, draft({ note_id: '', body: `${mediumText}x` }));
    timers.fire(50);
    expect(local!.map.size).toBe(0);
    expect(store.pending('')).toBe(false);

    const backend = new FakeBackend();
    const broken = new MemoryStorage();
    broken.setItem(
      journalKey('tabA', 'n1'),
      JSON.stringify({ v: 1, marks: [], changes: [], fields: null, saved_at: 'x' }),
    );
    broken.setItem(draftKey('tabA', 'n1'), JSON.stringify({ ...draft(), note_id: undefined }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const after = await recoverAfterCrash(broken, backend, storedNote(mediumText));
    warn.mockRestore();
    expect(after.replayed).toBe(0);
    expect(after.note).toBe(mediumText);
    expect(broken.map.size).toBe(0);
    expect(backend.rows.size).toBe(0);
  });

  it('writes a text over the mirror bound to the core once, then journals it', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, 'x'.repeat(MAX_MIRRORED_DRAFT_CHARS + 10));
    const start = editor.text;
    editor.type('abc', 5);
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    await Promise.resolve();
    timers.fire(50);
    // Only the start went to the core, once; the keys are in the journal.
    await store.list();
    expect(backend.saves).toBe(1);
    expect(backend.rows.get('tabA/n1')?.body).toBe(start);
    expect(journalKeys(local!)).toHaveLength(1);
    const crashed = snapshot(local!, backend);
    const after = await recoverAfterCrash(
      crashed.local,
      crashed.backend,
      storedNote('saved over by another tab', { version: 9, updated_at: '2999-01-01T00:00:00.000Z' }),
    );
    expect(after.copy).toBe(editor.text);
  });

  it('at unload writes the journal, not the whole text, and keeps the mirrored start when the page comes back', async () => {
    const { store, backend, local } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('before the unload ', 0);
    const before = local!.written;
    store.spill();
    expect(local!.written - before).toBeLessThan(1000);
    store.unspill();
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(mediumText);
    editor.type('after the return');
    store.spill();
    const crashed = snapshot(local!, backend);
    expect((await recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText))).note).toBe(
      editor.text,
    );
  });

  it('a text shrinking under the threshold goes back to the whole-text mirror, and its journal goes', async () => {
    const { store, backend, local, timers } = setup();
    const editor = new TextareaEditor(store, mediumText);
    editor.type('x', 0);
    timers.fire(50);
    expect(journalKeys(local!)).toHaveLength(1);
    editor.change(100, editor.text.length, '');
    expect(journalKeys(local!)).toEqual([]);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe(editor.text);
    const crashed = snapshot(local!, backend);
    expect((await recoverAfterCrash(crashed.local, crashed.backend, storedNote(mediumText))).note).toBe(
      editor.text,
    );
  });
});

/** mulberry32: a small seeded PRNG, so a failing run can be replayed exactly. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

describe('DraftStore.typed under random editing', () => {
  it.each([1, 2, 3, 4])(
    'seed %i: 400 random inserts, deletions, pauses, saves and crashes; every crash gives back exactly the typed text',
    async (seed) => {
      const random = seeded(seed);
      const pick = (limit: number) => Math.floor(random() * limit);
      const alphabet = 'abc xyz\n调度😀#[]';
      const word = (length: number) =>
        Array.from({ length }, () => [...alphabet][pick([...alphabet].length)]).join('');
      // The clock moves on a millisecond per step: saves and drafts are ordered as in a real session.
      let now = Date.parse('2026-06-01T00:00:00.000Z');
      vi.useFakeTimers({ toFake: ['Date'], now });
      try {
        let { store, backend, local, timers } = setup();
        let note = storedNote(mediumText.slice(0, 12_000 + pick(12_000)), {
          updated_at: new Date(now).toISOString(),
        });
        let editor = new TextareaEditor(store, note.body);
        editor.version = note.version;
        let crashes = 0;
        /** Lets a write held in flight land (see `gate`). */
        const held: { release: (() => void) | null } = { release: null };
        const settle = async () => {
          held.release?.();
          held.release = null;
          await store.list();
        };
        // A paste makes the journal heavy until the note's next save folds it: like a medium
        // text's mirror, a heavy journal is written within the delay rather than on the key.
        let pastedSinceSave = false;
        for (let step = 0; step < 400; step += 1) {
          now += 1;
          vi.setSystemTime(now);
          const roll = random();
          const length = editor.text.length;
          if (roll < 0.4) {
            // A key, a few keys, now and then a paste.
            const at = random() < 0.6 ? length : pick(length + 1);
            const insert = random() < 0.05 ? word(500 + pick(20_000)) : word(1 + pick(3));
            if (insert.length < 4) editor.type(insert, at);
            else editor.change(at, at, insert);
            if (insert.length >= 4) pastedSinceSave = true;
          } else if (roll < 0.55) {
            const from = pick(length + 1);
            const to = Math.min(length, from + (random() < 0.1 ? pick(8_000) : 1 + pick(4)));
            editor.change(from, to, '');
          } else if (roll < 0.65) {
            timers.fire(50);
          } else if (roll < 0.73) {
            // The pause: the draft goes to the core; sometimes it is still in flight while typing
            // goes on, sometimes the tab dies before it lands.
            if (held.release === null && random() < 0.4) {
              backend.gate = new Promise<void>((resolve) => {
                held.release = () => {
                  backend.gate = null;
                  resolve();
                };
              });
              timers.fire(100);
              await Promise.resolve();
            } else {
              timers.fire(100);
              if (random() < 0.5) await settle();
            }
          } else if (roll < 0.8) {
            // The autosaver saves the note; sometimes typing goes on during the save.
            const saving = editor.text;
            pastedSinceSave = false;
            store.checkpoint('n1', saving);
            const during = random() < 0.4;
            if (during) editor.type(word(1 + pick(5)), pick(editor.text.length + 1));
            note = {
              ...note,
              body: saving,
              version: note.version + 1,
              updated_at: new Date(now).toISOString(),
            };
            now += 1;
            vi.setSystemTime(now);
            editor.version = note.version;
            if (during && editor.text !== saving) {
              store.saved('n1', saving);
              store.write(
                draft({
                  body: editor.text,
                  base_version: note.version,
                  saved_at: new Date(now).toISOString(),
                }),
              );
            } else {
              void store.remove('n1', saving);
            }
            if (random() < 0.5) await settle();
          } else {
            // The page goes (spilled at pagehide) and comes back from the back-forward cache, or not;
            // or it is killed (with the journal due or not yet). The next start must give back the text.
            let gone = false;
            if (roll < 0.85) {
              store.spill();
              if (random() < 0.5) {
                store.unspill();
                continue;
              }
              gone = true;
            }
            crashes += 1;
            if (pastedSinceSave || random() < 0.5) timers.fire(50);
            const crashed = snapshot(local!, backend);
            const after = await recoverAfterCrash(crashed.local, crashed.backend, note);
            expect(after.note, `seed ${seed}, step ${step}`).toBe(editor.text);
            if (gone || random() < 0.4) {
              // Reloaded: a new tab goes on from the recovered note.
              held.release?.();
              held.release = null;
              note = {
                ...note,
                body: after.note!,
                version: after.resolution === 'restore' ? note.version + 1 : note.version,
                updated_at: new Date(now).toISOString(),
              };
              ({ store, backend, local, timers } = setup({
                local: crashed.local,
                backend: crashed.backend,
              }));
              editor = new TextareaEditor(store, note.body);
              editor.version = note.version;
            }
          }
        }
        expect(crashes).toBeGreaterThan(20);
      } finally {
        vi.useRealTimers();
      }
    },
  );
});

describe('defaultDraftDelay', () => {
  it('waits longer before writing a text the tab journals or mirrors meanwhile', () => {
    const short = defaultDraftDelay(draft({ title: '', body: 'x'.repeat(JOURNALED_TEXT_CHARS) }));
    expect(short).toBeLessThan(
      defaultDraftDelay(draft({ title: '', body: 'x'.repeat(JOURNALED_TEXT_CHARS + 1) })),
    );
    expect(short).toBeLessThan(defaultDraftDelay(draft({ body: 'x'.repeat(300_000) })));
    // A short text in the mirror is as safe as a journaled one: it waits as long.
    expect(defaultDraftDelay(draft({ title: '', body: 'x' }), true)).toBe(
      defaultDraftDelay(draft({ title: '', body: 'x'.repeat(JOURNALED_TEXT_CHARS + 1) })),
    );
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
