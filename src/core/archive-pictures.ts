import { imageAltText, NOTE_IMAGE_SCHEME, noteImageId } from './note-images';

/**
 * Pictures crossing the archive boundary. A note links a stored picture as
 * `attachment:<id>`, which no other app can open; an export writes each such
 * picture as a file beside the notes and links it by a relative path, which
 * every Markdown app (Obsidian, Typora, a Git host) renders. An import does the
 * reverse: the pictures a note links by path, or by Obsidian's `![[name.png]]`,
 * are stored and linked as `attachment:` again.
 */

/** The formats a note's picture may have (the bytes decide; the name only picks candidates). */
export const PICTURE_EXTENSION = /\.(?:png|jpe?g|gif|webp)$/i;

/** The folder of an export's pictures, beside the notes' folders. */
export const EXPORT_PICTURE_FOLDER = 'attachments';

const EXTENSION_BY_TYPE: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The file extension of a stored picture's type; null for a type a note cannot show. */
export function pictureExtension(mimeType: string): string | null {
  return EXTENSION_BY_TYPE[mimeType] ?? null;
}

export function isPicturePath(path: string): boolean {
  return PICTURE_EXTENSION.test(path);
}

/** A picture link in a note's text: `![alt](target)` or Obsidian's `![[target|alt]]`. */
export interface ImageLink {
  kind: 'markdown' | 'wiki';
  /** Offsets of the whole link in the text. */
  start: number;
  end: number;
  /** As written: percent-encoding and `<…>` are undone by `linkPath`. */
  target: string;
  /** The alt text as written (Markdown), or the part after `|` (wiki). */
  alt: string;
}

// `![alt](target "title")`: the target bare or in <…>; alt without newlines or unescaped `]`.
const MARKDOWN_IMAGE =
  /!\[((?:\\.|[^\\\]\n])*)\]\(\s*(<[^>\n]*>|[^\s)]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const WIKI_IMAGE = /!\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)(?:(?!\1)[^\n]|\n(?!\s*\n))*?\1/g;

/**
 * Where code is: fenced blocks and inline code spans. A link written inside
 * code is an example, not a picture, and is never rewritten.
 */
function codeRanges(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let fence: { char: string; length: number; start: number } | null = null;
  let offset = 0;
  let proseStart = 0;
  const prose = (end: number): void => {
    const part = text.slice(proseStart, end);
    for (const match of part.matchAll(CODE_SPAN)) {
      ranges.push([proseStart + match.index, proseStart + match.index + match[0].length]);
    }
  };
  for (const line of text.split('\n')) {
    const open = FENCE.exec(line);
    if (fence === null && open) {
      prose(offset);
      fence = { char: open[1]![0]!, length: open[1]!.length, start: offset };
    } else if (fence !== null && open && open[1]![0] === fence.char && open[1]!.length >= fence.length) {
      ranges.push([fence.start, offset + line.length]);
      fence = null;
      proseStart = offset + line.length;
    }
    offset += line.length + 1;
  }
  if (fence !== null) ranges.push([fence.start, text.length]);
  else prose(text.length);
  return ranges;
}

