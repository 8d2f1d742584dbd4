import { describe, expect, it } from 'vitest';
import {
  DRAFT_KEY_PREFIX,
  DraftStore,
  MAX_STORED_DRAFT_CHARS,
  TAB_ID_KEY,
  draftKey,
  tabIdFrom,
  parseDraft,
  resolveDraft,
  type DraftStorage,
  type NoteDraft,
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

describe('DraftStore', () => {
  it('writes, reads and removes under notesagent.draft.<tab>.<id>', () => {
    const storage = new MemoryStorage();
    const store = new DraftStore(storage, 'tabA');
    expect(store.write(draft())).toBe(true);
    expect([...storage.map.keys()]).toEqual([`${DRAFT_KEY_PREFIX}tabA.n1`]);
    expect(store.read('n1')).toEqual(draft());
    store.remove('n1');
    expect(store.read('n1')).toBeNull();
  });

  it('reports a full storage instead of throwing', () => {
    const storage = new MemoryStorage();
    storage.quota = 10;
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(new DraftStore(storage, 'tabA').write(draft())).toBe(false);
    } finally {
      console.warn = warn;
    }
  });

  it('keeps a draft the full storage refused in memory until it is saved, and says so', () => {
    const storage = new MemoryStorage();
    const store = new DraftStore(storage, 'tabA');
    store.write(draft({ body: 'older text' }));
    storage.quota = 10;
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(store.write(draft({ body: 'newest text' }))).toBe(false);
    } finally {
      console.warn = warn;
    }
    expect(store.inMemoryOnly('n1')).toBe(true);
    expect(store.read('n1')?.body).toBe('newest text');
    storage.quota = Number.POSITIVE_INFINITY;
    expect(store.write(draft({ body: 'newest text!' }))).toBe(true);
    expect(store.inMemoryOnly('n1')).toBe(false);
    expect(store.read('n1')?.body).toBe('newest text!');
    store.remove('n1');
    expect(store.read('n1')).toBeNull();
  });

  it('keeps a draft too long for local storage in memory without serialising it, and stores it again once short enough', () => {
    const storage = new MemoryStorage();
    let serialised = 0;
    const setItem = storage.setItem.bind(storage);
    storage.setItem = (key, value) => {
      serialised += 1;
      setItem(key, value);
    };
    const store = new DraftStore(storage, 'tabA');
    const huge = 'x'.repeat(MAX_STORED_DRAFT_CHARS + 1);
    expect(store.write(draft({ body: huge }))).toBe(false);
    expect(serialised).toBe(0);
    expect(store.inMemoryOnly('n1')).toBe(true);
    expect(store.read('n1')?.body).toBe(huge);
    expect(store.write(draft({ body: 'x'.repeat(MAX_STORED_DRAFT_CHARS - 'Title'.length) }))).toBe(true);
    expect(store.inMemoryOnly('n1')).toBe(false);
    expect(storage.map.size).toBe(1);
  });

  it('lists valid drafts and removes broken ones', () => {
    const storage = new MemoryStorage();
    const store = new DraftStore(storage, 'tabA');
    store.write(draft());
    store.write(draft({ note_id: 'n2' }));
    storage.setItem(`${DRAFT_KEY_PREFIX}broken`, '{nope');
    storage.setItem('other.key', 'kept');
    expect(
      store
        .list()
        .map((item) => item.draft.note_id)
        .sort(),
    ).toEqual(['n1', 'n2']);
    expect(storage.getItem(`${DRAFT_KEY_PREFIX}broken`)).toBeNull();
    expect(storage.getItem('other.key')).toBe('kept');
  });

  it('keeps one draft per tab for the same note; each tab reads and removes only its own', () => {
    const storage = new MemoryStorage();
    const tabA = new DraftStore(storage, 'tabA');
    const tabB = new DraftStore(storage, 'tabB');
    tabA.write(draft({ body: 'typed in A' }));
    tabB.write(draft({ body: 'typed in B' }));
    expect(tabA.read('n1')?.body).toBe('typed in A');
    expect(tabB.read('n1')?.body).toBe('typed in B');
    expect(
      tabA
        .list()
        .map((item) => item.draft.body)
        .sort(),
    ).toEqual(['typed in A', 'typed in B']);
    tabA.remove('n1');
    expect(tabA.read('n1')).toBeNull();
    expect(tabB.read('n1')?.body).toBe('typed in B');
    expect(tabA.list().map((item) => item.key)).toEqual([draftKey('tabB', 'n1')]);
  });

  it('still reads, lists and removes drafts written before tabs had ids', () => {
    const storage = new MemoryStorage();
    storage.setItem(`${DRAFT_KEY_PREFIX}n1`, JSON.stringify(draft({ body: 'old format' })));
    const store = new DraftStore(storage, 'tabA');
    expect(store.read('n1')?.body).toBe('old format');
    expect(store.list()).toEqual([{ key: `${DRAFT_KEY_PREFIX}n1`, draft: draft({ body: 'old format' }) }]);
    store.remove('n1');
    expect(storage.map.size).toBe(0);
  });

  it('drops an entry whose key does not name the note it holds', () => {
    const storage = new MemoryStorage();
    storage.setItem(draftKey('tabA', 'n2'), JSON.stringify(draft()));
    storage.setItem(`${DRAFT_KEY_PREFIX}a.b.n1`, JSON.stringify(draft()));
    expect(new DraftStore(storage, 'tabA').list()).toEqual([]);
    expect(storage.map.size).toBe(0);
  });

  it('works without storage at all', () => {
    const store = new DraftStore(null, 'tabA');
    expect(store.write(draft())).toBe(false);
    expect(store.list()).toEqual([]);
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
