import { stripObsidianComments } from './markdown/obsidian-comments';
import { linkKey, namesTitle, parseWikilinks } from './wikilinks';
import { parseMarkdownNoteLinks } from './wikilinks-markdown';
import { noteAliases } from './wikilinks-aliases';
import { folderRank, linkPath, type LinkPath } from './wikilinks-paths';

export interface IndexedNote {
  note_id: string;
  title: string;
  /** `/`-separated, '' the top: what `[[folder/Title]]` links are matched against. */
  folder?: string;
  body: string;
  created_at: string;
}

export interface LinkedNote {
  note_id: string;
  title: string;
}

/** A `[[` completion: a note by its title, or by one of its aliases (`alias` as written; null for the title). */
export interface LinkSuggestion extends LinkedNote {
  alias: string | null;
}

export interface Backlink extends LinkedNote {
  /** The line the first link to the note is on, for the backlinks panel. */
  context: string;
}

interface Entry {
  note_id: string;
  title: string;
  key: string;
  folder: string;
  /** Keys of the note's aliases (front matter `aliases:`), its own title's left out. */
  aliasKeys: string[];
  /** Alias key → the alias as first written, for completion to show and insert. */
  aliasNames: Map<string, string>;
  created_at: string;
  /** Link key → the line of its first occurrence. */
  links: Map<string, string>;
}

const CONTEXT_LENGTH = 160;

function contextOf(body: string, start: number): string {
  const lineStart = body.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = body.indexOf('\n', start);
  const line = body.slice(lineStart, lineEnd === -1 ? body.length : lineEnd).trim();
  return line.length > CONTEXT_LENGTH ? `${line.slice(0, CONTEXT_LENGTH)}…` : line;
}

/**
 * Which notes link to which titles. A title resolves to the oldest live
 * note with that title (compared by `linkKey`), so duplicates never make a
 * link jump between notes as they are edited. A title no note has resolves,
 * the same way, to the oldest note with that alias (Obsidian's `aliases:`):
 * a real title always wins over an alias. A path (`[[folder/Title]]`,
 * `[[Title.md]]`, see linkPath) resolves first to a note with that title in a
 * folder the path names (the closest by folderRank, then the oldest); one that
 * names no such note is read as a title, as before paths were known.
 */
export class LinkIndex {
  readonly #entries = new Map<string, Entry>();
  /** Title key → ids of the notes with that title. */
  readonly #byTitle = new Map<string, Set<string>>();
  /** Alias key → ids of the notes with that alias. */
  readonly #byAlias = new Map<string, Set<string>>();

  get size(): number {
    return this.#entries.size;
  }

  has(noteId: string): boolean {
    return this.#entries.has(noteId);
  }

