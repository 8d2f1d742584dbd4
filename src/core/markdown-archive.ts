import { unzipSync, zipSync } from 'fflate';
import { ArchiveFormatError, joinFrontMatter, splitFrontMatter } from './front-matter';

export { ArchiveFormatError } from './front-matter';
export type { ArchiveFormatErrorReason } from './front-matter';

/** One Markdown file of an archive or picked folder; `path` is '/'-separated and relative. */
export interface ArchiveFile {
  path: string;
  content: string;
}

/**
 * A note as it crosses the archive boundary. `extra` holds the front-matter keys
 * the notebook has no field for; it should not hold `title`, `tags`,
 * `created[_at]` or `updated[_at]`, which the named fields own.
 */
export interface NoteDraft {
  title: string;
  folder: string;
  body: string;
  tags: string[];
  created_at?: string;
  updated_at?: string;
  extra: Record<string, unknown>;
}

const MARKDOWN_EXTENSION = /\.(?:md|markdown)$/i;
const UNTITLED = 'Untitled';
// Room for " (123).md" under the 255-byte name limit of common file systems.
const MAX_NAME_BYTES = 200;
// DOS date-times start in 1980; a fixed stamp keeps exports byte-for-byte reproducible.
const DEFAULT_MODIFIED_AT = new Date(1980, 0, 1);

function pathSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/** Markdown by extension, skipping dot-files, dot-folders (.git, .obsidian) and macOS resource forks. */
export function isMarkdownPath(path: string): boolean {
  const segments = pathSegments(path);
  const name = segments.at(-1);
  if (name === undefined || !MARKDOWN_EXTENSION.test(name)) return false;
  return !segments.some((segment) => segment.startsWith('.') || segment === '__MACOSX');
}

/**
 * Drops the one directory that wraps every file ("compress folder" zips and
 * folder pickers both add it), so the user's top-level folders become the
 * notebook's top-level folders. Nothing is stripped when any file sits at the
 * root or under a different top directory.
 */
export function stripCommonRoot(files: readonly ArchiveFile[]): ArchiveFile[] {
  const split = files.map((file) => pathSegments(file.path));
  const root = split[0]?.[0];
  const shared =
    root !== undefined && split.every((segments) => segments.length >= 2 && segments[0] === root);
  if (!shared) return files.map((file) => ({ ...file }));
  return files.map((file, index) => ({ ...file, path: (split[index] ?? []).slice(1).join('/') }));
}

export function noteFromMarkdownFile(file: ArchiveFile): NoteDraft {
  const source = file.content.startsWith('\uFEFF') ? file.content.slice(1) : file.content;
  let split;
  try {
    split = splitFrontMatter(source);
  } catch (error) {
    if (error instanceof ArchiveFormatError) {
      throw new ArchiveFormatError(error.reason, `${file.path}: ${error.message}`, {
        path: file.path,
        cause: error,
      });
    }
    throw error;
  }

  const segments = pathSegments(file.path);
  const fileName = segments.at(-1) ?? '';
  const { data } = split;
  const extra: Record<string, unknown> = {};
  let title: string | undefined;
  let tags: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'title') title = scalarToString(value);
    else if (key === 'tags') tags = parseTags(value);
    else if (!DATE_KEYS.has(key)) extra[key] = value;
  }
  const created_at = takeDate(data, ['created_at', 'created'], extra);
  const updated_at = takeDate(data, ['updated_at', 'updated'], extra);

  return {
    title: title ?? fileName.replace(MARKDOWN_EXTENSION, ''),
    folder: segments.slice(0, -1).join('/'),
    body: split.body,
    tags,
    ...(created_at === undefined ? {} : { created_at }),
    ...(updated_at === undefined ? {} : { updated_at }),
    extra,
  };
}

const DATE_KEYS = new Set(['created_at', 'created', 'updated_at', 'updated']);
const ISO_LIKE_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

function scalarToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function parseTags(value: unknown): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
  return items.map((item) => scalarToString(item)?.trim() ?? '').filter((tag) => tag !== '');
}

/**
 * The first of `keys` holding a recognisable date wins; the others (and any
 * value that is not a date) go to `extra` untouched so nothing the user wrote
 * is lost on the way back out.
 */
function takeDate(
  data: Record<string, unknown>,
  keys: readonly string[],
  extra: Record<string, unknown>,
): string | undefined {
  let found: string | undefined;
  for (const key of keys) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    const iso = found === undefined ? toIsoDate(value) : undefined;
    if (iso === undefined) extra[key] = value;
    else found = iso;
  }
  return found;
}

