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