  set(note: IndexedNote): void {
    this.remove(note.note_id);
    const links = new Map<string, string>();
    // A link in a comment links nothing, and a backlink's context never quotes a comment.
    const body = stripObsidianComments(note.body);
    for (const link of parseWikilinks(body)) {
      // `[[#Heading]]` stays within the note: no other note is linked.
      if (link.target === '') continue;
      const key = linkKey(link.target);
      if (!links.has(key)) links.set(key, contextOf(body, link.start));
    }
    // A Markdown link to a note (`[text](Note.md)`) links it as `[[Note.md]]` does.
    for (const link of parseMarkdownNoteLinks(body)) {
      const key = linkKey(link.target);
      if (!links.has(key)) links.set(key, contextOf(body, link.start));
    }
    const key = linkKey(note.title);
    const aliasNames = new Map<string, string>();
    for (const alias of noteAliases(note.body)) {
      const aliasKey = linkKey(alias);
      if (aliasKey !== '' && aliasKey !== key && !aliasNames.has(aliasKey)) aliasNames.set(aliasKey, alias);
    }
    const aliasKeys = [...aliasNames.keys()];
    this.#entries.set(note.note_id, {
      note_id: note.note_id,
      title: note.title,
      key,
      folder: note.folder ?? '',
      aliasKeys,
      aliasNames,
      created_at: note.created_at,
      links,
    });
    for (const alias of aliasKeys) addTo(this.#byAlias, alias, note.note_id);
    if (key !== '') addTo(this.#byTitle, key, note.note_id);
  }

  remove(noteId: string): void {
    const entry = this.#entries.get(noteId);
    if (!entry) return;
    this.#entries.delete(noteId);
    removeFrom(this.#byTitle, entry.key, noteId);
    for (const alias of entry.aliasKeys) removeFrom(this.#byAlias, alias, noteId);
  }

  clear(): void {
    this.#entries.clear();
    this.#byTitle.clear();
    this.#byAlias.clear();
  }

  /**
   * The note a link to `title` opens, if any: by path, else by title, else by
   * alias. `placed` puts some notes in other folders (note id → folder): where
   * they were before a move, to know what a link opened then.
   */
  resolve(title: string, placed?: ReadonlyMap<string, string>): LinkedNote | undefined {
    const path = linkPath(title);
    // `[[Title.md]]` names no folder: a note whose title ends in `.md` comes first.
    const byPath = path === null || path.folders.length === 0 ? undefined : this.#inFolder(path, placed);
    const key = linkKey(title);
    return (
      byPath ??
      this.#oldest(this.#byTitle.get(key)) ??
      this.#oldest(this.#byAlias.get(key)) ??
      (path === null ? undefined : this.#inFolder(path, placed))
    );
  }

  /** The note a path names: its title in the closest folder the path names, the oldest of equals. */
  #inFolder(path: LinkPath, placed?: ReadonlyMap<string, string>): LinkedNote | undefined {
    const ids = this.#byTitle.get(linkKey(path.title));
    if (!ids) return undefined;
    let bestRank = Infinity;
    let closest = new Set<string>();
    for (const id of ids) {
      const rank = folderRank(path.folders, placed?.get(id) ?? this.#entries.get(id)!.folder);
      if (rank === null || rank > bestRank) continue;
      if (rank < bestRank) closest = new Set();
      bestRank = rank;
      closest.add(id);
    }
    return this.#oldest(closest.size === 0 ? undefined : closest);
  }

  /** Whether a note other than `noteId` has the title a path names in a folder the path names (any folderRank). */
  pathNamesAnother(target: string, noteId: string): boolean {
    const path = linkPath(target);
    if (path === null || path.folders.length === 0) return false;
    const ids = this.#byTitle.get(linkKey(path.title)) ?? new Set<string>();
    return [...ids].some(
      (id) => id !== noteId && folderRank(path.folders, this.#entries.get(id)!.folder) !== null,
    );
  }

  #oldest(ids: Set<string> | undefined): LinkedNote | undefined {
    if (!ids) return undefined;
    let best: Entry | undefined;
    for (const id of ids) {
      const entry = this.#entries.get(id)!;
      if (
        !best ||
        entry.created_at < best.created_at ||
        (entry.created_at === best.created_at && id < best.note_id)
      ) {
        best = entry;
      }
    }
    return best && { note_id: best.note_id, title: best.title };
  }

  /** Notes whose links resolve to `noteId`, by title, by alias or by path. */
  backlinks(noteId: string): Backlink[] {
    const target = this.#entries.get(noteId);
    if (!target) return [];
    // The names that open this note: its title and aliases no other note's title (or older alias) takes.
    const keys = [target.key, ...target.aliasKeys].filter(
      (key) => key !== '' && this.resolve(key)?.note_id === noteId,
    );
    // Paths ending in its title open it where its folder is the closest they name.
    const opens = (key: string) =>
      keys.includes(key) ||
      (target.key !== '' &&
        linkPath(key) !== null &&
        namesTitle(key, target.key) &&
        this.resolve(key)?.note_id === noteId);
    return [...this.#entries.values()]
      .filter((entry) => entry.note_id !== noteId)
      .flatMap((entry) => {
        const key = keys.find((name) => entry.links.has(name)) ?? [...entry.links.keys()].find(opens);
        return key === undefined
          ? []
          : [{ note_id: entry.note_id, title: entry.title, context: entry.links.get(key)! }];
      })
      .sort((a, b) => a.title.localeCompare(b.title) || a.note_id.localeCompare(b.note_id));
  }

  /** The notes with a link to this title, plain or as a path's last part, whatever it resolves to. */
  linkingTo(titleOrKey: string): Array<{ note_id: string; title: string; links: Map<string, string> }> {
    const key = linkKey(titleOrKey);
    return [...this.#entries.values()].filter(
      (entry) => entry.links.has(key) || [...entry.links.keys()].some((link) => namesTitle(link, key)),
    );
  }

  /**
   * Names for `[[` completion: those starting with the query first, then those
   * containing it. Each title once, as the note it resolves to; each alias that
   * opens a note (no note has it as its title) once, as that note with the alias,
   * so the link can be written `[[Title|alias]]` as Obsidian writes it.
   */
  suggest(query: string, limit: number): LinkSuggestion[] {
    const key = linkKey(query);
    const starts: Array<{ name: string; item: LinkSuggestion }> = [];
    const contains: Array<{ name: string; item: LinkSuggestion }> = [];
    const offer = (nameKey: string, name: string, item: LinkSuggestion) => {
      const at = nameKey.indexOf(key);
      if (at !== -1) (at === 0 ? starts : contains).push({ name, item });
    };
    for (const [titleKey] of this.#byTitle) {
      const note = this.resolve(titleKey)!;
      offer(titleKey, note.title, { ...note, alias: null });
    }
    for (const [aliasKey] of this.#byAlias) {
      if (this.#byTitle.has(aliasKey)) continue;
      const note = this.resolve(aliasKey)!;
      const alias = this.#entries.get(note.note_id)!.aliasNames.get(aliasKey)!;
      offer(aliasKey, alias, { ...note, alias });
    }
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    return [...starts.sort(byName), ...contains.sort(byName)].slice(0, limit).map(({ item }) => item);
  }
}

function addTo(map: Map<string, Set<string>>, key: string, noteId: string): void {
  const ids = map.get(key) ?? new Set<string>();
  ids.add(noteId);
  map.set(key, ids);
}

function removeFrom(map: Map<string, Set<string>>, key: string, noteId: string): void {
  const ids = map.get(key);
  ids?.delete(noteId);
  if (ids?.size === 0) map.delete(key);
}
