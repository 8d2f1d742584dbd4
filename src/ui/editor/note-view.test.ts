import { describe, expect, it } from 'vitest';
import { NoteViewState, parseNoteView } from './note-view.svelte';

/** A Storage stand-in holding its items in a map. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

describe('note view', () => {
  it('reads the three views and falls back to both panes for anything else', () => {
    expect(parseNoteView('read')).toBe('read');
    expect(parseNoteView('edit')).toBe('edit');
    expect(parseNoteView('split')).toBe('split');
    expect(parseNoteView(null)).toBe('split');
    expect(parseNoteView('preview')).toBe('split');
  });

  it('keeps the choice for the next visit on this device', () => {
    const storage = memoryStorage();
    const first = new NoteViewState(() => storage);
    expect(first.view).toBe('split');
    first.choose('read');
    expect(first.view).toBe('read');
    expect(new NoteViewState(() => storage).view).toBe('read');
  });

  it('still switches when the storage refuses it', () => {
    const refusing: Storage = {
      ...memoryStorage(),
      getItem: () => {
        throw new Error('blocked');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    const state = new NoteViewState(() => refusing);
    expect(state.view).toBe('split');
    state.choose('edit');
    expect(state.view).toBe('edit');
  });
});
