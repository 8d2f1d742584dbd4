import { core } from '../api/core-client';
import { reportError } from '../errors';
import { layout } from '../layout.svelte';
import { refreshSearch } from '../search/search.service';
import { notes } from './notes.svelte';

const FILTER_DEBOUNCE_MS = 150;
const REFRESH_DEBOUNCE_MS = 250;

let listRequest = 0;
let sidebarRequest = 0;
let filterTimer: ReturnType<typeof setTimeout> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;

/** Reloads the note list for the current view and filters; a newer request wins over a slower older one. */
export async function refreshList(options: { append?: boolean } = {}): Promise<void> {
  const append = options.append ?? false;
  const request = ++listRequest;
  notes.setLoading(true);
  try {
    const page = await core.notes.list(notes.query(append ? notes.items.length : 0));
    if (request !== listRequest) return;
    notes.setPage(page.items, page.page.total, append);
  } catch (error) {
    if (request === listRequest) reportError(error);
  } finally {
    if (request === listRequest) notes.setLoading(false);
  }
}

export async function refreshSidebar(): Promise<void> {
  const request = ++sidebarRequest;
  try {
    const [folders, tags] = await Promise.all([core.notes.folders(), core.notes.tags()]);
    if (request === sidebarRequest) notes.setSidebar(folders, tags);
  } catch (error) {
    if (request === sidebarRequest) reportError(error);
  }
}

/** After a note was created, trashed, restored, deleted or imported: the lists and a shown search. */
export async function refreshAll(): Promise<void> {
  refreshSearch();
  await Promise.all([refreshList(), refreshSidebar()]);
}

/** Coalesces the refreshes that follow autosaves into one. */
export function scheduleRefresh(options: { sidebar: boolean }): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  const sidebar = options.sidebar;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void refreshList();
    if (sidebar) void refreshSidebar();
  }, REFRESH_DEBOUNCE_MS);
}

function afterNavigation(): void {
  layout.setSidebarOpen(false);
  layout.showPane('list');
  void refreshList();
  // The sidebar selection is the search's folder and tag filter.
  refreshSearch();
}

export function showAllNotes(): void {
  notes.setView('notes');
  notes.setFolder(null);
  notes.setTag(null);
  afterNavigation();
}

export function showTrash(): void {
  notes.setView('trash');
  afterNavigation();
}

/** Selecting the active folder again clears the folder filter. */
export function selectFolder(path: string): void {
  notes.setView('notes');
  notes.setFolder(notes.folder === path ? null : path);
  afterNavigation();
}

export function selectTag(tag: string): void {
  notes.setView('notes');
  notes.setTag(notes.tag === tag ? null : tag);
  afterNavigation();
}

export function clearFolderFilter(): void {
  notes.setFolder(null);
  void refreshList();
  refreshSearch();
}

export function clearTagFilter(): void {
  notes.setTag(null);
  void refreshList();
  refreshSearch();
}

/** Search as you type, debounced a little so fast typing sends one query. */
export function setTitleQuery(query: string): void {
  notes.setTitleQuery(query);
  if (filterTimer !== null) clearTimeout(filterTimer);
  filterTimer = setTimeout(() => {
    filterTimer = null;
    void refreshList();
  }, FILTER_DEBOUNCE_MS);
}

export function loadMore(): void {
  void refreshList({ append: true });
}
