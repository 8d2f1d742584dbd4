import type { SaveState } from './autosaver';

/**
 * Which save states are said aloud. Autosave flips between "Unsaved", "Saving…" and "Saved" after
 * every pause in typing; read each time, they drown what is being written. Said: a save that
 * failed, and the first save that worked after one (the text is safe again). Null: say nothing.
 */
export function saveAnnouncement(
  previous: SaveState,
  next: SaveState,
  failedSince: boolean,
): SaveState | null {
  if (next === previous) return null;
  if (next === 'error') return 'error';
  if (next === 'saved' && failedSince) return 'saved';
  return null;
}
