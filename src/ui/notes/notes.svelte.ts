import { SvelteSet } from 'svelte/reactivity';
import type { FolderDto, ListNotesInput, NoteSort, NoteSummaryDto, TagDto } from '../../contracts/notes';
import { buildFolderTree, type FolderNode } from './folder-tree';

export type NotesView = 'notes' | 'trash';

export const PAGE_SIZE = 100;

/** The note list and sidebar: what is shown, and the filters that chose it. */
export class NotesState {
  #view = $state<NotesView>('notes');
  #folder = $state<string | null>(null);
  #tag = $state<string | null>(null);
  #titleQuery = $state('');
  #sort = $state<NoteSort>('updated_at');
  #items = $state.raw<NoteSummaryDto[]>([]);
  #total = $state(0);
  #loading = $state(false);
  #folders = $state.raw<FolderDto[]>([]);
  #tags = $state.raw<TagDto[]>([]);
  readonly #collapsed = new SvelteSet<string>();

  readonly folderTree: FolderNode[] = $derived(buildFolderTree(this.#folders));
  readonly hasMore: boolean = $derived(this.#items.length < this.#total);
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
  get items(): readonly NoteSummaryDto[] {
    return this.#items;
  }
  get total(): number {
    return this.#total;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get folders(): readonly FolderDto[] {
    return this.#folders;
  }
  get tags(): readonly TagDto[] {
    return this.#tags;
  }

  /** The list query for the current view and filters. */
  query(offset = 0): ListNotesInput {
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
    for (const path of this.#collapsed) if (folder?.startsWith(`${path}/`)) this.#collapsed.delete(path);
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
  }

  setPage(items: NoteSummaryDto[], total: number, append: boolean): void {
    if (append) {
      const known = this.#items.map((item) => item.note_id);
      this.#items = [...this.#items, ...items.filter((item) => !known.includes(item.note_id))];
    } else {
      this.#items = items;
    }
    this.#total = total;
  }

  setSidebar(folders: FolderDto[], tags: TagDto[]): void {
    this.#folders = folders;
    this.#tags = tags;
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
    this.#items = [];
    this.#total = 0;
    this.#loading = false;
    this.#folders = [];
    this.#tags = [];
    this.#collapsed.clear();
  }
}

export const notes = new NotesState();
