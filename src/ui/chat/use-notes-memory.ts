/**
 * "Use my notes", remembered on this device: the last choice (a new chat starts with it) and
 * each conversation's own (reopened, it keeps what it was asked with). A student who asks about
 * their notes should not have to tick the box in every chat.
 */

export const USE_NOTES_KEY = 'notesagent.chat-use-notes';
/** Conversations remembered at most; the least recently used go first. */
export const MAX_REMEMBERED_CONVERSATIONS = 200;

type MemoryStorage = Pick<Storage, 'getItem' | 'setItem'>;

interface StoredChoice {
  /** The last choice, for a new chat. */
  last: boolean;
  /** Conversation id → its choice, the most recently used last. */
  conversations: Record<string, boolean>;
}

function read(storage: MemoryStorage | null): StoredChoice {
  const empty: StoredChoice = { last: false, conversations: {} };
  if (!storage) return empty;
  try {
    const value = JSON.parse(storage.getItem(USE_NOTES_KEY) ?? 'null') as Partial<StoredChoice> | null;
    if (!value || typeof value !== 'object') return empty;
    const conversations: Record<string, boolean> = {};
    if (value.conversations && typeof value.conversations === 'object') {
      for (const [id, used] of Object.entries(value.conversations)) {
        if (typeof used === 'boolean') conversations[id] = used;
      }
    }
    return { last: value.last === true, conversations };
  } catch {
    return empty;
  }
}

function write(storage: MemoryStorage | null, value: StoredChoice): void {
  try {
    storage?.setItem(USE_NOTES_KEY, JSON.stringify(value));
  } catch {
    // Storage full or refused: the choice lasts until the page closes.
  }
}

/**
 * What the box shows: a new chat (null) the last choice; a conversation its own, or, one this
 * device has no record of, whether its answers cited notes.
 */
export function rememberedUseNotes(
  storage: MemoryStorage | null,
  conversationId: string | null,
  citedNotes = false,
): boolean {
  const stored = read(storage);
  if (conversationId === null) return stored.last;
  return stored.conversations[conversationId] ?? citedNotes;
}

/**
 * Records a choice: as the last one (the next new chat starts with it) and, with an id, as the
 * conversation's own.
 */
export function rememberUseNotes(
  storage: MemoryStorage | null,
  conversationId: string | null,
  useNotes: boolean,
): void {
  const stored = read(storage);
  const conversations = { ...stored.conversations };
  if (conversationId !== null) {
    delete conversations[conversationId];
    conversations[conversationId] = useNotes;
  }
  const ids = Object.keys(conversations);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_REMEMBERED_CONVERSATIONS))) {
    delete conversations[id];
  }
  write(storage, { last: useNotes, conversations });
}
