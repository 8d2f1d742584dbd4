import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../contracts/errors';
import {
  DRAFT_KEY_PREFIX,
  DraftStore,
  LEGACY_TAB_ID,
  MAX_MIRRORED_DRAFT_CHARS,
  MAX_STORED_DRAFT_CHARS,
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

  it('mirrors a small draft to localStorage shortly after the keystroke, so a killed tab loses at most that moment, and drops the mirror once the core has it', async () => {
    const { store, backend, local, timers } = setup();
    store.write(draft({ body: 'typed 50 ms before' }));
    // The keystroke itself writes nothing: serialising the text would delay its frame.
    expect(local!.getItem(draftKey('tabA', 'n1'))).toBeNull();
    store.write(draft({ body: 'typed 50 ms before the crash' }));
    // Typing on does not push the mirror back: once its moment has passed it holds the newest text.
    timers.fire(50);
    // No pause has passed and no unload came: the mirror alone holds the text.
    expect(backend.saves).toBe(0);
    expect(parseDraft(local!.getItem(draftKey('tabA', 'n1')))?.body).toBe('typed 50 ms before the crash');
    // The next start (a new store on the same localStorage) moves it into the core.
    const next = setup({ local, backend: new FakeBackend() });
    expect(await next.store.moveLocalDrafts()).toBe(1);
    expect(next.backend.rows.get('tabA/n1')?.body).toBe('typed 50 ms before the crash');
    // In the living tab, once the core holds the newest text, the mirror goes.
    local!.setItem(draftKey('tabA', 'n1'), JSON.stringify(draft({ body: 'typed 50 ms before the crash' })));
    timers.fire(100);
    await store.flush();
    expect(backend.rows.get('tabA/n1')?.body).toBe('typed 50 ms before the crash');
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
    expect(store.pending('n1')).toBe(true);
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
