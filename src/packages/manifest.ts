import { parse as parseYaml, YAMLError } from 'yaml';
import type { PackageContents } from './read-package';
import { PackageReadError } from './package-errors';

/** Manifests are small; a larger one is a mistake or an attack on the YAML parser. */
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * Why a manifest could not be read, in the words the plugin refusals already use
 * (`details.reason`), so a theme and a plugin are refused alike.
 */
export type ManifestReadReason =
  'manifest_missing' | 'manifest_too_large' | 'manifest_encoding' | 'manifest_yaml' | 'manifest_not_mapping';

/**
 * A manifest refusal that keeps what its author needs to fix it: the reason
 * and, for a syntax error, the parser's line and column (1-based). Still a
 * PackageReadError, so callers that only know the reader's problems go on working.
 */
export class ManifestReadError extends PackageReadError {
  readonly file: string;
  readonly reason: ManifestReadReason;
  readonly line: number | null;
  readonly column: number | null;

  constructor(
    reason: ManifestReadReason,
    message: string,
    options: { file: string; limit?: number; line?: number; column?: number; cause?: unknown },
  ) {
    super(reason === 'manifest_missing' ? 'manifest_missing' : 'manifest_invalid', message, {
      entry: options.file,
      limit: options.limit ?? null,
      cause: options.cause,
    });
    this.file = options.file;
    this.reason = reason;
    this.line = options.line ?? null;
    this.column = options.column ?? null;
  }
}

/**
 * The structured part of a manifest refusal, for an AppError's details:
 * `{ reason, file, line?, column? }`; empty for any other error.
 */
export function manifestProblemDetails(error: unknown): Record<string, string | number> {
  if (!(error instanceof ManifestReadError)) return {};
  return {
    reason: error.reason,
    file: error.file,
    ...(error.line !== null && { line: error.line }),
    ...(error.column !== null && { column: error.column }),
  };
}

/** The parser's message repeats the source with a caret below it; the first line says it all. */
function firstLine(message: string): string {
  return message.split('\n', 1)[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * Where a YAML error is. Something left open (a `[`, `{` or quote) is found only
 * where the parser expected its end: the start of the next line or the end of
 * the file. Placed there, `name: [unclosed` on line 2 read "line 3, column 1",
 * a line the author did not write; the end of the last line with text before it
 * is where the closing character is missing.
 */
function placeOf(error: YAMLError, text: string): { line: number; col: number } | undefined {
  const position = error.linePos?.[0];
  if (!position || position.col !== 1 || position.line <= 1) return position;
  if (error.code !== 'BAD_INDENT' && error.code !== 'MISSING_CHAR') return position;
  const lines = text.split(/\r?\n/);
  for (let line = position.line - 1; line >= 1; line -= 1) {
    const content = lines[line - 1]!.trimEnd();
    if (content.trim() !== '') return { line, col: content.length + 1 };
  }
  return position;
}

/**
 * The parsed manifest (YAML for `.yaml`/`.yml`, JSON otherwise). Shape checks
 * belong to the caller's schema: this only guarantees a plain object.
 */
export function readManifest(pkg: PackageContents, fileName: string): Record<string, unknown> {
  const bytes = pkg.files.get(fileName);
  if (bytes === undefined) {
    throw new ManifestReadError('manifest_missing', `${pkg.name} has no ${fileName} at its root.`, {
      file: fileName,
    });
  }
  if (bytes.byteLength > MAX_MANIFEST_BYTES) {
    throw new ManifestReadError('manifest_too_large', `${fileName} is larger than 256 KiB.`, {
      file: fileName,
      limit: MAX_MANIFEST_BYTES,
    });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (cause) {
    throw new ManifestReadError('manifest_encoding', `${fileName} is not UTF-8 text.`, {
      file: fileName,
      cause,
    });
  }
  let value: unknown;
  try {
    value = /\.ya?ml$/i.test(fileName)
      ? parseYaml(text, { maxAliasCount: 0, uniqueKeys: true })
      : JSON.parse(text);
  } catch (cause) {
    // A YAMLError knows where it stopped; JSON's SyntaxError and a refused alias do not.
    const position = cause instanceof YAMLError ? placeOf(cause, text) : undefined;
    const reason = cause instanceof Error ? firstLine(cause.message) : String(cause);
    throw new ManifestReadError(
      'manifest_yaml',
      position
        ? `${fileName} could not be parsed at line ${position.line}, column ${position.col}: ${reason}`
        : `${fileName} could not be parsed: ${reason}`,
      { file: fileName, cause, ...(position && { line: position.line, column: position.col }) },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ManifestReadError('manifest_not_mapping', `${fileName} must hold a mapping of fields.`, {
      file: fileName,
    });
  }
  return value as Record<string, unknown>;
}
