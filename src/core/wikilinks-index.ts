import { linkKey, parseWikilinks } from './wikilinks';

export interface IndexedNote {
  note_id: string;
  title: string;
  body: string;
  created_at: string;
}

export interface LinkedNote {
  note_id: string;
  title: string;
}

export interface Backlink extends LinkedNote {
  /** The line the first link to the note is on, for the backlinks panel. */
  context: string;
}

interface Entry {
  note_id: string;
  title: string;
  key: string;
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
 * link jump between notes as they are edited.
 */
export class LinkIndex {
  readonly #entries = new Map<string, Entry>();
  /** Title key → ids of the notes with that title. */
  readonly #byTitle = new Map<string, Set<string>>();

  get size(): number {
    return this.#entries.size;
  }

  has(noteId: string): boolean {
    return this.#entries.has(noteId);
  }

  set(note: IndexedNote): void {
    this.remove(note.note_id);
    const links = new Map<string, string>();
    for (const link of parseWikilinks(note.body)) {
      // `[[#Heading]]` stays within the note: no other note is linked.
      if (link.target === '') continue;
      const key = linkKey(link.target);
      if (!links.has(key)) links.set(key, contextOf(note.body, link.start));
    }
    const key = linkKey(note.title);
    this.#entries.set(note.note_id, {
      note_id: note.note_id,
      title: note.title,
      key,
      created_at: note.created_at,
      links,
    });
    if (key === '') return;
    const ids = this.#byTitle.get(key) ?? new Set<string>();
    ids.add(note.note_id);
    this.#byTitle.set(key, ids);
  }

  remove(noteId: string): void {
    const entry = this.#entries.get(noteId);
    if (!entry) return;
    this.#entries.delete(noteId);
    const ids = this.#byTitle.get(entry.key);
    ids?.delete(noteId);
    if (ids?.size === 0) this.#byTitle.delete(entry.key);
  }

  clear(): void {
    this.#entries.clear();
    this.#byTitle.clear();
  }

  /** The note a link to `title` opens, if any. */
  resolve(title: string): LinkedNote | undefined {
    const ids = this.#byTitle.get(linkKey(title));
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

  /** Notes whose links resolve to `noteId`, by title. */
  backlinks(noteId: string): Backlink[] {
    const target = this.#entries.get(noteId);
    if (!target || target.key === '' || this.resolve(target.title)?.note_id !== noteId) return [];
    return this.linkingTo(target.key)
      .filter((entry) => entry.note_id !== noteId)
      .map((entry) => ({ note_id: entry.note_id, title: entry.title, context: entry.links.get(target.key)! }))
      .sort((a, b) => a.title.localeCompare(b.title) || a.note_id.localeCompare(b.note_id));
  }

  /** Ids of the notes with a link to this title, whatever it resolves to. */
  linkingTo(titleOrKey: string): Array<{ note_id: string; title: string; links: Map<string, string> }> {
    const key = linkKey(titleOrKey);
    return [...this.#entries.values()].filter((entry) => entry.links.has(key));
  }

  /**
   * Titles for `[[` completion: those starting with the query first, then
   * those containing it; one entry per title, the note it resolves to.
   */
  suggest(query: string, limit: number): LinkedNote[] {
    const key = linkKey(query);
    const starts: LinkedNote[] = [];
    const contains: LinkedNote[] = [];
    for (const [titleKey] of this.#byTitle) {
      const at = titleKey.indexOf(key);
      if (at === -1) continue;
      const note = this.resolve(titleKey)!;
      (at === 0 ? starts : contains).push(note);
    }
    const byTitle = (a: LinkedNote, b: LinkedNote) => a.title.localeCompare(b.title);
    return [...starts.sort(byTitle), ...contains.sort(byTitle)].slice(0, limit);
  }
}
