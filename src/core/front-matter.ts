import { isMap, isScalar, parseDocument, stringify, visit } from 'yaml';

/**
 * YAML front matter: the `---` fenced mapping at the very top of a Markdown
 * file, as written by Obsidian, Jekyll, Hugo and most note exporters.
 */

export type ArchiveFormatErrorReason =
  | 'invalid_zip'
  | 'invalid_front_matter'
  | 'front_matter_too_large'
  | 'not_utf8'
  | 'duplicate_path'
  | 'too_many_entries'
  | 'entry_too_large'
  | 'total_too_large'
  | 'ratio_too_high'
  | 'path_too_deep'
  | 'name_too_long';

/**
 * Why an import or export could not proceed. It lives here rather than in
 * markdown-archive.ts so that front matter parsing can throw it without an
 * import cycle; markdown-archive.ts re-exports it.
 */
export class ArchiveFormatError extends Error {
  override readonly name = 'ArchiveFormatError';
  readonly reason: ArchiveFormatErrorReason;
  readonly path?: string;
  /** The limit that was exceeded, for the size and shape reasons. */
  readonly limit?: number;

  constructor(
    reason: ArchiveFormatErrorReason,
    message: string,
    options: { path?: string; limit?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.path !== undefined) this.path = options.path;
    if (options.limit !== undefined) this.limit = options.limit;
  }
}

export interface FrontMatterSplit {
  data: Record<string, unknown>;
  body: string;
  hasFrontMatter: boolean;
}

interface FrontMatterLocation {
  yaml: string;
  /** Offset of the first character after the closing fence's line ending. */
  bodyStart: number;
}

const OPENING_FENCE = /^\uFEFF?---[ \t]*(?:\r\n|\n|\r)/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*$/;
const BLANK = /^[ \t]*$/;
const BLANK_TEXT = /^\s*$/;
/**
 * Real front matter is a few hundred bytes; 256 KiB leaves room for long
 * abstracts and tag lists while keeping a parse well under a second. Larger
 * blocks are refused before the YAML parser sees them.
 */
export const MAX_FRONT_MATTER_CHARS = 256 * 1024;

/**
 * Finds the fenced region without judging its YAML. A `---` followed by a blank
 * line is a thematic break, not front matter: no exporter writes a blank first
 * line, while people often put one after a rule.
 */
function locateFrontMatter(source: string): FrontMatterLocation | null {
  const opening = OPENING_FENCE.exec(source);
  if (!opening) return null;
  const yamlStart = opening[0].length;
  let lineStart = yamlStart;
  for (let first = true; ; first = false) {
    const lineBreak = /\r\n|\n|\r/g;
    lineBreak.lastIndex = lineStart;
    const found = lineBreak.exec(source);
    const lineEnd = found ? found.index : source.length;
    const line = source.slice(lineStart, lineEnd);
    if (CLOSING_FENCE.test(line)) {
      return {
        yaml: source.slice(yamlStart, lineStart),
        bodyStart: found ? lineEnd + found[0].length : source.length,
      };
    }
    if (first && BLANK.test(line)) return null;
    if (!found) return null;
    lineStart = lineEnd + found[0].length;
  }
}

/**
 * Returns the mapping, or null when the fenced text is valid YAML but not a
 * mapping: `---\nSome words\n---` is a rule plus a setext heading to a Markdown
 * reader, and keeping it in the body loses nothing. Comment-only text counts as
 * "not a mapping" for the same reason (`---\n# Title\n---`).
 */
function parseFrontMatterData(yamlText: string): Record<string, unknown> | null {
  if (yamlText.length > MAX_FRONT_MATTER_CHARS) {
    throw new ArchiveFormatError(
      'front_matter_too_large',
      `The front matter is ${yamlText.length} characters long; at most ${MAX_FRONT_MATTER_CHARS} are read.`,
      { limit: MAX_FRONT_MATTER_CHARS },
    );
  }
  // parseDocument instead of parse: parse() logs warnings through console and
  // we want every problem reported as one typed error instead. The library's
  // own duplicate-key check compares every pair of keys (quadratic), so
  // duplicates are found here with one set per mapping instead.
  const document = parseDocument(yamlText, { uniqueKeys: false, prettyErrors: true });
  const duplicate = firstDuplicateKey(document);
  if (duplicate !== null) {
    throw new ArchiveFormatError(
      'invalid_front_matter',
      `Invalid YAML front matter: the key ${duplicate} appears twice.`,
    );
  }
  const firstError = document.errors[0];
  if (firstError) {
    throw new ArchiveFormatError('invalid_front_matter', `Invalid YAML front matter: ${firstError.message}`, {
      cause: firstError,
    });
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    // Alias bombs and similar are rejected by the yaml library while converting.
    throw new ArchiveFormatError('invalid_front_matter', 'Invalid YAML front matter.', { cause });
  }
  if (value === null || value === undefined) return BLANK_TEXT.test(yamlText) ? {} : null;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return null;
}

function firstDuplicateKey(document: ReturnType<typeof parseDocument>): string | null {
  let duplicate: string | null = null;
  visit(document, {
    Map(_, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key: unknown = isScalar(pair.key) ? pair.key.value : String(pair.key);
        if (seen.has(key)) {
          duplicate = String(key);
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return duplicate;
}

/**
 * Throws ArchiveFormatError('invalid_front_matter') when the fenced YAML does
 * not parse, 'front_matter_too_large' above MAX_FRONT_MATTER_CHARS.
 */
export function splitFrontMatter(source: string): FrontMatterSplit {
  const location = locateFrontMatter(source);
  const data = location ? parseFrontMatterData(location.yaml) : null;
  if (!location || !data) return { data: {}, body: source, hasFrontMatter: false };
  return { data, body: source.slice(location.bodyStart), hasFrontMatter: true };
}

/**
 * Length of the front matter (fences included) at the start of `source`, 0 when
 * there is none. Never throws: the block parser calls it while the user types,
 * and a half-written front matter is still front matter, not note content.
 */
export function frontMatterLength(source: string): number {
  const location = locateFrontMatter(source);
  if (!location) return 0;
  try {
    return parseFrontMatterData(location.yaml) ? location.bodyStart : 0;
  } catch {
    return location.bodyStart;
  }
}

/** The body is appended untouched, so `splitFrontMatter(joinFrontMatter(d, b)).body === b`. */
export function joinFrontMatter(data: Record<string, unknown>, body: string): string {
  // No folding: a folded line could in principle start with `---` or `...` and
  // end the front matter early; one value per line also diffs better.
  const yamlText = stringify(data, { lineWidth: 0, minContentWidth: 0 });
  return `---\n${yamlText.endsWith('\n') ? yamlText : `${yamlText}\n`}---\n${body}`;
}
