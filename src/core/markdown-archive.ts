import { zipSync } from 'fflate';
import { isPicturePath } from './archive-pictures';
import { ArchiveFormatError, joinFrontMatter, splitFrontMatter } from './front-matter';
import {
  inflateBounded,
  inflateBoundedFrom,
  readZipDirectory,
  readZipDirectoryFrom,
  ZIP_DEFLATED,
  ZIP_STORED,
  ZipReadError,
  ZipWindowReader,
  type ZipCentralEntry,
  type ZipDirectoryEntry,
  type ZipSource,
} from './zip-reader';

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
  /** Written as `pinned: true` only when set, so unpinned notes export as before. */
  pinned?: boolean;
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
  let pinned: boolean | undefined;
  for (const [key, value] of Object.entries(data)) {
    if (key === 'title') title = scalarToString(value);
    else if (key === 'tags') tags = parseTags(value);
    // Only a yes/no is the notebook's flag; any other value is the user's own field.
    else if (key === 'pinned' && typeof value === 'boolean') pinned = value;
    else if (!DATE_KEYS.has(key)) extra[key] = value;
  }
  const created_at = takeDate(data, ['created_at', 'created'], extra);
  const updated_at = takeDate(data, ['updated_at', 'updated'], extra);
  // In the order the user wrote them, so an export writes them back that way.
  const ordered = Object.fromEntries(
    Object.keys(data).flatMap((key) => (Object.hasOwn(extra, key) ? [[key, extra[key]]] : [])),
  );

  return {
    title: title ?? fileName.replace(MARKDOWN_EXTENSION, ''),
    folder: segments.slice(0, -1).join('/'),
    body: split.body,
    tags,
    ...(created_at === undefined ? {} : { created_at }),
    ...(updated_at === undefined ? {} : { updated_at }),
    ...(pinned === undefined ? {} : { pinned }),
    extra: ordered,
  };
}

/**
 * The file as a note without reading its front matter: for a front matter that
 * does not parse or is too large, which then stays in the note's text.
 */
export function plainNoteFromMarkdownFile(file: ArchiveFile): NoteDraft {
  const segments = pathSegments(file.path);
  return {
    title: (segments.at(-1) ?? '').replace(MARKDOWN_EXTENSION, ''),
    folder: segments.slice(0, -1).join('/'),
    body: file.content.startsWith('\uFEFF') ? file.content.slice(1) : file.content,
    tags: [],
    extra: {},
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
 * is lost on the way back out. A date under the user's own key (Obsidian's
 * `created: 2021-03-04`) stays in `extra` as written too, so an export writes
 * that key back instead of the notebook's (see markdownFilePartsFromNote).
 */
function takeDate(
  data: Record<string, unknown>,
  keys: readonly [string, ...string[]],
  extra: Record<string, unknown>,
): string | undefined {
  let found: string | undefined;
  for (const key of keys) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    const iso = found === undefined ? toIsoDate(value) : undefined;
    if (iso === undefined || key !== keys[0]) extra[key] = value;
    if (iso !== undefined) found = iso;
  }
  return found;
}

/**
 * Whether the note's own date `iso` may be left out of an export: a key of the
 * user's in `extra` (`created` for `created_at`) reads as the same instant, so
 * a file that came in with it goes out as it came.
 */
