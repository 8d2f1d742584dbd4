import type { FolderNode } from './folder-tree';
import { visibleFolderRows, type FolderRow } from './folder-tree-keys';
import { notes } from './notes.svelte';

/**
 * What the levels of one folder tree share: the row the keyboard is on (the
 * tree's one Tab stop, a roving tabindex), the folder being renamed and the
 * one whose context menu is open.
 */
export class FolderTreeState {
  /** The row last focused; its row keeps the Tab stop while it is shown. */
  active = $state<string | null>(null);
  /** The folder being renamed, and the path typed for it. */
  renaming = $state<string | null>(null);
  draft = $state('');
  /** The part of the path selected when the rename field opens; null: the caret at its end. */
  draftSelection = $state.raw<readonly [number, number] | null>(null);
  /** The folder whose context menu is open, and where it was asked for. */
  menu = $state.raw<{ path: string; x: number; y: number } | null>(null);

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

  startRename(path: string, selection: readonly [number, number] | null = null): void {
    this.menu = null;
    this.renaming = path;
    this.draft = path;
    this.draftSelection = selection;
  }
}
