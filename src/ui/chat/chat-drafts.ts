/**
 * Half-written chat questions kept across a reload: one `localStorage` entry
 * per conversation (the new chat's under `new`), written on the keystroke
 * (a question is short, and a reload right after typing must find it),
 * removed when the question is sent or emptied.
 */

/** Not under the note editor's `notesagent.draft.` prefix: it reads every key there as a note's draft. */
export const CHAT_DRAFT_PREFIX = 'notesagent.chat-draft.';
/** Drafts kept at most; the least recently typed go first. */
export const MAX_CHAT_DRAFTS = 50;
/** Characters kept of one draft (a pasted book is not a question to keep). */
export const MAX_CHAT_DRAFT_CHARS = 32_000;
const NEW_CHAT = 'new';

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

interface StoredDraft {
  text: string;
  /** When it was last typed (ms), to drop the oldest past the limit. */
  at: number;
}

function storageKey(conversationId: string | null): string {
  return `${CHAT_DRAFT_PREFIX}${conversationId ?? NEW_CHAT}`;
}

function parse(raw: string | null): StoredDraft | null {
  if (raw === null) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredDraft>;
    return typeof value.text === 'string' && value.text !== '' && typeof value.at === 'number'
      ? { text: value.text, at: value.at }
      : null;
  } catch {
    return null;
  }
}

/** Every stored draft, by storage key, unreadable ones removed. */
function storedDrafts(storage: DraftStorage): Map<string, StoredDraft> {
  const keys: string[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (key?.startsWith(CHAT_DRAFT_PREFIX)) keys.push(key);
  }
  const found = new Map<string, StoredDraft>();
  for (const key of keys) {
    const draft = parse(storage.getItem(key));
    if (draft) found.set(key, draft);
    else storage.removeItem(key);
  }
  return found;
}

/** Removes the least recently typed drafts past `MAX_CHAT_DRAFTS`. */
function prune(storage: DraftStorage, found: Map<string, StoredDraft>): void {
  const oldest = [...found].sort(([, a], [, b]) => b.at - a.at).slice(MAX_CHAT_DRAFTS);
  for (const [key] of oldest) {
    storage.removeItem(key);
    found.delete(key);
  }
}

/** The stored drafts by conversation id ('' for a new chat, as the chat state keys them). */
export function loadChatDrafts(storage: DraftStorage | null): Record<string, string> {
  if (!storage) return {};
  try {
    const found = storedDrafts(storage);
    prune(storage, found);
    const drafts: Record<string, string> = {};
    for (const [key, draft] of found) {
      const id = key.slice(CHAT_DRAFT_PREFIX.length);
      drafts[id === NEW_CHAT ? '' : id] = draft.text;
    }
    return drafts;
  } catch {
    return {};
  }
}

/**
 * Keeps (or, empty, removes) the draft of one conversation. Storage that is
 * missing or full only costs the reload copy: the draft stays in the page.
 */
export function saveChatDraft(
  storage: DraftStorage | null,
  conversationId: string | null,
  text: string,
  now: number,
): void {
  if (!storage) return;
  const key = storageKey(conversationId);
  try {
    if (text === '') {
      storage.removeItem(key);
      return;
    }
    const known = storage.getItem(key) !== null;
    storage.setItem(key, JSON.stringify({ text: text.slice(0, MAX_CHAT_DRAFT_CHARS), at: now }));
    if (!known) prune(storage, storedDrafts(storage));
  } catch {
    // Quota or a storage the browser refuses: the draft lives on in memory.
  }
}