function dateWrittenByUser(iso: string, keys: readonly string[], extra: Record<string, unknown>): boolean {
  return keys.some((key) => Object.hasOwn(extra, key) && toIsoDate(extra[key]) === toIsoDate(iso));
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * `iso` written the way the user wrote `written` (a local date, a local date and time, or
 * a full timestamp), so a vault's own `updated:` says when the note last changed, in its
 * own format; undefined where `written` is no date (the user's own field, left alone).
 */
export function dateLikeUsers(written: unknown, iso: string): string | undefined {
  if (typeof written !== 'string' || toIsoDate(written) === undefined) return undefined;
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return undefined;
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const local = /^\d{4}-\d{2}-\d{2}(?:([T ])\d{2}:\d{2}(:\d{2})?)?$/.exec(written.trim());
  if (!local) return iso;
  if (local[1] === undefined) return day;
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}${local[2] ? `:${pad(at.getSeconds())}` : ''}`;
  return `${day}${local[1]}${time}`;
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
  const { path, head, body } = markdownFilePartsFromNote(note, takenPaths);
  return { path, content: head + body };
}

/**
 * `markdownFileFromNote` with the file's text in two parts, its front matter
 * (`head`) and the body as it is: a huge body is written out without being
 * copied into a second string.
 */
export function markdownFilePartsFromNote(
  note: NoteDraft,
  takenPaths: Set<string>,
): { path: string; head: string; body: string } {
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
  let extra = note.extra;
  // A note changed since its vault's `updated:` was written says so there too, in that
  // key's format (tools reading the vault look there); `updated_at` keeps the exact moment.
  if (note.updated_at !== undefined && !dateWrittenByUser(note.updated_at, ['updated'], extra)) {
    const refreshed = dateLikeUsers(extra.updated, note.updated_at);
    if (refreshed !== undefined) extra = { ...extra, updated: refreshed };
  }
  if (note.created_at !== undefined && !dateWrittenByUser(note.created_at, ['created'], extra))
    data.created_at = note.created_at;
  if (note.updated_at !== undefined && !dateWrittenByUser(note.updated_at, ['updated'], extra))
    data.updated_at = note.updated_at;
  if (note.pinned === true) data.pinned = true;
  for (const [key, value] of Object.entries(extra)) {
    if (!Object.hasOwn(data, key)) data[key] = value;
  }
  // joinFrontMatter appends the body untouched: the head is the text before it.
  return { path, head: joinFrontMatter(data, ''), body: note.body };
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

/**
 * Limits on an imported archive, checked on the zip's directory before anything
 * is inflated and again on the real bytes while inflating (a directory can lie),
 * so memory stays near the sum of the notes actually accepted. Only Markdown
 * entries count towards sizes, depth and name length: other entries (images,
 * .obsidian settings) are not inflated here. A picture a note links is read
 * later, one at a time, within `max_picture_bytes` and the ratio; pictures
 * have the total to themselves.
 */
export interface ImportLimits {
  /** Every entry of the directory, folders and non-Markdown files included. */
  max_entries: number;
  max_entry_bytes: number;
  max_total_bytes: number;
  /** Uncompressed to compressed, for entries above `ratio_floor_bytes`. */
  max_ratio: number;
  ratio_floor_bytes: number;
  /** Folder levels, the file itself included (`a/b/c.md` is 3). */
  max_path_depth: number;
  /** Characters of an entry's whole path. */
  max_name_length: number;
  /**
   * A picture a note links (PNG, JPEG, GIF, WebP): larger ones stay left out,
   * as a note's picture is refused above this size when pasted.
   */
  max_picture_bytes: number;
}

const MIB = 1024 * 1024;

/**
 * Large personal vaults hold a few thousand notes, a few hundred MB in all;
 * the largest single Markdown notes seen in the wild (pasted logs, exported
 * chats) are tens of MB. Text compresses 3-10:1 and a page of one repeated
 * character up to deflate's 1032:1 bound, so 1000:1 above 1 MiB only stops
 * archives built to expand.
 */
export const DEFAULT_IMPORT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  max_entries: 20_000,
  max_entry_bytes: 64 * MIB,
  max_total_bytes: 1024 * MIB,
  max_ratio: 1_000,
  ratio_floor_bytes: MIB,
  max_path_depth: 32,
  max_name_length: 1_024,
  max_picture_bytes: 20 * MIB,
});

/**
 * Something import changed or left out instead of failing: listed in the
 * import report so nothing is lost silently.
 */
export interface ArchiveIssue {
  /** The entry's path as written in the archive. */
  path: string;
  reason:
    | 'path_outside_archive'
    | 'duplicate_path'
    | 'not_utf8'
    | 'encrypted'
    | 'symlink'
    | 'unsupported_compression'
    /** An image, PDF or other file that is not a note: not imported, listed so the user knows. */
    | 'not_markdown';
  action: 'skipped' | 'renamed' | 'repaired';
  /** The new path of a renamed entry. */
  renamed_to?: string;
}

export interface ArchiveReadResult {
  files: ArchiveFile[];
  issues: ArchiveIssue[];
  /**
   * Files that are not notes (images, PDFs…), left out; the first MAX_LISTED_LEFT_OUT are in
   * `issues`. Hidden files and folders (`.obsidian/`, `.DS_Store`) and `__MACOSX/` are neither:
   * they are another app's settings, not the user's content.
   */
  left_out: number;
  /**
   * Of those left out, the pictures a note could link, not yet read: a caller
   * reads the ones its notes link (`readArchivePictures`) and takes them back
   * from the left-out files (`withPicturesTaken`).
   */
  pictures: ArchivePicture[];
}

/** A picture file of an archive, within the limits, not yet inflated. */
export interface ArchivePicture {
  /** With `..` segments dropped, as notes' paths are. */
  path: string;
  /** As written in the archive (the left-out issue's path). */
  raw_path: string;
  entry: ZipCentralEntry;
}

/** Left-out files named one by one in the report; a vault of 20,000 images is counted, not listed. */
export const MAX_LISTED_LEFT_OUT = 1_000;

function isAppClutter(segments: readonly string[]): boolean {
  return segments.some((segment) => segment.startsWith('.') || segment === '__MACOSX');
}

/** The Markdown files of a .zip, in archive order; see readZipArchiveChecked. */
export function readZipArchive(bytes: Uint8Array, limits: Partial<ImportLimits> = {}): ArchiveFile[] {
  return readZipArchiveChecked(bytes, limits).files;
}

/**
 * The Markdown files of a .zip with every limit checked (ArchiveFormatError
 * names the entry and the limit). Other entries are skipped without being
 * inflated. `..` segments are dropped, a repeated path gets a " (2)" suffix
 * and invalid UTF-8 becomes U+FFFD, each listed in `issues`.
 */
export function readZipArchiveChecked(
  bytes: Uint8Array,
  overrides: Partial<ImportLimits> = {},
): ArchiveReadResult {
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...overrides };
  let directory: ZipDirectoryEntry[];
  try {
    directory = readZipDirectory(bytes, limits.max_entries);
  } catch (error) {
    throw zipError(error, limits);
  }
  const { planned, issues, leftOut, pictures } = planArchive(directory, limits);
  const files: ArchiveFile[] = [];
  let total = 0;
  for (const item of planned) {
    const cap = entryCap(item.entry, limits, total);
    let data: Uint8Array | null;
    try {
      data = inflateBounded(item.entry, bytes, cap);
    } catch (error) {
      throw zipError(error, limits, item.rawPath);
    }
    const file = acceptEntry(item, data, cap, limits, issues);
    total += item.entry.declared_size;
    files.push(file);
  }
  return { files, issues, left_out: leftOut, pictures };
}

export interface ArchiveReadProgress {
  /** Compressed bytes of the Markdown entries read so far. */
  read: number;
  /** Compressed bytes of every Markdown entry to read. */
  total: number;
}

export interface ArchiveReadOptions {
  limits?: Partial<ImportLimits>;
  /** Checked between steps: an abort stops the read within one step. */
  signal?: AbortSignal;
  /** After each step, and once at the end; awaited. */
  onProgress?: (progress: ArchiveReadProgress) => void | Promise<void>;
  /** Compressed bytes per step; progress, cancel and other work get a turn between steps. */
  stepBytes?: number;
  /** Lets other work (a cancel message) in between steps; a macrotask by default. */
  pause?: () => Promise<void>;
}

const DEFAULT_STEP_BYTES = MIB;
/** Small notes are read through a window this size, not one read each. */
const READ_WINDOW_BYTES = 4 * MIB;

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * readZipArchiveChecked for an archive read in steps (a Blob is never read
 * whole): the same limits, issues and errors, with progress after each step
 * and an abort honoured between steps. Nothing is kept when it throws.
 */
export async function readZipArchiveFrom(
  source: ZipSource,
  options: ArchiveReadOptions = {},
): Promise<ArchiveReadResult> {
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
  const { signal } = options;
  const stepBytes = options.stepBytes ?? DEFAULT_STEP_BYTES;
  const pause = options.pause ?? nextTask;
  signal?.throwIfAborted();
  let directory: ZipCentralEntry[];
  try {
    directory = await readZipDirectoryFrom(source, limits.max_entries);
  } catch (error) {
    throw zipError(error, limits);
  }
  const { planned, issues, leftOut, pictures } = planArchive(directory, limits);
  const progress: ArchiveReadProgress = {
    read: 0,
    total: planned.reduce((sum, item) => sum + item.entry.compressed_size, 0),
  };
  const reader = new ZipWindowReader(source, Math.max(READ_WINDOW_BYTES, stepBytes));
  // Many small entries make one step together, so a vault of tiny notes is not a step per note.
  let sinceStep = 0;
  const step = async (): Promise<void> => {
    sinceStep = 0;
    await options.onProgress?.({ ...progress });
    await pause();
    signal?.throwIfAborted();
  };
  const afterStep = async (read: number): Promise<void> => {
    progress.read += read;
    sinceStep += read;
    if (sinceStep >= stepBytes) await step();
  };

  const files: ArchiveFile[] = [];
  let total = 0;
  for (const item of planned) {
    signal?.throwIfAborted();
    const cap = entryCap(item.entry, limits, total);
    let data: Uint8Array | null;
    try {
      data = await inflateBoundedFrom(item.entry, reader, cap, { stepBytes, afterStep });
    } catch (error) {
      if (error instanceof ZipReadError) throw zipError(error, limits, item.rawPath);
      throw error;
    }
    const file = acceptEntry(item, data, cap, limits, issues);
    total += item.entry.declared_size;
    files.push(file);
  }
  await options.onProgress?.({ ...progress });
  return { files, issues, left_out: leftOut, pictures };
}

/**
 * The bytes of the given pictures of an archive, one at a time, each within
 * the picture limit and the ratio (a directory can lie). A picture whose
 * bytes break a limit or do not inflate is passed over: it stays left out,
 * and its note keeps the link as written; so are those past the total limit,
 * which pictures have to themselves. An abort is honoured between pictures.
 */
export async function* readArchivePictures(
  source: ZipSource,
  pictures: readonly ArchivePicture[],
  options: { limits?: Partial<ImportLimits>; signal?: AbortSignal } = {},
): AsyncGenerator<{ picture: ArchivePicture; bytes: Uint8Array }> {
  const limits: ImportLimits = { ...DEFAULT_IMPORT_LIMITS, ...options.limits };
  const reader = new ZipWindowReader(source, READ_WINDOW_BYTES);
  let total = 0;
  for (const picture of pictures) {
    options.signal?.throwIfAborted();
    const { entry } = picture;
    if (total + entry.declared_size > limits.max_total_bytes) continue;
    const cap = Math.min(
      limits.max_picture_bytes,
      Math.max(limits.ratio_floor_bytes, entry.compressed_size * limits.max_ratio),
    );
    let bytes: Uint8Array | null;
    try {
      bytes = await inflateBoundedFrom(entry, reader, cap, {
        stepBytes: DEFAULT_STEP_BYTES,
        afterStep: async () => {
          options.signal?.throwIfAborted();
        },
      });
    } catch (error) {
      if (error instanceof ZipReadError) continue;
      throw error;
    }
    if (bytes === null || bytes.byteLength !== entry.declared_size) continue;
    total += bytes.byteLength;
    yield { picture, bytes };
  }
}

/**
 * The read result less the pictures that went in with their notes: they are
 * no longer left out, and their entries leave the report.
 */
export function withPicturesTaken<Issue extends { path: string; reason: string }>(
  result: { issues: Issue[]; left_out: number },
  taken: ReadonlySet<string>,
): { issues: Issue[]; left_out: number } {
  if (taken.size === 0) return { issues: result.issues, left_out: result.left_out };
  return {
    issues: result.issues.filter((issue) => issue.reason !== 'not_markdown' || !taken.has(issue.path)),
    left_out: Math.max(0, result.left_out - taken.size),
  };
}

interface PlannedEntry<Entry extends ZipCentralEntry> {
  entry: Entry;
  rawPath: string;
  path: string;
}

/**
 * The directory checked against every limit before anything is inflated, and
 * the Markdown entries to read with the paths they will get.
 */
function planArchive<Entry extends ZipCentralEntry>(
  directory: readonly Entry[],
  limits: ImportLimits,
): { planned: PlannedEntry<Entry>[]; issues: ArchiveIssue[]; leftOut: number; pictures: ArchivePicture[] } {
  const issues: ArchiveIssue[] = [];
  const planned: PlannedEntry<Entry>[] = [];
  const pictures: ArchivePicture[] = [];
  const taken = new Set<string>();
  let declaredTotal = 0;
  let leftOut = 0;
  for (const entry of directory) {
    if (entry.is_directory) continue;
    const rawPath = entry.name.replace(/\\/g, '/');
    const segments = pathSegments(rawPath);
    const safeSegments = segments.filter((segment) => segment !== '..');
    let path = safeSegments.join('/');
    if (!isMarkdownPath(path)) {
      // `..` is no hidden folder: such a file is listed like any other, under its safe path.
      if (isAppClutter(safeSegments)) continue;
      leftOut += 1;
      if (leftOut <= MAX_LISTED_LEFT_OUT)
        issues.push({ path: rawPath, reason: 'not_markdown', action: 'skipped' });
      if (isPictureCandidate(entry, path, rawPath, segments, limits))
        pictures.push({ path, raw_path: rawPath, entry });
      continue;
    }
    if (rawPath.length > limits.max_name_length) {
      const shown = `${rawPath.slice(0, 120)}…`;
      throw new ArchiveFormatError(
        'name_too_long',
        `The entry ${shown} has a path of ${rawPath.length} characters; at most ${limits.max_name_length} are allowed.`,
        { path: shown, limit: limits.max_name_length },
      );
    }
    if (segments.length > limits.max_path_depth) {
      throw new ArchiveFormatError(
        'path_too_deep',
        `The entry ${rawPath} is ${segments.length} levels deep; at most ${limits.max_path_depth} are allowed.`,
        { path: rawPath, limit: limits.max_path_depth },
      );
    }
    const unreadable = entry.is_symlink
      ? 'symlink'
      : entry.encrypted
        ? 'encrypted'
        : entry.method !== ZIP_STORED && entry.method !== ZIP_DEFLATED
          ? 'unsupported_compression'
          : null;
    if (unreadable !== null) {
      issues.push({ path: rawPath, reason: unreadable, action: 'skipped' });
      continue;
    }
    if (entry.declared_size > limits.max_entry_bytes) throw entryTooLarge(rawPath, limits);
    declaredTotal += entry.declared_size;
    if (declaredTotal > limits.max_total_bytes) throw totalTooLarge(rawPath, limits);
    if (
      entry.declared_size > limits.ratio_floor_bytes &&
      entry.declared_size > entry.compressed_size * limits.max_ratio
    ) {
      throw ratioTooHigh(rawPath, limits);
    }
    if (safeSegments.length !== segments.length) {
      issues.push({ path: rawPath, reason: 'path_outside_archive', action: 'renamed', renamed_to: path });
    }
    if (taken.has(path)) {
      const original = path;
      for (let copy = 2; taken.has(path); copy++) {
        path = original.replace(MARKDOWN_EXTENSION, ` (${copy})$&`);
      }
      issues.push({ path: rawPath, reason: 'duplicate_path', action: 'renamed', renamed_to: path });
    }
    taken.add(path);
    planned.push({ entry, rawPath, path });
  }
  return { planned, issues, leftOut, pictures };
}

/**
 * A picture file a note may link: readable, and within the picture limit,
 * the ratio and the path limits.
 */
function isPictureCandidate(
  entry: ZipCentralEntry,
  path: string,
  rawPath: string,
  segments: readonly string[],
  limits: ImportLimits,
): boolean {
  return (
    isPicturePath(path) &&
    !entry.is_symlink &&
    !entry.encrypted &&
    (entry.method === ZIP_STORED || entry.method === ZIP_DEFLATED) &&
    entry.declared_size > 0 &&
    entry.declared_size <= limits.max_picture_bytes &&
    (entry.declared_size <= limits.ratio_floor_bytes ||
      entry.declared_size <= entry.compressed_size * limits.max_ratio) &&
    rawPath.length <= limits.max_name_length &&
    segments.length <= limits.max_path_depth
  );
}

/** The most bytes the entry may inflate to: its own limit, what the total leaves, and the ratio. */
function entryCap(entry: ZipCentralEntry, limits: ImportLimits, totalSoFar: number): number {
  const byRatio = Math.max(limits.ratio_floor_bytes, entry.compressed_size * limits.max_ratio);
  return Math.min(limits.max_entry_bytes, limits.max_total_bytes - totalSoFar, byRatio);
}

/** The inflated entry checked against the limit that stopped it, its declared size and UTF-8. */
function acceptEntry(
  { entry, rawPath, path }: PlannedEntry<ZipCentralEntry>,
  data: Uint8Array | null,
  cap: number,
  limits: ImportLimits,
  issues: ArchiveIssue[],
): ArchiveFile {
  if (data === null) {
    if (cap === limits.max_entry_bytes) throw entryTooLarge(rawPath, limits);
    if (cap === Math.max(limits.ratio_floor_bytes, entry.compressed_size * limits.max_ratio)) {
      throw ratioTooHigh(rawPath, limits);
    }
    throw totalTooLarge(rawPath, limits);
  }
  if (data.byteLength !== entry.declared_size) {
    throw new ArchiveFormatError(
      'invalid_zip',
      `The entry ${rawPath} holds ${data.byteLength} bytes but the archive says ${entry.declared_size}.`,
      { path: rawPath },
    );
  }
  let content: string;
  try {
    content = decodeMarkdownText(data, path, { fatal: true });
  } catch {
    content = decodeMarkdownText(data, path);
    issues.push({ path: rawPath, reason: 'not_utf8', action: 'repaired' });
  }
  return { path, content };
}

function zipError(error: unknown, limits: ImportLimits, path?: string): ArchiveFormatError {
  if (error instanceof ZipReadError && error.problem === 'too_many_entries') {
    return new ArchiveFormatError('too_many_entries', error.message, {
      limit: limits.max_entries,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : 'The file is not a readable zip archive.';
  return new ArchiveFormatError('invalid_zip', message, {
    ...(path === undefined ? {} : { path }),
    cause: error,
  });
}

function entryTooLarge(path: string, limits: ImportLimits): ArchiveFormatError {
  return new ArchiveFormatError(
    'entry_too_large',
    `The note ${path} is larger than ${formatMiB(limits.max_entry_bytes)}.`,
    { path, limit: limits.max_entry_bytes },
  );
}

function totalTooLarge(path: string, limits: ImportLimits): ArchiveFormatError {
  return new ArchiveFormatError(
    'total_too_large',
    `The archive unpacks to more than ${formatMiB(limits.max_total_bytes)} (reached at ${path}).`,
    { path, limit: limits.max_total_bytes },
  );
}

function ratioTooHigh(path: string, limits: ImportLimits): ArchiveFormatError {
  return new ArchiveFormatError(
    'ratio_too_high',
    `The entry ${path} expands more than ${limits.max_ratio}:1, as zip bombs do.`,
    { path, limit: limits.max_ratio },
  );
}

function formatMiB(bytes: number): string {
  return `${Math.round((bytes / MIB) * 10) / 10} MiB`;
}

/**
 * Keys the notebook has no field for travel in the note's text as a front
 * matter block, so they are kept with the note and exported again.
 */
export function bodyWithExtraFrontMatter(note: Pick<NoteDraft, 'body' | 'extra'>): string {
  return Object.keys(note.extra).length === 0 ? note.body : joinFrontMatter(note.extra, note.body);
}

/** The inverse of bodyWithExtraFrontMatter; a front matter that does not parse stays text. */
export function extraFrontMatterFromBody(body: string): { body: string; extra: Record<string, unknown> } {
  try {
    const split = splitFrontMatter(body);
    return split.hasFrontMatter ? { body: split.body, extra: split.data } : { body, extra: {} };
  } catch {
    return { body, extra: {} };
  }
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
