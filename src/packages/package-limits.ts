/**
 * Limits for a package picked by the user (a plugin or a theme). They are checked
 * against the archive's directory before anything is inflated, and again while
 * inflating, because a zip's declared sizes can lie.
 */
export interface PackageLimits {
  max_entries: number;
  max_entry_bytes: number;
  max_total_bytes: number;
  /** Uncompressed to compressed, checked for entries above `RATIO_FLOOR_BYTES`. */
  max_ratio: number;
  /** Folder levels, the file itself included (`a/b/c.css` is 3). */
  max_path_depth: number;
  /** Characters of the whole relative path. */
  max_name_length: number;
}

/** Themes and plugins are small: these leave room for fonts and a bundled server module. */
export const DEFAULT_PACKAGE_LIMITS: PackageLimits = Object.freeze({
  max_entries: 2_000,
  max_entry_bytes: 32 * 1024 * 1024,
  max_total_bytes: 64 * 1024 * 1024,
  max_ratio: 200,
  max_path_depth: 16,
  max_name_length: 255,
});

/** Small text files legitimately compress beyond any sane ratio (a CSS file of spaces). */
export const RATIO_FLOOR_BYTES = 1024 * 1024;

export function resolveLimits(limits: Partial<PackageLimits> = {}): PackageLimits {
  return { ...DEFAULT_PACKAGE_LIMITS, ...limits };
}
