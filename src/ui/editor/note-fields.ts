import type { NoteDto } from '../../contracts/notes';
import { tagKey } from '../../core/tag-key';
import { sameTags } from '../../core/tag-lists';

/** What the editor saves: the user-editable part of a note. */
export interface NoteContent {
  title: string;
  folder: string;
  tags: string[];
  body: string;
}

/** A double-quoted tag (kept whole) or a run up to the next comma or space. */
const TAG_TOKEN = /"([^"]*)"|([^\s,，、"][^\s,，、]*)/gu;
const NEEDS_QUOTES = /[\s,，、]/u;

/**
 * Commas (ASCII, full-width 、，) and spaces separate tags, as in Obsidian, where a tag has no
 * spaces: `会议 #周会` is two tags, not one that reads as two. A leading `#` is dropped; duplicates
 * go. A tag stored with a space (from before, or an import) is shown in double quotes by
 * formatTags and kept whole here, so opening such a note does not split it unasked. Tags are one
 * tag whatever their case (tagKey), so `Work, work` keeps the first spelling only.
 */
export function parseTags(text: string): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const [, quoted, plain] of text.matchAll(TAG_TOKEN)) {
    const tag = quoted?.trim() ?? (plain ?? '').replace(/^#/, '');
    const key = tagKey(tag);
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags;
}

export function formatTags(tags: readonly string[]): string {
  return tags.map((tag) => (NEEDS_QUOTES.test(tag) && !tag.includes('"') ? `"${tag}"` : tag)).join(', ');
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
  return a.title === b.title && a.folder === b.folder && a.body === b.body && sameTags(a.tags, b.tags);
}

/** Above this many characters a note is edited in a plain editor; the preview comes on demand. */
export const PLAIN_EDITOR_CHARS = 256 * 1024;

/**
 * A body this long gets the plain editor: no live preview, which would
 * re-parse the whole text after every keystroke.
 */
export function isLargeBody(body: string): boolean {
  return body.length > PLAIN_EDITOR_CHARS;
}

/** Lines up to this long still read well without soft wrap (scrolled sideways). */
export const UNWRAPPED_LINE_CHARS = 1000;

/**
 * Whether a large body is better shown without soft wrap: the browser's line
 * breaking of a textarea costs seconds per layout at megabytes of text (on
 * opening, and again whenever the pane's width changes). A body with a very
 * long line keeps soft wrap: one unwrapped line of megabytes is slower still.
 */
export function fitsUnwrapped(body: string, maxLine = UNWRAPPED_LINE_CHARS): boolean {
  let start = 0;
  while (start <= body.length) {
    const end = body.indexOf('\n', start);
    const stop = end < 0 ? body.length : end;
    if (stop - start > maxLine) return false;
    if (end < 0) return true;
    start = end + 1;
  }
  return true;
}
