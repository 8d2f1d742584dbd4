import { inflateBounded, ZIP_DEFLATED, ZIP_STORED } from '../core/zip-reader';
import { PackageReadError } from './package-errors';
import { RATIO_FLOOR_BYTES, resolveLimits, type PackageLimits } from './package-limits';
import { normalizePackagePath, stripCommonRoot } from './package-paths';
import { readZipDirectory, type ZipDirectoryEntry } from './zip-directory';

export interface PackageContents {
  /** The name the user picked (file or folder name), for messages only. */
  readonly name: string;
  /** Normalized relative paths; a single top-level folder is stripped. */
  readonly files: ReadonlyMap<string, Uint8Array>;
}

export interface PackageFolderEntry {
  readonly path: string;
  readonly bytes: Uint8Array;
}

const STORED = ZIP_STORED;
const DEFLATED = ZIP_DEFLATED;

/**
 * Reads a zipped package with every limit checked on the directory first (nothing
 * is inflated when a declared size, count, path or ratio is over a limit), then
 * again on the real bytes while inflating, so a header that lies about sizes stops
 * at the limit instead of filling memory.
 */
export function readZipPackage(
  name: string,
  bytes: Uint8Array,
  limitOverrides: Partial<PackageLimits> = {},
): PackageContents {
  const limits = resolveLimits(limitOverrides);
  const entries = readZipDirectory(bytes, limits.max_entries);
  const planned = planEntries(entries, limits);

  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const { entry, path } of planned) {
    const content = inflateEntry(entry, path, bytes, limits, limits.max_total_bytes - total);
    total += content.byteLength;
    files.set(path, content);
  }
  return { name, files: stripRoot(files) };
}

/** The same checks for a folder the user picked (paths from `webkitRelativePath`). */
export function readFolderPackage(
  name: string,
  entries: readonly PackageFolderEntry[],
  limitOverrides: Partial<PackageLimits> = {},
): PackageContents {
  const limits = resolveLimits(limitOverrides);
  if (entries.length > limits.max_entries) {
    throw new PackageReadError(
      'too_many_entries',
      `The folder has ${entries.length} files; a package may have at most ${limits.max_entries}.`,
      { limit: limits.max_entries },
    );
  }
  const files = new Map<string, Uint8Array>();
  let total = 0;
  for (const entry of entries) {
    const path = normalizePackagePath(entry.path, limits);
    checkEntrySize(path, entry.bytes.byteLength, limits);
    total += entry.bytes.byteLength;
    checkTotal(total, limits);
    if (files.has(path)) throw duplicate(path);
    files.set(path, entry.bytes);
  }
  return { name, files: stripRoot(files) };
}

function planEntries(
  entries: readonly ZipDirectoryEntry[],
  limits: PackageLimits,
): Array<{ entry: ZipDirectoryEntry; path: string }> {
  const seen = new Set<string>();
  const planned: Array<{ entry: ZipDirectoryEntry; path: string }> = [];
  let declaredTotal = 0;
  for (const entry of entries) {
    const path = normalizePackagePath(entry.name, limits);
    if (entry.is_symlink) {
      throw new PackageReadError(
        'symlink',
        `The entry ${path} is a symbolic link; packages may not hold links.`,
        {
          entry: path,
        },
      );
    }
    if (entry.is_directory) continue;
    if (entry.encrypted) {
      throw new PackageReadError('not_an_archive', `The entry ${path} is encrypted.`, { entry: path });
    }
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw new PackageReadError(
        'not_an_archive',
        `The entry ${path} uses a compression method (${entry.method}) packages do not support.`,
        { entry: path },
      );
    }
    checkEntrySize(path, entry.declared_size, limits);
    declaredTotal += entry.declared_size;
    checkTotal(declaredTotal, limits);
    checkRatio(path, entry.declared_size, entry.compressed_size, limits);
    if (seen.has(path)) throw duplicate(path);
    seen.add(path);
    planned.push({ entry, path });
  }
  return planned;
}

function inflateEntry(
  entry: ZipDirectoryEntry,
  path: string,
  bytes: Uint8Array,
  limits: PackageLimits,
  totalLeft: number,
): Uint8Array {
  const cap = Math.min(limits.max_entry_bytes, totalLeft);
  let content: Uint8Array | null;
  try {
    content = inflateBounded(entry, bytes, cap);
  } catch (cause) {
    throw new PackageReadError('not_an_archive', `The entry ${path} could not be decompressed.`, {
      entry: path,
      cause,
    });
  }
  if (content === null) {
    throw cap === limits.max_entry_bytes ? entryTooLarge(path, limits) : totalTooLarge(limits);
  }
  if (content.byteLength !== entry.declared_size) {
    throw new PackageReadError(
      'not_an_archive',
      `The entry ${path} holds ${content.byteLength} bytes but its header says ${entry.declared_size}.`,
      { entry: path },
    );
  }
  return content;
}

function checkEntrySize(path: string, size: number, limits: PackageLimits): void {
  if (size > limits.max_entry_bytes) throw entryTooLarge(path, limits);
}

function checkTotal(total: number, limits: PackageLimits): void {
  if (total > limits.max_total_bytes) throw totalTooLarge(limits);
}

function checkRatio(path: string, size: number, compressed: number, limits: PackageLimits): void {
  if (size <= RATIO_FLOOR_BYTES) return;
  if (compressed === 0 || size / compressed > limits.max_ratio) {
    throw new PackageReadError(
      'ratio_too_high',
      `The entry ${path} expands more than ${limits.max_ratio}:1, as zip bombs do.`,
      { entry: path, limit: limits.max_ratio },
    );
  }
}

function entryTooLarge(path: string, limits: PackageLimits): PackageReadError {
  return new PackageReadError(
    'entry_too_large',
    `The file ${path} is larger than ${formatMiB(limits.max_entry_bytes)}.`,
    { entry: path, limit: limits.max_entry_bytes },
  );
}

function totalTooLarge(limits: PackageLimits): PackageReadError {
  return new PackageReadError(
    'total_too_large',
    `The package unpacks to more than ${formatMiB(limits.max_total_bytes)}.`,
    { limit: limits.max_total_bytes },
  );
}

function duplicate(path: string): PackageReadError {
  return new PackageReadError('duplicate_path', `The package holds ${path} twice.`, { entry: path });
}

function formatMiB(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
}

function stripRoot(files: Map<string, Uint8Array>): ReadonlyMap<string, Uint8Array> {
  const { root, strip } = stripCommonRoot([...files.keys()]);
  if (root === null) return files;
  return new Map([...files].map(([path, bytes]) => [strip(path), bytes]));
}
