import { describe, expect, it } from 'vitest';
import {
  CHAT_DRAFT_PREFIX,
  MAX_CHAT_DRAFTS,
  MAX_CHAT_DRAFT_CHARS,
  loadChatDrafts,
  saveChatDraft,
} from './chat-drafts';

/** A `localStorage` in memory; `full` makes every write throw as a full one does. */
function memoryStorage(full = false) {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) throw new DOMException('full', 'QuotaExceededError');
      items.set(key, value);
    },
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('chat drafts', () => {
  it('keeps each conversation’s draft and the new chat’s apart, and drops one sent or emptied', () => {
    const storage = memoryStorage();
    saveChatDraft(storage, 'conv_a', 'Half a question', 1);
    saveChatDraft(storage, null, 'A new topic', 2);
    saveChatDraft(storage, 'conv_b', 'Other', 3);
    expect(loadChatDrafts(storage)).toEqual({
      conv_a: 'Half a question',
      '': 'A new topic',
      conv_b: 'Other',
    });
    saveChatDraft(storage, 'conv_b', '', 4);
    saveChatDraft(storage, null, '', 5);
    expect(loadChatDrafts(storage)).toEqual({ conv_a: 'Half a question' });
  });

  it('keeps the most recently typed drafts past the limit, and a long one cut to the limit', () => {
    const storage = memoryStorage();
    for (let index = 0; index < MAX_CHAT_DRAFTS; index += 1)
      saveChatDraft(storage, `conv_${index}`, 'x', index);
    // Typing again in the oldest makes it recent: the next oldest goes when one more is added.
    saveChatDraft(storage, 'conv_0', 'again', MAX_CHAT_DRAFTS);
    saveChatDraft(storage, 'conv_new', 'y', MAX_CHAT_DRAFTS + 1);
    const drafts = loadChatDrafts(storage);
    expect(Object.keys(drafts)).toHaveLength(MAX_CHAT_DRAFTS);
    expect(drafts.conv_0).toBe('again');
    expect(drafts.conv_1).toBeUndefined();
    expect(drafts.conv_2).toBe('x');
    expect(drafts.conv_new).toBe('y');

    saveChatDraft(storage, 'conv_long', 'a'.repeat(MAX_CHAT_DRAFT_CHARS + 10), 100);
    expect(loadChatDrafts(storage).conv_long).toHaveLength(MAX_CHAT_DRAFT_CHARS);
  });

  it('ignores entries it cannot read, a full storage and no storage at all', () => {
    const storage = memoryStorage();
    storage.items.set(`${CHAT_DRAFT_PREFIX}conv_x`, '{not json');
    storage.items.set('notesagent.draft.tab.note', 'a note draft, not ours');
    expect(loadChatDrafts(storage)).toEqual({});
    expect(storage.items.has(`${CHAT_DRAFT_PREFIX}conv_x`)).toBe(false);
    expect(storage.items.get('notesagent.draft.tab.note')).toBe('a note draft, not ours');

    expect(() => saveChatDraft(memoryStorage(true), 'conv_a', 'text', 1)).not.toThrow();
    expect(loadChatDrafts(null)).toEqual({});
    expect(() => saveChatDraft(null, 'conv_a', 'text', 1)).not.toThrow();
  });
});