/** Every picture link outside code, in text order. */
export function findImageLinks(text: string): ImageLink[] {
  if (!text.includes('![')) return [];
  const code = codeRanges(text);
  const inCode = (at: number): boolean => code.some(([start, end]) => at >= start && at < end);
  const links: ImageLink[] = [];
  for (const match of text.matchAll(MARKDOWN_IMAGE)) {
    if (inCode(match.index)) continue;
    links.push({
      kind: 'markdown',
      start: match.index,
      end: match.index + match[0].length,
      target: match[2]!,
      alt: match[1]!,
    });
  }
  for (const match of text.matchAll(WIKI_IMAGE)) {
    if (inCode(match.index)) continue;
    links.push({
      kind: 'wiki',
      start: match.index,
      end: match.index + match[0].length,
      target: match[1]!.trim(),
      alt: (match[2] ?? '').trim(),
    });
  }
  return links.sort((a, b) => a.start - b.start);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The file path a link names, decoded; null for a URL (`https:`, `data:`,
 * `attachment:`), an anchor, or a target that is not a picture's name.
 */
export function linkPath(link: ImageLink): string | null {
  let target = link.target;
  if (target.startsWith('<') && target.endsWith('>')) target = target.slice(1, -1);
  if (link.kind === 'markdown') {
    if (SCHEME.test(target) || target.startsWith('//') || target.startsWith('#')) return null;
    target = target.replace(/[?#].*$/, '');
    try {
      target = decodeURIComponent(target);
    } catch {
      // A stray `%` is part of the name.
    }
  }
  target = target.replace(/\\/g, '/');
  return isPicturePath(target) ? target : null;
}

/** `a/./b/../c` → `a/c`; null when `..` climbs above the top. */
function normalise(segments: readonly string[]): string | null {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(segment);
  }
  return out.join('/');
}

/**
 * The archive's picture files by path, for resolving links against. Paths are
 * '/'-separated as the archive reader gives them.
 */
export class PictureIndex {
  readonly #paths = new Set<string>();
  readonly #byName = new Map<string, string[]>();

  constructor(paths: Iterable<string>) {
    for (const path of paths) {
      this.#paths.add(path);
      const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
      const list = this.#byName.get(name);
      if (list) list.push(path);
      else this.#byName.set(name, [path]);
    }
  }

  get size(): number {
    return this.#paths.size;
  }

  /**
   * The picture a link in the note at `notePath` names: relative to the
   * note's folder first (Markdown's own meaning), then from the vault's top
   * (Obsidian's "absolute path in vault", whatever folder wraps the vault),
   * then, for a bare name, the file of that name anywhere (Obsidian's
   * "shortest path"); the shortest path where several match.
   */
  resolve(link: ImageLink, notePath: string): string | null {
    const target = linkPath(link);
    if (target === null) return null;
    const folder = notePath.split('/').slice(0, -1);
    if (link.kind === 'markdown' && !target.startsWith('/')) {
      const relative = normalise([...folder, ...target.split('/')]);
      if (relative !== null && this.#paths.has(relative)) return relative;
    }
    const fromTop = normalise(target.split('/'));
    if (fromTop === null || fromTop === '') return null;
    if (this.#paths.has(fromTop)) return fromTop;
    const name = fromTop.slice(fromTop.lastIndexOf('/') + 1).toLowerCase();
    const suffix = `/${fromTop}`.toLowerCase();
    const matches = (this.#byName.get(name) ?? []).filter((path) =>
      `/${path}`.toLowerCase().endsWith(suffix),
    );
    if (matches.length === 0) return null;
    return matches.reduce((best, path) => (path.length < best.length ? path : best));
  }
}

/** The pictures of `picturePaths` that links in the notes name. */
export function linkedPicturePaths(
  notes: ReadonlyArray<{ path: string; body: string }>,
  picturePaths: readonly string[],
): Set<string> {
  const linked = new Set<string>();
  if (picturePaths.length === 0) return linked;
  const index = new PictureIndex(picturePaths);
  for (const note of notes)
    for (const { path } of resolvedPictureLinks(note.body, note.path, index)) linked.add(path);
  return linked;
}

/** The note's picture links that name a picture of the index, with its path. */
export function resolvedPictureLinks(
  body: string,
  notePath: string,
  index: PictureIndex,
): Array<{ link: ImageLink; path: string }> {
  if (index.size === 0) return [];
  return findImageLinks(body).flatMap((link) => {
    const path = index.resolve(link, notePath);
    return path === null ? [] : [{ link, path }];
  });
}

/** Obsidian's `![[x.png|300]]` and `|300x200` give a size, not an alt text. */
const WIKI_SIZE = /^\d+(?:x\d+)?$/;
/** `![[x.png|caption|300]]`: a caption, then the size. */
const WIKI_CAPTION_SIZE = /^(.*?)\s*\|\s*(\d+(?:x\d+)?)$/;

/** A wiki picture's `|…` split into its alt text (may be '') and its size (may be ''). */
function wikiAltAndSize(alt: string): { caption: string; size: string } {
  if (WIKI_SIZE.test(alt)) return { caption: '', size: alt };
  const sized = WIKI_CAPTION_SIZE.exec(alt);
  return sized ? { caption: sized[1]!.trim(), size: sized[2]! } : { caption: alt, size: '' };
}

/** The text with the given links replaced; links must not overlap. */
export function replaceLinks(
  text: string,
  replacements: ReadonlyArray<{ link: ImageLink; text: string }>,
): string {
  if (replacements.length === 0) return text;
  const sorted = [...replacements].sort((a, b) => a.link.start - b.link.start);
  let out = '';
  let at = 0;
  for (const { link, text: replacement } of sorted) {
    out += text.slice(at, link.start) + replacement;
    at = link.end;
  }
  return out + text.slice(at);
}

/** The link to a stored picture that takes the place of an archive link. */
export function storedPictureLink(link: ImageLink, picturePath: string, attachmentId: string): string {
  const fileName = picturePath.slice(picturePath.lastIndexOf('/') + 1);
  if (link.kind === 'markdown') return `![${link.alt}](${NOTE_IMAGE_SCHEME}${attachmentId})`;
  const { caption, size } = wikiAltAndSize(link.alt);
  // The caption is no file name: a dummy extension keeps its own last dot part.
  const alt = caption !== '' ? imageAltText(`${caption}.x`) : imageAltText(fileName);
  // The size stays as Obsidian writes it in a Markdown link (`![alt|300](…)`): the preview
  // and the exports draw the picture at it, and an export to a vault writes it back.
  return `![${size === '' ? alt : `${alt}|${size}`}](${NOTE_IMAGE_SCHEME}${attachmentId})`;
}

/** The id of a stored picture a Markdown link names, or null. */
export function storedPictureId(link: ImageLink): string | null {
  return link.kind === 'markdown' ? noteImageId(link.target) : null;
}

const utf8 = new TextEncoder();

/**
 * A picture's file name as a Markdown link target: what would end the link
 * or change its meaning (whitespace, `()<>[]`, `%`, `#`, `?`, quotes, `\`) is
 * percent-encoded, as Obsidian writes its own links; other characters,
 * Chinese ones included, stay as they are, which CommonMark apps follow and
 * `linkPath` reads back.
 */
export function linkTargetOfFile(file: string): string {
  return file.replace(/[\s()<>[\]%#?"'`\\]/gu, (char) =>
    [...utf8.encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * A note's stored-picture links as an export writes them: a path from the
 * note's file (`notePath`, inside the archive) to `<top>/attachments/<file>`.
 * `fileNameOf` gives a picture's file name in the export, or null for a
 * picture no longer stored, whose link stays.
 */
export async function exportedPictureLinks(
  body: string,
  notePath: string,
  fileNameOf: (attachmentId: string) => Promise<string | null>,
): Promise<{ body: string; pictures: Array<{ attachment_id: string; path: string }> }> {
  const links = findImageLinks(body);
  if (links.length === 0) return { body, pictures: [] };
  const segments = notePath.split('/');
  // The archive's top folder, then the note's folders, then its file name.
  const top = segments[0]!;
  const up = '../'.repeat(Math.max(0, segments.length - 2));
  const pictures = new Map<string, string>();
  const replacements: Array<{ link: ImageLink; text: string }> = [];
  for (const link of links) {
    const id = storedPictureId(link);
    if (id === null) continue;
    const file = await fileNameOf(id);
    if (file === null) continue;
    pictures.set(id, `${top}/${EXPORT_PICTURE_FOLDER}/${file}`);
    replacements.push({
      link,
      text: `![${link.alt}](${up}${EXPORT_PICTURE_FOLDER}/${linkTargetOfFile(file)})`,
    });
  }
  return {
    body: replaceLinks(body, replacements),
    pictures: [...pictures].map(([attachment_id, path]) => ({ attachment_id, path })),
  };
}
