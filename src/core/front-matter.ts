import { parseDocument, stringify } from 'yaml';

/**
 * YAML front matter: the `---` fenced mapping at the very top of a Markdown
 * file, as written by Obsidian, Jekyll, Hugo and most note exporters.
 */

export type ArchiveFormatErrorReason = 'invalid_zip' | 'invalid_front_matter' | 'not_utf8' | 'duplicate_path';

/**
 * Why an import or export could not proceed. It lives here rather than in
 * markdown-archive.ts so that front matter parsing can throw it without an
 * import cycle; markdown-archive.ts re-exports it.
 */
export class ArchiveFormatError extends Error {
  override readonly name = 'ArchiveFormatError';
  readonly reason: ArchiveFormatErrorReason;
  readonly path?: string;

  constructor(
    reason: ArchiveFormatErrorReason,
    message: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    if (options.path !== undefined) this.path = options.path;
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
  // parseDocument instead of parse: parse() logs warnings through console and
  // we want every problem reported as one typed error instead.
  const document = parseDocument(yamlText, { uniqueKeys: true, prettyErrors: true });
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

/** Throws ArchiveFormatError('invalid_front_matter') when the fenced YAML does not parse. */
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
