import { tick } from 'svelte';
import { SvelteSet } from 'svelte/reactivity';
import type { FolderDto, ListNotesInput, NoteSort, NoteSummaryDto, TagDto } from '../../contracts/notes';
import { buildFolderTree, type FolderNode } from './folder-tree';
import { holes, pagesOf, refreshedInPlace, rowsFromPages, withPage, type NoteRows } from './note-pages';

export type NotesView = 'notes' | 'trash';

/**
 * Where the keyboard goes once the list has what it is asked to show: a note's row, or the
 * empty list's way on ("New note", or the empty trash's own words).
 */
export type ListFocus = { kind: 'row'; noteId: string } | { kind: 'empty' };

export const PAGE_SIZE = 100;

/** The note list and sidebar: what is shown, and the filters that chose it. */
export class NotesState {
  #view = $state<NotesView>('notes');
  #folder = $state<string | null>(null);
  #tag = $state<string | null>(null);
  #titleQuery = $state('');
  #sort = $state<NoteSort>('updated_at');
  #rows = $state.raw<NoteRows>([]);
  #total = $state(0);
  #loading = $state(false);
  /**
   * Whether the notebook has answered the first list: before, a total of 0 says nothing,
   * so the list shows that it is loading, not an empty notebook. `failed`: it could not be read.
   */
  #firstList = $state<'waiting' | 'listed' | 'failed'>('waiting');
  #orderStale = $state(false);
  #toTop = $state(0);
  /** Counts whole-list replacements: a page asked for under an older order does not fit the new one. */
  #generation = 0;
  /**
   * Row indexes the list has on screen (a few screens at most), kept by the
   * rows themselves. Not reactive: nothing renders from it, and scrolling
   * must not re-run effects.
   */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #mounted = new Set<number>();
  #folders = $state.raw<FolderDto[]>([]);
  #tags = $state.raw<TagDto[]>([]);
  readonly #collapsed = new SvelteSet<string>();
  #focusRequest = $state.raw<ListFocus | null>(null);
  #announcement = $state('');
  /** The open note's tags as the tag list counts them: its own and its inline `#tags`. */
  #openNoteTags = $state.raw<{ noteId: string; tags: readonly string[] } | null>(null);

