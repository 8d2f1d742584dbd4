// Reads the source text of a few top-level members of a JSON object without
// parsing it: JSON.parse turns 1234567890123456789 into 1234567890123456800
// (Node 20 has no access to a number's source text), and frames that are too
// big or broken to parse still name the request they belong to.
//
// One pass, no recursion, strings skipped with indexOf: linear in the frame,
// whatever it nests or contains. Tolerant: a truncated or broken frame yields
// whatever members came before the damage.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const BOM = 0xfeff;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** Index just past the string that opens at `start`, or -1 when it never closes. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** End of a bare literal (number, true, false, null): the next delimiter. */
function literalEnd(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === COMMA || code === CLOSE_BRACE || code === CLOSE_BRACKET || isSpace(code)) break;
    index++;
  }
  return index;
}

function memberName(raw: string): string | undefined {
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}

/**
 * The source text (a string keeps its quotes) of the named top-level members
 * whose values are strings, numbers or literals; the last one wins, as in
 * JSON.parse. A member whose value is an object or array is left out.
 */
export function topLevelMembers(text: string, names: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  let index = 0;
  while (index < text.length && (isSpace(text.charCodeAt(index)) || text.charCodeAt(index) === BOM)) index++;
  if (text.charCodeAt(index) !== OPEN_BRACE) return found;
  index++;

  let depth = 1;
  /** Where the top-level object is, between its members. */
  let expect: 'name' | 'colon' | 'value' | 'comma' = 'name';
  let name: string | undefined;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) {
      index++;
      continue;
    }
    if (code === QUOTE) {
      const end = stringEnd(text, index);
      if (end < 0) break;
      if (depth === 1) {
        if (expect === 'name') {
          name = memberName(text.slice(index, end));
          expect = 'colon';
        } else if (expect === 'value') {
          if (name !== undefined && names.includes(name)) found.set(name, text.slice(index, end));
          expect = 'comma';
        }
      }
      index = end;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === 1 && expect === 'value' && name !== undefined) found.delete(name);
      depth++;
      index++;
      continue;
    }
    if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) break;
      if (depth === 1) expect = 'comma';
      index++;
      continue;
    }
    if (depth === 1) {
      if (code === COLON && expect === 'colon') expect = 'value';
      else if (code === COMMA) expect = 'name';
      else if (expect === 'value') {
        const end = literalEnd(text, index);
        if (name !== undefined && names.includes(name)) found.set(name, text.slice(index, end));
        expect = 'comma';
        index = end;
        continue;
      }
    }
    index++;
  }
  return found;
}
