/**
 * A forgiving JSON reader for what small models write when asked for JSON:
 * trailing commas, single or curly quotes, unquoted keys, Python's
 * True/False/None, comments, missing commas between members, raw newlines in
 * strings and (for a whole text) brackets left unclosed at the end.
 */

export type LenientResult = { ok: true; value: unknown; end: number } | { ok: false; reason: string };

export interface LenientOptions {
  /** Close objects/arrays still open at the end of the text (a model that stopped one brace short). */
  autoClose?: boolean;
}

class ParseFailure extends Error {}

const QUOTES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\u201c': '\u201d',
  '\u2018': '\u2019',
  '`': '`',
};
const LITERALS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
  undefined: null,
};
const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '/': '/' };

class Reader {
  #at: number;
  readonly #text: string;
  readonly #autoClose: boolean;

  constructor(text: string, start: number, autoClose: boolean) {
    this.#text = text;
    this.#at = start;
    this.#autoClose = autoClose;
  }

  get at(): number {
    return this.#at;
  }

  fail(reason: string): never {
    throw new ParseFailure(`${reason} at ${this.#at}`);
  }

  skipSpace(): void {
    const text = this.#text;
    while (this.#at < text.length) {
      const char = text[this.#at]!;
      if (/\s/.test(char)) this.#at++;
      else if (text.startsWith('//', this.#at)) {
        const end = text.indexOf('\n', this.#at);
        this.#at = end === -1 ? text.length : end + 1;
      } else if (text.startsWith('/*', this.#at)) {
        const end = text.indexOf('*/', this.#at + 2);
        this.#at = end === -1 ? text.length : end + 2;
      } else break;
    }
  }

  peek(): string | undefined {
    this.skipSpace();
    return this.#text[this.#at];
  }

  value(depth = 0): unknown {
    if (depth > 64) this.fail('nesting too deep');
    const char = this.peek();
    if (char === undefined) this.fail('unexpected end');
    if (char === '{') return this.#object(depth);
    if (char === '[') return this.#array(depth);
    if (char in QUOTES) return this.#string();
    if (/[-+.\d]/.test(char)) return this.#number();
    const word = this.#word();
    if (word in LITERALS) return LITERALS[word];
    return this.fail(word ? `unexpected word "${word}"` : `unexpected "${char}"`);
  }

  #closeAtEnd(): boolean {
    return this.#autoClose && this.peek() === undefined;
  }

  #object(depth: number): Record<string, unknown> {
    this.#at++; // {
    const result: Record<string, unknown> = {};
    for (;;) {
      const char = this.peek();
      if (char === '}') {
        this.#at++;
        return result;
      }
      if (char === ',') {
        this.#at++; // stray or trailing comma
        continue;
      }
      if (this.#closeAtEnd()) return result;
      const key = char !== undefined && char in QUOTES ? this.#string() : this.#word();
      if (key === '') this.fail('expected a key');
      const colon = this.peek();
      if (colon !== ':' && colon !== '=') this.fail(`expected ":" after "${key}"`);
      this.#at++;
      if (this.#closeAtEnd()) this.fail(`no value for "${key}"`);
      result[key] = this.value(depth + 1);
    }
  }

  #array(depth: number): unknown[] {
    this.#at++; // [
    const result: unknown[] = [];
    for (;;) {
      const char = this.peek();
      if (char === ']') {
        this.#at++;
        return result;
      }
      if (char === ',') {
        this.#at++;
        continue;
      }
      if (this.#closeAtEnd()) return result;
      result.push(this.value(depth + 1));
    }
  }

  #string(): string {
    const text = this.#text;
    const open = text[this.#at]!;
    const close = QUOTES[open]!;
    this.#at++;
    let result = '';
    while (this.#at < text.length) {
      const char = text[this.#at]!;
      // An apostrophe inside a single-quoted string ('it's') is not its end.
      if (char === close && (close !== "'" || this.#endsValue(this.#at + 1))) {
        this.#at++;
        return result;
      }
      if (char === '\\') {
        const next = text[this.#at + 1];
        if (next === undefined) break;
        if (next === 'u' && /^[\da-fA-F]{4}$/.test(text.slice(this.#at + 2, this.#at + 6))) {
          result += String.fromCharCode(parseInt(text.slice(this.#at + 2, this.#at + 6), 16));
          this.#at += 6;
          continue;
        }
        result += ESCAPES[next] ?? next; // \" \' \\ and unknown escapes keep the character
        this.#at += 2;
        continue;
      }
      result += char;
      this.#at++;
    }
    return this.fail('unterminated string');
  }

  #endsValue(from: number): boolean {
    const next = /\S/.exec(this.#text.slice(from));
    return next === null || ',}]:'.includes(next[0]);
  }

  #number(): number {
    const match = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(this.#text.slice(this.#at));
    if (!match) this.fail('bad number');
    this.#at += match[0].length;
    return Number(match[0]);
  }

  #word(): string {
    const match = /^[A-Za-z_$][\w$-]*/.exec(this.#text.slice(this.#at));
    if (!match) return '';
    this.#at += match[0].length;
    return match[0];
  }
}

/** Reads one value starting at `start` (default: the first non-space character); `end` is where it stopped. */
export function parseLenientJsonAt(text: string, start = 0, options: LenientOptions = {}): LenientResult {
  const reader = new Reader(text, start, options.autoClose ?? false);
  try {
    const value = reader.value();
    return { ok: true, value, end: reader.at };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, reason: error.message };
    throw error;
  }
}

/** The whole text must be one value (surrounding space and comments allowed). */
export function parseLenientJson(text: string, options: LenientOptions = {}): LenientResult {
  const result = parseLenientJsonAt(text, 0, options);
  if (!result.ok) return result;
  const rest = text
    .slice(result.end)
    .replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')
    .trim();
  if (rest !== '') return { ok: false, reason: `unexpected text after the value at ${result.end}` };
  return result;
}
