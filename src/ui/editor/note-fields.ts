import type { NoteDto } from '../../contracts/notes';

/** What the editor saves: the user-editable part of a note. */
export interface NoteContent {
  title: string;
  folder: string;
  tags: string[];
  body: string;
}

/** Commas (ASCII, full-width 、，) separate tags; a leading `#` is dropped; duplicates go. */
export function parseTags(text: string): string[] {
  const tags: string[] = [];
  for (const raw of text.split(/[,，、]/)) {
    const tag = raw.trim().replace(/^#/, '').trim();
    if (tag !== '' && !tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

export function formatTags(tags: readonly string[]): string {
  return tags.join(', ');
}

/** Same normalisation as the contract's folder schema: trimmed segments, no empty ones. */
export function normalizeFolder(text: string): string {
  return text
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .join('/');
}

export function contentOf(note: Pick<NoteDto, 'title' | 'folder' | 'tags' | 'body'>): NoteContent {
  return { title: note.title, folder: note.folder, tags: [...note.tags], body: note.body };
}

export function sameContent(a: NoteContent, b: NoteContent): boolean {
  return (
    a.title === b.title &&
    a.folder === b.folder &&
    a.body === b.body &&
    a.tags.length === b.tags.length &&
    a.tags.every((tag, index) => tag === b.tags[index])
  );
}
