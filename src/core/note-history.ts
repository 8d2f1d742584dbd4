/**
 * When a change to a note keeps a version, and which versions go when the
 * history is full. Pure: the repository passes the times it reads from its
 * injected clock.
 */

/**
 * Who made a change. The app's own link rewrites say what the links followed:
 * `rename`, a note's new title; `move`, a note's new folder (moved, or its
 * folder renamed or moved). Versions stored before `move` existed say
 * `rename` for both.
 */
export type NoteChangeOrigin = 'user' | 'import' | 'agent' | 'plugin' | 'rename' | 'move' | 'restore';

export interface HistoryLimits {
  /** Continuous edits of one origin within this time share one version. */
  coalesceMs: number;
  /** Versions kept per note; older ones are pruned first. */
  perNote: number;
  /** Versions kept across all notes; the oldest go first. */
  total: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  coalesceMs: 5 * 60_000,
  perNote: 50,
  total: 2_000,
};

/**
 * Typing and link rewrites coalesce; agent, plugin, import and restore changes
 * always stand alone. Moves coalesce with moves (dragging notes one after
 * another, or renaming a folder twice, rewrites the same linking notes: one
 * version before the burst is the one to go back to), but not with renames,
 * whose version would then be labelled with only one of the two causes.
 */
const COALESCING: ReadonlySet<NoteChangeOrigin> = new Set(['user', 'rename', 'move']);

export interface LatestVersion {
  origin: string;
  created_at: string;
}

/**
 * A version stores the note as it was before a burst of changes, so a change
 * keeps one unless the note's newest version is the start of the same
 * burst: same coalescing origin, less than `coalesceMs` ago.
 */
export function keepsVersion(
  latest: LatestVersion | undefined,
  origin: NoteChangeOrigin,
  now: string,
  limits: Pick<HistoryLimits, 'coalesceMs'> = DEFAULT_HISTORY_LIMITS,
): boolean {
  if (!latest || !COALESCING.has(origin) || latest.origin !== origin) return true;
  const elapsed = Date.parse(now) - Date.parse(latest.created_at);
  return !(elapsed >= 0 && elapsed < limits.coalesceMs);
}

/** How many of the oldest entries to drop so that `count` fits `limit`. */
export function overflow(count: number, limit: number): number {
  return Math.max(0, count - Math.max(0, limit));
}
