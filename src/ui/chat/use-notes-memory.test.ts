import { describe, expect, it } from 'vitest';
import {
  MAX_REMEMBERED_CONVERSATIONS,
  USE_NOTES_KEY,
  rememberUseNotes,
  rememberedUseNotes,
} from './use-notes-memory';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
  };
}

describe('use-notes memory', () => {
  it('starts a first chat unticked, as before', () => {
    expect(rememberedUseNotes(memoryStorage(), null)).toBe(false);
    expect(rememberedUseNotes(null, null)).toBe(false);
  });

  it('starts a new chat with the last choice', () => {
    const storage = memoryStorage();
    rememberUseNotes(storage, 'c1', true);
    expect(rememberedUseNotes(storage, null)).toBe(true);
    rememberUseNotes(storage, null, false);
    expect(rememberedUseNotes(storage, null)).toBe(false);
  });

  it('reopens a conversation with its own choice, not the last one', () => {
    const storage = memoryStorage();
    rememberUseNotes(storage, 'with-notes', true);
    rememberUseNotes(storage, 'without', false);
    expect(rememberedUseNotes(storage, 'with-notes')).toBe(true);
    expect(rememberedUseNotes(storage, 'without')).toBe(false);
  });

  it('guesses an unrecorded conversation from whether its answers cited notes', () => {
    const storage = memoryStorage();
    rememberUseNotes(storage, null, true);
    expect(rememberedUseNotes(storage, 'older', false)).toBe(false);
    expect(rememberedUseNotes(storage, 'older', true)).toBe(true);
  });

  it('ignores what it cannot read, and keeps the most recent conversations only', () => {
    const storage = memoryStorage();
    storage.setItem(USE_NOTES_KEY, '{not json');
    expect(rememberedUseNotes(storage, null)).toBe(false);
    for (let index = 0; index <= MAX_REMEMBERED_CONVERSATIONS; index += 1) {
      rememberUseNotes(storage, `c${index}`, true);
    }
    expect(rememberedUseNotes(storage, 'c0', false)).toBe(false);
    expect(rememberedUseNotes(storage, `c${MAX_REMEMBERED_CONVERSATIONS}`)).toBe(true);
  });
});
