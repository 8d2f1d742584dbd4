import type { FolderNode } from './folder-tree';

/** A folder as the tree shows it now: rows under a collapsed folder are not listed. */
export interface FolderRow {
  path: string;
  name: string;
  /** 1 for a top-level folder (aria-level). */
  level: number;
  /** The folder above, or null at the top level. */
  parent: string | null;
  hasChildren: boolean;
  expanded: boolean;
}

/** The tree's rows top to bottom, as a keyboard walks them. */
export function visibleFolderRows(
  nodes: readonly FolderNode[],
  isCollapsed: (path: string) => boolean,
): FolderRow[] {
  const rows: FolderRow[] = [];
  const walk = (level: readonly FolderNode[], depth: number, parent: string | null): void => {
    for (const node of level) {
      const hasChildren = node.children.length > 0;
      const expanded = hasChildren && !isCollapsed(node.path);
      rows.push({ path: node.path, name: node.name, level: depth, parent, hasChildren, expanded });
      if (expanded) walk(node.children, depth + 1, node.path);
    }
  };
  walk(nodes, 1, null);
  return rows;
}

/** What a key does on the focused row of the folder tree. */
export type FolderTreeAction =
  | { kind: 'focus'; path: string }
  | { kind: 'expand'; path: string }
  | { kind: 'collapse'; path: string }
  | { kind: 'open'; path: string }
  | { kind: 'rename'; path: string }
  | { kind: 'delete'; path: string };

/**
 * The WAI-ARIA tree view keys (APG): Up/Down move, Right expands or enters,
 * Left collapses or goes to the parent, Home/End, Enter or Space opens the
 * folder, a typed letter goes to the next folder whose name starts with it.
 * F2 renames and Delete deletes (after asking), as in a file manager. Null:
 * the key is not the tree's.
 */
export function folderTreeAction(
  rows: readonly FolderRow[],
  path: string,
  key: string,
): FolderTreeAction | null {
  const index = rows.findIndex((row) => row.path === path);
  const row = rows[index];
  if (!row) return null;
  const focus = (target: FolderRow | undefined): FolderTreeAction | null =>
    target && target.path !== path ? { kind: 'focus', path: target.path } : null;
  switch (key) {
    case 'ArrowDown':
      return focus(rows[index + 1]);
    case 'ArrowUp':
      return focus(rows[index - 1]);
    case 'Home':
      return focus(rows[0]);
    case 'End':
      return focus(rows[rows.length - 1]);
    case 'ArrowRight':
      if (!row.hasChildren) return null;
      return row.expanded ? focus(rows[index + 1]) : { kind: 'expand', path };
    case 'ArrowLeft':
      if (row.expanded) return { kind: 'collapse', path };
      return row.parent === null ? null : { kind: 'focus', path: row.parent };
    case 'Enter':
    case ' ':
      return { kind: 'open', path };
    case 'F2':
      return { kind: 'rename', path };
    case 'Delete':
      return { kind: 'delete', path };
  }
  if ([...key].length !== 1 || key.trim() === '') return null;
  const letter = key.toLowerCase();
  const after = [...rows.slice(index + 1), ...rows.slice(0, index)];
  return focus(after.find((other) => other.name.toLowerCase().startsWith(letter)));
}
