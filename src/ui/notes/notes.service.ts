import { core } from '../api/core-client';
import { reportError } from '../errors';
import { navigate } from '../navigation';
import { notesRoute } from '../router';
import { refreshSearch } from '../search/search.service';
import type { NoteDto, NoteSummaryDto } from '../../contracts/notes';
import { sameTag } from '../../core/tag-key';
import { editor } from '../editor/editor.svelte';
import { orderDiffers } from './note-pages';
import { notes, PAGE_SIZE } from './notes.svelte';

const FILTER_DEBOUNCE_MS = 150;
const REFRESH_DEBOUNCE_MS = 250;

let listRequest = 0;
let sidebarRequest = 0;
let filterTimer: ReturnType<typeof setTimeout> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
/** Pages asked for, each with the list generation it was asked for in. */
const pageRequests = new Map<number, number>();

async function fetchPages(
  pages: readonly number[],
): Promise<{ pages: Map<number, NoteSummaryDto[]>; total: number }> {
  const results = await Promise.all(pages.map((page) => core.notes.list(notes.query(page))));
  return {
    pages: new Map(pages.map((page, index) => [page, results[index]!.items])),
    total: results[0]!.page.total,
  };
}

/**
 * Reloads the note list in the notebook's order for the current view and
 * filters: the first page and the pages on screen, the rest as it scrolls into
 * view. `top`: a new list (another filter or sort), shown from its first row.
 * A newer request wins over a slower older one.
 */
export async function refreshList(options: { top?: boolean } = {}): Promise<void> {
  const request = ++listRequest;
  notes.setLoading(true);
  if (options.top) notes.requestTop();
  try {
    const { pages, total } = await fetchPages(options.top ? [0] : notes.pagesOnScreen());
    if (request !== listRequest) return;
    notes.replace(pages, total);
    pageRequests.clear();
    fillRowsOnScreen();
  } catch (error) {
    if (request === listRequest) reportError(error);
  } finally {
    if (request === listRequest) notes.setLoading(false);
  }
}

/** A row came on screen without its note: its page is fetched once per list. */
export function requestRow(index: number): void {
  const page = Math.floor(index / PAGE_SIZE);
  const generation = notes.generation;
  if (pageRequests.get(page) === generation) return;
  pageRequests.set(page, generation);
  // The notebook's order changed under a held one: the rows still to come are
  // fetched in the new order, so the list takes it now rather than mix the two.
  if (notes.orderStale) {
    void refreshList();
    return;
  }
  core.notes
    .list(notes.query(page))
    .then((result) => {
      if (result.page.total !== notes.total && generation === notes.generation) {
        // Notes came or went meanwhile (another tab, an import): the whole list again.
        void refreshList();
        return;
      }
      if (!notes.fillPage(page, result.items, generation)) fillRowsOnScreen();
    })
    .catch((error: unknown) => {
      if (pageRequests.get(page) === generation) pageRequests.delete(page);
      reportError(error);
    });
}

function fillRowsOnScreen(): void {
  for (const index of notes.holesOnScreen()) requestRow(index);
}

/**
 * After the open note was saved: each row shows its note's new title, excerpt
 * and time, but no row moves while the user may be reading or pointing at the
 * list. The new order is taken when the list is next refreshed or shown.
 */
async function refreshRowsInPlace(sidebar: boolean): Promise<void> {
  if (sidebar) void refreshSidebar();
  else
    void openNoteTagsChanged().then((changed) => {
      if (changed) void refreshSidebar();
    });
  const request = listRequest;
  inPlaceRefreshes += 1;
  try {
    const { pages, total } = await fetchPages(notes.pagesOnScreen());
    if (request !== listRequest) return;
    if (total !== notes.total) {
      // The note left or joined the filtered list (a new title, folder or tag): not just a move.
      await refreshList();
      return;
    }
    const fresh = new Map<string, NoteSummaryDto>();
    for (const items of pages.values()) for (const item of items) fresh.set(item.note_id, item);
    const open = editor.note;
    const shown =
      open && !fresh.has(open.note_id) && notes.items.find((row) => row?.note_id === open.note_id);
    // The open note sorted away from the pages fetched (a new title): its row still says what was saved.
    if (open && shown) fresh.set(open.note_id, { ...shown, ...summaryFields(open) });
    notes.refreshInPlace(fresh, orderDiffers(notes.items, pages, PAGE_SIZE));
  } catch (error) {
    reportError(error);
  } finally {
    inPlaceRefreshes -= 1;
  }
}
/** In-place refreshes in flight. */
let inPlaceRefreshes = 0;

function summaryFields(note: NoteDto): Omit<NoteSummaryDto, 'excerpt'> {
  const { body, ...fields } = note;
  return { ...fields, body_length: body.length };
}

/** Takes the notebook's order now when saves left the list in an older one. */
export function applyPendingOrder(): void {
  // A save's in-place refresh still waiting (debounced or in flight) would hold the old order
  // once it lands: take the order now instead; refreshList supersedes it.
  if (!notes.orderStale && refreshTimer === null && inPlaceRefreshes === 0) return;
  if (refreshTimer !== null) {
    clearTimeout(refreshTimer);
    refreshTimer = null;
    if (refreshSidebarPending) void refreshSidebar();
    refreshSidebarPending = false;
  }
  void refreshList();
}

/**
 * The open note's tags as the tag list last counted them (its own and its
 * inline `#tags`, joined). A save that leaves the tag field alone may still add
 * or remove an inline tag in the text: the core says which tags the note has now.
 */
let countedTags: { noteId: string; tags: string } | null = null;

async function tagsOfOpenNote(): Promise<{ noteId: string; tags: string } | null> {
  const noteId = editor.noteId;
  if (!noteId) return null;
  try {
    const tags = await core.notes.tagsOf(noteId);
    notes.setOpenNoteTags(noteId, tags);
    return { noteId, tags: tags.join('\n') };
  } catch {
    // Deleted meanwhile: whatever removed it refreshes the lists.
    return null;
  }
}

/**
 * A note just opened: the sidebar marks the tags it has, inline `#tags` in its
 * text included, which its own tag list does not hold.
 */
export async function loadOpenNoteTags(): Promise<void> {
  await tagsOfOpenNote();
}

async function openNoteTagsChanged(): Promise<boolean> {
  const now = await tagsOfOpenNote();
  if (!now) return false;
  const changed = countedTags?.noteId !== now.noteId || countedTags.tags !== now.tags;
  countedTags = now;
  return changed;
}

export async function refreshSidebar(): Promise<void> {
  const request = ++sidebarRequest;
  try {
    const [folders, tags, open] = await Promise.all([
      core.notes.folders(),
      core.notes.tags(),
      tagsOfOpenNote(),
    ]);
    if (open) countedTags = open;
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

/** Coalesces the refreshes that follow autosaves into one; rows are updated where they are. */
export function scheduleRefresh(options: { sidebar: boolean }): void {
  if (refreshTimer !== null) clearTimeout(refreshTimer);
  const sidebar = options.sidebar || refreshSidebarPending;
  refreshSidebarPending = sidebar;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    refreshSidebarPending = false;
    void refreshRowsInPlace(sidebar);
  }, REFRESH_DEBOUNCE_MS);
}
let refreshSidebarPending = false;

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
  showList({
    folder: inNotes ? notes.folder : null,
    tag: inNotes && notes.tag !== null && sameTag(notes.tag, tag) ? null : tag,
  });
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
    void refreshList({ top: true });
  }, FILTER_DEBOUNCE_MS);
}
