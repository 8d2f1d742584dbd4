import { folderRank, linkPath } from './wikilinks-paths';

/** A note's folder change: `from` and `to` are `/`-separated folders, '' the top. */
export interface NoteMove {
  note_id: string;
  title: string;
  from: string;
  to: string;
}

/** `a/b` moved to `x`: `a/b` → `x`, `a/b/c` → `x/c`; a folder outside `a/b` does not move (null). */
export function movedFolder(folder: string, from: string, to: string): string | null {
  if (folder === from) return to;
  if (folder.startsWith(`${from}/`)) return `${to}${folder.slice(from.length)}`;
  return null;
}

function folderParts(folder: string): string[] {
  return folder === '' ? [] : folder.split('/');
}

/**
 * The targets a path link (`[[folder/Title]]`, see linkPath) may read once its
 * note moved from folder `from` to `to`, in the style it was written, best
 * first: a full path stays a full path, a shortest path (the folder's last
 * parts) the shortest of the new folder's last parts, a path starting with the
 * vault's name keeps it; the title as written and its `.md` stay. Empty when
 * the link names no folder (`[[Title]]`, `[[Title.md]]`) or folders that do not
 * hold `from`: such a link did not name the note's place, so it has nothing to follow.
 * The caller picks the first that opens the moved note.
 */
export function movedTargets(target: string, from: string, to: string): string[] {
  const path = linkPath(target);
  if (path === null || path.folders.length === 0) return [];
  const rank = folderRank(path.folders, from);
  if (rank === null) return [];
  const written = target.split('/');
  const name = written.pop()!.trim();
  const lead = target.trimStart().startsWith('/') ? '/' : '';
  const wrote = written.map((part) => part.trim()).filter((part) => part !== '');
  const next = folderParts(to);
  const join = (folders: readonly string[]) =>
    folders.length === 0 ? name : `${lead}${[...folders, name].join('/')}`;
  // Shortest first: the new folder's last part, then one more, up to its whole path.
  const tails = (prefix: readonly string[]) =>
    next.length === 0
      ? [join(prefix)]
      : next.map((_, index) => join([...prefix, ...next.slice(next.length - index - 1)]));
  if (rank === 0) return [join(next)];
  if (rank === 1) return tails([]);
  // Rank 2: the vault's name first, then the folder whole or its last parts.
  const vault = wrote.slice(0, 1);
  return wrote.length - 1 === folderParts(from).length ? [join([...vault, ...next])] : tails(vault);
}

/**
 * Whether a path link named the folder its note moved out of even though it
 * still opens the note: a link may start with the vault's name (folderRank's
 * 2), so `[[Courses/OS/Note]]` still opens a note whose folder `Courses` was
 * renamed `Archive`, read now as "vault Courses, shortest path OS/Note". Such
 * a link named the note's folder when it opened the note before the move with
 * its folders read as folders (rank 0 or 1 against `from`), and opens it now
 * only through the vault reading (rank 2 against `to`): it follows the move.
 * One that opened the note through the vault reading before the move too may
 * have started with the vault's name all along, and is not this case.
 */
export function leftOnlyVaultReading(target: string, from: string, to: string): boolean {
  const path = linkPath(target);
  if (path === null || path.folders.length === 0) return false;
  const before = folderRank(path.folders, from);
  return before !== null && before < 2 && folderRank(path.folders, to) === 2;
}
