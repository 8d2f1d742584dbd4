import type { MessageKey } from '../i18n';

/**
 * What the folder tree's context menu offers: the folder actions the sidebar
 * already has elsewhere (the New folder form, the rename field, a drag to move),
 * reachable from the folder itself, and deleting it (also the Delete key on it).
 */
export type FolderMenuCommand = 'new-inside' | 'rename' | 'move' | 'move-to-top' | 'delete';

export const FOLDER_MENU_LABELS: Record<FolderMenuCommand, MessageKey> = {
  'new-inside': 'sidebar.folderMenu.newInside',
  rename: 'sidebar.folderMenu.rename',
  move: 'sidebar.folderMenu.move',
  'move-to-top': 'sidebar.folderMenu.moveToTop',
  delete: 'sidebar.deleteFolder.menuItem',
};

/**
 * The menu's entries for a folder; a top-level folder has no way further up. Delete comes
 * last, as in file managers, away from the entries used most.
 */
export function folderMenuCommands(path: string): FolderMenuCommand[] {
  return [
    'new-inside',
    'rename',
    'move',
    ...(path.includes('/') ? (['move-to-top'] as const) : []),
    'delete',
  ];
}

/** The last part of a folder's path: its name, and its path once moved to the top level. */
export function folderName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * The part of the rename field's path that is selected when it opens, so typing
 * replaces what the user asked to change: the name to rename it, the folders
 * above it to move it (the start of the field for a top-level folder).
 */
export function renameSelection(path: string, command: 'rename' | 'move'): [number, number] {
  const slash = path.lastIndexOf('/');
  if (command === 'rename') return [slash + 1, path.length];
  return [0, Math.max(slash, 0)];
}

/** The keys that open a context menu: Shift+F10 and the Menu key, as in desktop apps. */
export function opensContextMenu(event: {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  return event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey);
}

/**
 * The folder row the keyboard goes on to once `removed` (with the folders inside it) has left
 * the tree, from the rows shown before (`before`, in order) and the paths shown now: the next
 * row below it that is still there, else the nearest one above (a parent shown only for the
 * folder goes with it). Null when no folder is left.
 */
export function rowAfterRemoval(
  before: readonly string[],
  removed: string,
  shown: ReadonlySet<string>,
): string | null {
  const index = before.indexOf(removed);
  const below = before.slice(index + 1);
  const above = before.slice(0, Math.max(0, index)).reverse();
  return [...below, ...above].find((path) => shown.has(path)) ?? null;
}
