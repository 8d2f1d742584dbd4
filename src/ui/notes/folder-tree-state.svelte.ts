import type { FolderNode } from './folder-tree';
import { visibleFolderRows, type FolderRow } from './folder-tree-keys';
import { notes } from './notes.svelte';

/**
 * What the levels of one folder tree share: the row the keyboard is on (the
 * tree's one Tab stop, a roving tabindex) and the folder being renamed.
 */
export class FolderTreeState {
  /** The row last focused; its row keeps the Tab stop while it is shown. */
  active = $state<string | null>(null);
  /** The folder being renamed, and the path typed for it. */
  renaming = $state<string | null>(null);
  draft = $state('');

  readonly rows: FolderRow[];
  /**
   * The row Tab lands on: the one last focused, else the open folder, else the
   * first. Exactly one row, so the tree is one Tab stop however many folders it has.
   */
  readonly tabStop: string | null;

  constructor(nodes: () => readonly FolderNode[]) {
    this.rows = $derived(visibleFolderRows(nodes(), (path) => notes.isCollapsed(path)));
    this.tabStop = $derived.by(() => {
      const shown = (path: string | null) => path !== null && this.rows.some((row) => row.path === path);
      if (shown(this.active)) return this.active;
      const open = notes.view === 'notes' ? notes.folder : null;
      if (shown(open)) return open;
      return this.rows[0]?.path ?? null;
    });
  }

  startRename(path: string): void {
    this.renaming = path;
    this.draft = path;
  }
}
