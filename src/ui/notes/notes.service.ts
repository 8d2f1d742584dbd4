import { core } from '../api/core-client';
import { reportError } from '../errors';
import { navigate } from '../navigation';
import { notesRoute } from '../router';
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

/** The notebook's list, keeping the open note in the address on wide screens. */
function showList(fields: { folder?: string | null; tag?: string | null }): void {
  navigate(notesRoute({ folder: fields.folder ?? null, tag: fields.tag ?? null }));
}

export function showAllNotes(): void {
  showList({});
}

export function showTrash(): void {
  navigate({ view: 'trash', noteId: null });
}

/** Selecting the active folder again clears the folder filter. */
export function selectFolder(path: string): void {
  const inNotes = notes.view === 'notes';
  showList({ folder: inNotes && notes.folder === path ? null : path, tag: inNotes ? notes.tag : null });
}

export function selectTag(tag: string): void {
  const inNotes = notes.view === 'notes';
  showList({ folder: inNotes ? notes.folder : null, tag: inNotes && notes.tag === tag ? null : tag });
}

export function clearFolderFilter(): void {
  showList({ tag: notes.tag });
}

export function clearTagFilter(): void {
  showList({ folder: notes.folder });
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
