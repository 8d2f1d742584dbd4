import { linkKey } from './wikilinks-key';

/**
 * Obsidian's path form of a link target: `[[folder/note]]`, `[[folder/sub/note]]`,
 * `[[folder/note.md]]`, `[[note.md]]`. Obsidian writes it when a title is shared
 * by notes in several folders, or when "shortest path" is off; some exports
 * start the path at the folder above the vault, with the vault's own name first.
 */
export interface LinkPath {
  /** Keys (see linkKey) of the folders named before the title, outermost first; empty for `[[note.md]]`. */
  folders: string[];
  /** The note's title as written, its `.md` left out. */
  title: string;
}

const MARKDOWN_SUFFIX = /\.md$/iu;

/** The path a link target names, or null for a plain title (no `/`, no `.md`). */
export function linkPath(target: string): LinkPath | null {
  if (!target.includes('/') && !MARKDOWN_SUFFIX.test(target.trim())) return null;
  const parts = target.split('/').map((part) => part.trim());
  const title = (parts.pop() ?? '').replace(MARKDOWN_SUFFIX, '').trim();
  if (title === '') return null;
  // A leading `/` (a path from the vault's top) and doubled slashes name no folder.
  return { folders: parts.filter((part) => part !== '').map(linkKey), title };
}

function endsWith(folders: readonly string[], tail: readonly string[]): boolean {
  if (tail.length > folders.length) return false;
  const start = folders.length - tail.length;
  return tail.every((part, index) => folders[start + index] === part);
}

/**
 * How well a link's folders name a note's folder (`/`-separated, '' the top),
 * lower is closer, null when they do not: 0 the same folder (or no folder
 * named), 1 the folder's last parts (Obsidian's shortest unique path), 2 the
 * same with one more folder first (the vault's own name, which an import
 * leaves out). Folder names compare as titles do.
 */
export function folderRank(linkFolders: readonly string[], noteFolder: string): number | null {
  if (linkFolders.length === 0) return 0;
  const folders = noteFolder === '' ? [] : noteFolder.split('/').map(linkKey);
  if (endsWith(folders, linkFolders)) return folders.length === linkFolders.length ? 0 : 1;
  const below = linkFolders.slice(1);
  if (below.length === 0 ? folders.length === 0 : endsWith(folders, below)) return 2;
  return null;
}

/**
 * The path-form link target `target` becomes when its note is renamed to
 * `newTitle`: its folders and `.md` stay as written
 * (`操作系统/进程调度.md` → `操作系统/CPU 调度.md`).
 */
export function retitleTarget(target: string, newTitle: string): string {
  const slash = target.lastIndexOf('/');
  const name = target.slice(slash + 1).trimEnd();
  const suffix = MARKDOWN_SUFFIX.exec(name)?.[0] ?? '';
  return `${target.slice(0, slash + 1)}${newTitle.trim()}${suffix}`;
}
