import type { PackageLimits } from './package-limits';
import { PackageReadError } from './package-errors';

/**
 * A package path as the rest of the app sees it: relative, `/`-separated, no
 * `.` segments. Anything that could name a file outside the package (absolute
 * paths, drive letters, `..`, NUL) is refused rather than repaired, because a
 * repaired path may collide with a legitimate one.
 */
export function normalizePackagePath(raw: string, limits: PackageLimits): string {
  const path = raw.replace(/\\/g, '/');
  if (path.includes('\0') || path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    throw outside(raw);
  }
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') throw outside(raw);
    segments.push(segment);
  }
  if (segments.length === 0) throw outside(raw);
  const normalized = segments.join('/');
  if (normalized.length > limits.max_name_length) {
    throw new PackageReadError(
      'name_too_long',
      `The path ${truncate(normalized)} is longer than ${limits.max_name_length} characters.`,
      { entry: truncate(normalized), limit: limits.max_name_length },
    );
  }
  if (segments.length > limits.max_path_depth) {
    throw new PackageReadError(
      'path_too_deep',
      `The path ${normalized} is nested deeper than ${limits.max_path_depth} levels.`,
      { entry: normalized, limit: limits.max_path_depth },
    );
  }
  return normalized;
}

function outside(raw: string): PackageReadError {
  return new PackageReadError(
    'path_outside_package',
    `The entry ${truncate(raw)} points outside the package.`,
    { entry: truncate(raw) },
  );
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Packages are often zipped with their folder ("my-theme/theme.yaml"): when every
 * file sits under one top-level folder, that folder is dropped so manifests are
 * found at the root either way.
 */
export function stripCommonRoot(paths: readonly string[]): {
  root: string | null;
  strip: (path: string) => string;
} {
  const first = paths[0]?.split('/')[0];
  const shared = first !== undefined && paths.every((path) => path.startsWith(`${first}/`)) ? first : null;
  return {
    root: shared,
    strip: (path) => (shared === null ? path : path.slice(shared.length + 1)),
  };
}