  readonly folderTree: FolderNode[] = $derived(buildFolderTree(this.#folders));
  readonly filtered: boolean = $derived(
    this.#folder !== null || this.#tag !== null || this.#titleQuery.trim() !== '',
  );

  get view(): NotesView {
    return this.#view;
  }
  get folder(): string | null {
    return this.#folder;
  }
  get tag(): string | null {
    return this.#tag;
  }
  get sort(): NoteSort {
    return this.#sort;
  }
  get titleQuery(): string {
    return this.#titleQuery;
  }
  /** One slot per note of the list in order; a slot is empty until its page has arrived. */
  get items(): NoteRows {
    return this.#rows;
  }
  get total(): number {
    return this.#total;
  }
  get loading(): boolean {
    return this.#loading;
  }
  /** Until the first list has arrived, the count and the empty notebook's words would be untrue. */
  get firstList(): 'waiting' | 'listed' | 'failed' {
    return this.#firstList;
  }
  /** Saves of the open note changed the order the notebook sorts into; the rows stay where they were. */
  get orderStale(): boolean {
    return this.#orderStale;
  }
  /** Changes each time the list should scroll back to its first row. */
  get toTop(): number {
    return this.#toTop;
  }
  get generation(): number {
    return this.#generation;
  }
  get folders(): readonly FolderDto[] {
    return this.#folders;
  }
  get tags(): readonly TagDto[] {
    return this.#tags;
  }

  /** The list query for the current view and filters. */
  query(page = 0): ListNotesInput {
    const offset = page * PAGE_SIZE;
    const title = this.#titleQuery.trim();
    const query: ListNotesInput = {
      trashed: this.#view === 'trash',
      limit: PAGE_SIZE,
      offset,
      sort: this.#sort,
    };
    if (title !== '') query.title_query = title;
    if (this.#view === 'notes') {
      if (this.#folder !== null) Object.assign(query, { folder: this.#folder, recursive: true });
      if (this.#tag !== null) query.tag = this.#tag;
    }
    return query;
  }

  /** Asked for by the note pane (after a note left the list); the list takes it once it can. */
  get focusRequest(): ListFocus | null {
    return this.#focusRequest;
  }
  requestFocus(focus: ListFocus): void {
    this.#focusRequest = focus;
  }
  focusTaken(): void {
    this.#focusRequest = null;
  }

  /** What the list's status region says (a screen reader reads it out). */
  get announcement(): string {
    return this.#announcement;
  }
  /** Emptied first: the same words said twice are read twice. */
  async announce(text: string): Promise<void> {
    this.#announcement = '';
    await tick();
    this.#announcement = text;
  }

  isCollapsed(path: string): boolean {
    return this.#collapsed.has(path);
  }

  setView(view: NotesView): void {
    this.#view = view;
    if (view === 'trash') {
      this.#folder = null;
      this.#tag = null;
    }
  }

  setFolder(folder: string | null): void {
    this.#folder = folder;
    if (folder !== null) this.revealFolder(folder);
  }

  /** Expands the folders around `folder`, so its row is in the tree. */
  revealFolder(folder: string): void {
    for (const path of this.#collapsed) if (folder.startsWith(`${path}/`)) this.#collapsed.delete(path);
  }

  setTag(tag: string | null): void {
    this.#tag = tag;
  }

  setSort(sort: NoteSort): void {
    this.#sort = sort;
  }

  setTitleQuery(query: string): void {
    this.#titleQuery = query;
  }

  setLoading(loading: boolean): void {
    this.#loading = loading;
    // A load that ended without a list (an error, already reported): say so instead of "loading" for good.
    if (!loading && this.#firstList === 'waiting') this.#firstList = 'failed';
  }

  /** The list in the notebook's current order: these pages, every other row to be fetched. */
  replace(pages: ReadonlyMap<number, readonly NoteSummaryDto[]>, total: number): void {
    this.#generation += 1;
    this.#rows = rowsFromPages(pages, total, PAGE_SIZE);
    this.#total = total;
    this.#orderStale = false;
    this.#firstList = 'listed';
  }

  /** A page that arrived for the list of `generation`; false when the list was replaced since. */
  fillPage(page: number, items: readonly NoteSummaryDto[], generation: number): boolean {
    if (generation !== this.#generation) return false;
    this.#rows = withPage(this.#rows, page, items, PAGE_SIZE);
    return true;
  }

  /** Newer copies of shown notes, each kept in its row; `moved`: the notebook would now order them otherwise. */
  refreshInPlace(fresh: ReadonlyMap<string, NoteSummaryDto>, moved: boolean): void {
    this.#rows = refreshedInPlace(this.#rows, fresh);
    if (moved) this.#orderStale = true;
  }

  requestTop(): void {
    this.#toTop += 1;
  }

  rowMounted(index: number): void {
    this.#mounted.add(index);
  }
  rowUnmounted(index: number): void {
    this.#mounted.delete(index);
  }
  /** The pages behind the rows on screen, and the first page. */
  pagesOnScreen(): number[] {
    return pagesOf(this.#mounted, PAGE_SIZE).filter((page) => page === 0 || page * PAGE_SIZE < this.#total);
  }
  /** Rows on screen still waiting for their page. */
  holesOnScreen(): number[] {
    return holes(this.#rows, this.#mounted);
  }

  setSidebar(folders: FolderDto[], tags: TagDto[]): void {
    this.#folders = folders;
    this.#tags = tags;
  }

  /** The tags the tag list counts for `noteId` (its own and its inline ones), once the core said. */
  openNoteTags(noteId: string): readonly string[] | null {
    return this.#openNoteTags?.noteId === noteId ? this.#openNoteTags.tags : null;
  }
  setOpenNoteTags(noteId: string, tags: readonly string[]): void {
    this.#openNoteTags = { noteId, tags };
  }

  toggleCollapsed(path: string): void {
    if (this.#collapsed.has(path)) this.#collapsed.delete(path);
    else this.#collapsed.add(path);
  }

  reset(): void {
    this.#view = 'notes';
    this.#folder = null;
    this.#tag = null;
    this.#titleQuery = '';
    this.#sort = 'updated_at';
    this.#rows = [];
    this.#total = 0;
    this.#loading = false;
    this.#firstList = 'waiting';
    this.#orderStale = false;
    this.#generation += 1;
    this.#mounted.clear();
    this.#folders = [];
    this.#tags = [];
    this.#collapsed.clear();
    this.#openNoteTags = null;
    this.#focusRequest = null;
    this.#announcement = '';
  }
}

export const notes = new NotesState();
