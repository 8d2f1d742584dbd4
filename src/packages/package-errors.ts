export type PackageProblem =
  | 'not_an_archive'
  | 'path_outside_package'
  | 'symlink'
  | 'too_many_entries'
  | 'entry_too_large'
  | 'total_too_large'
  | 'ratio_too_high'
  | 'path_too_deep'
  | 'name_too_long'
  | 'duplicate_path'
  | 'manifest_missing'
  | 'manifest_invalid';

/**
 * Why a package was refused. Domain-neutral on purpose: the plugin and theme
 * services map each problem to their own contract code (THEME_RESOURCE_OUTSIDE_PACKAGE,
 * PAYLOAD_TOO_LARGE, ...), and keep `entry` and `limit` in the error details.
 */
export class PackageReadError extends Error {
  override readonly name = 'PackageReadError';
  readonly problem: PackageProblem;
  readonly entry: string | null;
  readonly limit: number | null;

  constructor(
    problem: PackageProblem,
    message: string,
    options: { entry?: string | null; limit?: number | null; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.problem = problem;
    this.entry = options.entry ?? null;
    this.limit = options.limit ?? null;
  }
}
