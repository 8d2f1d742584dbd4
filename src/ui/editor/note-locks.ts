/**
 * Web Locks mark which tab edits which note, so a second tab does not take over
 * (and save) the first tab's live draft. A tab's locks vanish when it dies, so
 * drafts of a crashed tab are free to recover. Without the API every draft is
 * treated as free.
 */
const LOCK_PREFIX = 'notesagent.note.';

function lockManager(): LockManager | null {
  return typeof navigator !== 'undefined' && 'locks' in navigator ? navigator.locks : null;
}

/** Holds the note's lock until the returned function is called. */
export function holdNoteLock(noteId: string): () => void {
  const locks = lockManager();
  if (!locks) return () => {};
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  locks.request(LOCK_PREFIX + noteId, () => released).catch(() => {});
  return release;
}

/** True when another tab holds (or waits for) the note's lock. */
export async function isNoteLockedElsewhere(noteId: string): Promise<boolean> {
  const locks = lockManager();
  if (!locks) return false;
  try {
    const snapshot = await locks.query();
    const name = LOCK_PREFIX + noteId;
    return [...(snapshot.held ?? []), ...(snapshot.pending ?? [])].some((lock) => lock.name === name);
  } catch {
    return false;
  }
}