function toIsoDate(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  // Only ISO-like text: Date.parse also accepts things like "1" or "May", which
  // are more likely a user's own field than a timestamp.
  if (typeof value !== 'string' || !ISO_LIKE_DATE.test(value.trim())) return undefined;
  const time = Date.parse(value.trim());
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * Adds the returned path to `takenPaths` (lower-cased and NFC-normalised, since
 * Windows and macOS treat `Note.md` and `note.md` as one file).
 */
export function markdownFileFromNote(note: NoteDraft, takenPaths: Set<string>): ArchiveFile {
  const folder = pathSegments(note.folder)
    .map((segment) => safeName(segment))
    .filter((segment) => segment !== '')
    .join('/');
  const base = safeName(note.title) || UNTITLED;
  const candidate = (copy: number): string => {
    const name = copy === 1 ? `${base}.md` : `${base} (${copy}).md`;
    return folder === '' ? name : `${folder}/${name}`;
  };
  let copy = 1;
  while (takenPaths.has(candidate(copy)) || takenPaths.has(pathKey(candidate(copy)))) copy++;
  const path = candidate(copy);
  takenPaths.add(pathKey(path));

  // The title is always written because the file name cannot carry every title
  // (`a/b`, trailing dots, over-long names).
  const data: Record<string, unknown> = { title: note.title, tags: note.tags };
  if (note.created_at !== undefined) data.created_at = note.created_at;
  if (note.updated_at !== undefined) data.updated_at = note.updated_at;
  for (const [key, value] of Object.entries(note.extra)) {
    if (!Object.hasOwn(data, key)) data[key] = value;
  }
  return { path, content: joinFrontMatter(data, note.body) };
}

function pathKey(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

const RESERVED_WINDOWS_NAME = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\..*)?$/i;
const FORBIDDEN_IN_NAMES = new Set([...'/\\:*?"<>|']);

/**
 * A file or folder name every common file system accepts and that import does
 * not skip: forbidden and control characters become `_`, leading dots (hidden
 * files) and trailing dots/spaces (dropped by Windows) are removed.
 */
function safeName(text: string): string {
  let name = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    name += code < 0x20 || code === 0x7f || FORBIDDEN_IN_NAMES.has(character) ? '_' : character;
  }
  name = truncateUtf8(name.trim().replace(/^[.\s]+/, ''), MAX_NAME_BYTES).replace(/[.\s]+$/, '');
  if (RESERVED_WINDOWS_NAME.test(name) || name === '__MACOSX') name = `${name}_`;
  return name;
}

const encoder = new TextEncoder();

function truncateUtf8(text: string, maxBytes: number): string {
  if (encoder.encode(text).length <= maxBytes) return text;
  let result = '';
  let bytes = 0;
  // By code point, so a surrogate pair (emoji, rare CJK) is never cut in half.
  for (const character of text) {
    bytes += encoder.encode(character).length;
    if (bytes > maxBytes) break;
    result += character;
  }
  return result;
}

/**
 * Decodes a file's bytes as UTF-8, dropping a byte-order mark. With `fatal`,
 * invalid UTF-8 throws ArchiveFormatError('not_utf8') instead of turning into
 * U+FFFD.
 */
export function decodeMarkdownText(
  bytes: Uint8Array,
  path: string,
  options: { fatal?: boolean } = {},
): string {
  try {
    return new TextDecoder('utf-8', { fatal: options.fatal ?? false, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new ArchiveFormatError('not_utf8', `${path} is not valid UTF-8 text.`, { path, cause });
  }
}

/** The Markdown files of a .zip, in archive order; other entries are skipped without being inflated. */
export function readZipArchive(bytes: Uint8Array): ArchiveFile[] {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (entry) => isMarkdownPath(entryPath(entry.name)) });
  } catch (cause) {
    throw new ArchiveFormatError('invalid_zip', 'The file is not a readable zip archive.', { cause });
  }
  return Object.entries(entries).map(([name, data]) => {
    const path = entryPath(name);
    return { path, content: decodeMarkdownText(data, path) };
  });
}

/**
 * Zip entry names arrive either flagged UTF-8 or, per fflate, as Latin-1. Old
 * Windows and macOS tools write UTF-8 or GBK without the flag, so a Latin-1
 * name is re-read as UTF-8, then GB18030, before being taken literally.
 * Backslashes from Windows tools become separators.
 */
function entryPath(name: string): string {
  return pathSegments(repairEntryName(name).replace(/\\/g, '/')).join('/');
}

function repairEntryName(name: string): string {
  // eslint-disable-next-line no-control-regex -- the test is for "only Latin-1 code units"
  if (!/[\u0080-\u00ff]/.test(name) || !/^[\u0000-\u00ff]*$/.test(name)) return name;
  const bytes = Uint8Array.from(name, (character) => character.charCodeAt(0));
  for (const encoding of ['utf-8', 'gb18030']) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // Not this encoding (or not supported by this runtime): try the next one.
    }
  }
  return name;
}

/**
 * Paths must be unique: a zip may hold two entries of one name, but unpacking
 * keeps only one, so a duplicate is refused instead of silently losing a note.
 */
export function writeZipArchive(
  files: readonly ArchiveFile[],
  options: { modifiedAt?: Date } = {},
): Uint8Array {
  // No prototype: a path such as "__proto__" must stay an ordinary key.
  const tree = Object.create(null) as Record<string, Uint8Array>;
  for (const file of files) {
    if (Object.hasOwn(tree, file.path)) {
      throw new ArchiveFormatError('duplicate_path', `Two files share the path ${file.path}.`, {
        path: file.path,
      });
    }
    tree[file.path] = encoder.encode(file.content);
  }
  return zipSync(tree, { level: 6, mtime: options.modifiedAt ?? DEFAULT_MODIFIED_AT });
}
