import type { FolderDto } from '../../contracts/notes';

/** Drag data types: a note from the list, a folder from the tree. */
export const NOTE_DRAG_TYPE = 'application/x-notesagent-note';
export const FOLDER_DRAG_TYPE = 'application/x-notesagent-folder';

/** Where folder `path` lands when dropped on `parent` ('' is the top level): its name under the parent. */
export function movedFolderPath(path: string, parent: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return parent === '' ? name : `${parent}/${name}`;
}

/** A folder can go under any parent except itself, its own descendants, and where it already is. */
export function canMoveFolder(path: string, parent: string): boolean {
  if (parent === path || parent.startsWith(`${path}/`)) return false;
  return movedFolderPath(path, parent) !== path;
}

export interface FolderNode {
  /** Last path segment, shown in the tree. */
  name: string;
  /** Full `/`-separated path, as the core stores it. */
  path: string;
  /** Notes in this folder and every folder below it. */
  noteCount: number;
  children: FolderNode[];
}

interface MutableNode extends FolderNode {
  children: MutableNode[];
  /** The count `notes.folders()` reported for this exact path, if it listed it. */
  reported: number | null;
}

/**
 * Made when first needed: creating one loads the locale's collation data, which showed
 * in a start-up profile of the shell's evaluation, and the first view sorts no folders.
 */
let collator: Intl.Collator | null = null;

/**
 * Builds the sidebar tree from the flat folder list. `notes.folders()` counts
 * recursively (a note in `a/b` counts for `a` and `a/b`); a parent it did not
 * list is created so the tree has no gaps and gets its children's sum. The
 * root folder '' is left out (its notes are under "All notes").
 */
export function buildFolderTree(folders: readonly FolderDto[]): FolderNode[] {
  const byPath = new Map<string, MutableNode>();
  const roots: MutableNode[] = [];

  const ensure = (path: string): MutableNode => {
    const existing = byPath.get(path);
    if (existing) return existing;
    const slash = path.lastIndexOf('/');
    const node: MutableNode = {
      name: slash === -1 ? path : path.slice(slash + 1),
      path,
      noteCount: 0,
      children: [],
      reported: null,
    };
    byPath.set(path, node);
    if (slash === -1) roots.push(node);
    else ensure(path.slice(0, slash)).children.push(node);
    return node;
  };

  for (const folder of folders) {
    const path = folder.path
      .split('/')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .join('/');
    if (path === '') continue;
    const node = ensure(path);
    node.reported = (node.reported ?? 0) + folder.note_count;
  }

  const finish = (nodes: MutableNode[]): FolderNode[] => {
    const names = (collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' }));
    nodes.sort((a, b) => names.compare(a.name, b.name));
    return nodes.map(({ name, path, reported, children }) => {
      const finished = finish(children);
      const sum = finished.reduce((total, child) => total + child.noteCount, 0);
      return { name, path, noteCount: reported ?? sum, children: finished };
    });
  };
  return finish(roots);
}

/** `a/b/c` → [`a`, `a/b`]: the folders to expand so `a/b/c` is visible. */
export function ancestorPaths(path: string): string[] {
  const parts = path.split('/').filter((part) => part !== '');
  return parts.slice(0, -1).map((_, index) => parts.slice(0, index + 1).join('/'));
}
