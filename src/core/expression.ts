/**
 * The app's one arithmetic language, shared by the agent's `math.evaluate` tool and
 * function plots: numbers, `+ - * / % ^` (and `**`), parentheses (and KaTeX's braces),
 * `|x|` for abs(x), unary signs, comparisons yielding 1 or 0, a fixed set of functions
 * and constants, and the variables a caller declares (`x` for plots). It is parsed by hand into a tree and interpreted; names are looked up
 * in Maps, never on objects, so `constructor`, `__proto__` or `globalThis` are
 * names outside the whitelist, not property access, and nothing is ever handed to
 * `eval` or `Function`. Input length and nesting depth are bounded so no input can
 * exhaust the stack.
 */

/**
 * `syntax`: malformed arithmetic (a missing operand, an unclosed parenthesis, a
 * character typed by slip such as a full-width "（" or a Greek letter).
 * `unsafe`: anything outside the whitelist grammar that reads as code (an unknown
 * name, property access, strings, statements) or over the size and depth limits.
 */
export type ExpressionErrorKind = 'syntax' | 'unsafe';

/**
 * What went wrong, for a caller that words it itself (the plot preview says it in
 * the user's language); `message` stays the English sentence the agent's tool returns.
 */
export type ExpressionErrorCode =
  | 'unexpectedCharacter'
  | 'unexpectedToken'
  | 'expectedClosingBracket'
  | 'missingClosingBracket'
  | 'expectedOpeningBracket'
  | 'missingOpeningBracket'
  | 'expectedOperand'
  | 'missingOperand'
  | 'nestedTooDeeply'
  | 'bracketProduct'
  | 'bracketExponent'
  | 'unknownName'
  | 'unknownNameOrVariable'
  | 'unknownNameGuess'
  | 'unknownFunction'
  | 'unknownFunctionGuess'
  | 'conditionalHint'
  | 'closingBrace'
  | 'missingOperator'
  | 'argumentCount'
  | 'argumentRange'
  | 'roundDigits'
  | 'badVariableName'
  | 'expressionTooLong'
  | 'emptyExpression'
  | 'internal';

/** The parts of the expression (or the grammar) a message quotes, by name. */
export type ExpressionErrorParams = Readonly<Record<string, string | number>>;

export class ExpressionError extends Error {
  override readonly name = 'ExpressionError';
  readonly kind: ExpressionErrorKind;
  /** 0-based character offset of the problem in the expression. */
  readonly position: number;
  readonly code: ExpressionErrorCode;
  readonly params: ExpressionErrorParams;

  constructor(
    message: string,
    position: number,
    kind: ExpressionErrorKind = 'syntax',
    code: ExpressionErrorCode = 'internal',
    params: ExpressionErrorParams = {},
  ) {
    super(message);
    this.position = position;
    this.kind = kind;
    this.code = code;
    this.params = params;
  }
}

export const MAX_EXPRESSION_LENGTH = 1_000;
export const MAX_EXPRESSION_DEPTH = 64;

type Comparison = '<' | '<=' | '>' | '>=';
type Operator = '+' | '-' | '*' | '/' | '%' | '^' | '(' | ')' | '{' | '}' | ',' | '|' | Comparison;

type Token =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'name'; value: string; position: number }
  | { kind: 'operator'; value: Operator; position: number }
  | { kind: 'end'; position: number };

interface MathFunction {
  minArgs: number;
  maxArgs: number;
  apply: (args: number[]) => number;
}

type ExpressionNode =
  | { kind: 'number'; value: number }
  | { kind: 'variable'; name: string }
  | { kind: 'negate'; operand: ExpressionNode }
  | {
      kind: 'binary';
      operator: '+' | '-' | '*' | '/' | '%' | '^';
      left: ExpressionNode;
      right: ExpressionNode;
    }
  | { kind: 'call'; fn: MathFunction; args: ExpressionNode[] }
  /** `a < b < c`: 1 when every comparison of the chain holds, else 0. */
  | { kind: 'compare'; operators: Comparison[]; operands: ExpressionNode[] };

const unary = (fn: (x: number) => number): MathFunction => ({
  minArgs: 1,
  maxArgs: 1,
  apply: ([x = NaN]) => fn(x),
});

function roundTo(value: number, digits = 0): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new ExpressionError('round() takes 0 to 15 whole decimal digits', 0, 'syntax', 'roundDigits');
  }
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}

/** Also what `|x|` reads as. */
const ABS = unary(Math.abs);

/** The unit step u(x) of signals courses: 1 from x = 0 on (so u(0) = 1), 0 before. */
const STEP = unary((x) => (Number.isNaN(x) ? NaN : x >= 0 ? 1 : 0));

/**
 * piecewise(condition1, value1, condition2, value2, …, otherwise): the value of the
 * first condition that holds (is not 0); without an `otherwise`, nothing (NaN, not
 * drawn) where none holds.
 */
const PIECEWISE: MathFunction = {
  minArgs: 2,
  maxArgs: 99,
  apply: (args) => {
    let index = 0;
    for (; index + 1 < args.length; index += 2) {
      const condition = args[index] ?? NaN;
      if (condition !== 0 && !Number.isNaN(condition)) return args[index + 1] ?? NaN;
    }
    return index < args.length ? (args[index] ?? NaN) : NaN;
  },
};

const FUNCTIONS: ReadonlyMap<string, MathFunction> = new Map([
  ['sin', unary(Math.sin)],
  ['cos', unary(Math.cos)],
  ['tan', unary(Math.tan)],
  ['asin', unary(Math.asin)],
  ['acos', unary(Math.acos)],
  ['atan', unary(Math.atan)],
  ['sinh', unary(Math.sinh)],
  ['cosh', unary(Math.cosh)],
  ['tanh', unary(Math.tanh)],
  ['sqrt', unary(Math.sqrt)],
  ['abs', ABS],
  ['sign', unary(Math.sign)],
  ['ln', unary(Math.log)],
  ['exp', unary(Math.exp)],
  ['floor', unary(Math.floor)],
  ['step', STEP],
  ['heaviside', STEP],
  ['piecewise', PIECEWISE],
  ['ceil', unary(Math.ceil)],
  // log(x) is base 10; log(x, base) any base.
  [
    'log',
    {
      minArgs: 1,
      maxArgs: 2,
      apply: ([x = NaN, base]) => (base === undefined ? Math.log10(x) : Math.log(x) / Math.log(base)),
    },
  ],
  ['round', { minArgs: 1, maxArgs: 2, apply: ([x = NaN, digits]) => roundTo(x, digits) }],
  ['min', { minArgs: 1, maxArgs: 100, apply: (args) => Math.min(...args) }],
  ['max', { minArgs: 1, maxArgs: 100, apply: (args) => Math.max(...args) }],
]);

const CONSTANTS: ReadonlyMap<string, number> = new Map([
  ['pi', Math.PI],
  ['e', Math.E],
]);

/**
 * Names from other notations (a textbook's u(t), a programmer's sgn or if) and the
 * function of ours that does the same, offered when such a name is used.
 */
const FUNCTION_ALIASES: ReadonlyMap<string, string> = new Map([
  ['u', 'step'],
  ['h', 'step'],
  ['theta', 'step'],
  ['unitstep', 'step'],
  ['sgn', 'sign'],
  ['arcsin', 'asin'],
  ['arccos', 'acos'],
  ['arctan', 'atan'],
  ['lg', 'log'],
  ['log10', 'log'],
  ['if', 'piecewise'],
  ['ifelse', 'piecewise'],
  ['where', 'piecewise'],
  ['rect', 'piecewise'],
]);

/** How a suggested function is shown: with arguments that show its use. */
function callExample(name: string, variable: string): string {
  return name === 'piecewise' ? `piecewise(${variable} < 0, 0, ${variable})` : `${name}(${variable})`;
}

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        (row[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length] ?? 0;
}

/** The known function an unknown one most likely meant: an alias, else one a typo or two away. */
function closestFunction(name: string): string | undefined {
  const lower = name.toLowerCase();
  const alias = FUNCTION_ALIASES.get(lower);
  if (alias) return alias;
  const allowed = lower.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const known of FUNCTIONS.keys()) {
    const distance = editDistance(lower, known);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: known, distance };
  }
  return best?.name;
}

/**
 * `xpi`, `ex`, `2pix` glue known names into one word. A name is never split while
 * parsing (`exp` must stay a function, `pi` a constant), so such a word is refused,
 * with the product (`x*pi`) or the call (`sinx` → `sin(x)`) it most likely meant.
 */
function gluedReading(name: string, values: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const parts = (rest: string): string[] | undefined => {
    if (rest === '') return [];
    for (const value of values) {
      if (!rest.startsWith(value.toLowerCase())) continue;
      const tail = parts(rest.slice(value.length));
      if (tail) return [value, ...tail];
    }
    return undefined;
  };
  const product = parts(lower);
  if (product && product.length > 1) return product.join('*');
  for (const fn of FUNCTIONS.keys()) {
    if (!lower.startsWith(fn) || lower.length === fn.length) continue;
    const argument = parts(lower.slice(fn.length));
    if (argument && argument.length > 0) return `${fn}(${argument.join('*')})`;
  }
  return undefined;
}

/** Function names of the grammar, for help texts. */
export const EXPRESSION_FUNCTIONS: readonly string[] = [...FUNCTIONS.keys()];
/** Constant names of the grammar (they cannot be declared as variables). */
export const EXPRESSION_CONSTANTS: readonly string[] = [...CONSTANTS.keys()];

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SYMBOLS: ReadonlyMap<string, Operator> = new Map([
  ['+', '+'],
  ['-', '-'],
  ['−', '-'],
  ['*', '*'],
  ['×', '*'],
  ['/', '/'],
  ['÷', '/'],
  ['%', '%'],
  ['^', '^'],
  ['(', '('],
  [')', ')'],
  // KaTeX habit: braces group as brackets do (`e^{-x}`), never as a call's brackets.
  ['{', '{'],
  ['}', '}'],
  ['<', '<'],
  ['>', '>'],
  ['≤', '<='],
  ['≥', '>='],
  [',', ','],
  ['|', '|'],
]);

/**
 * Whether an unknown character reads as code: ASCII punctuation a programming
 * language gives meaning to (`.` `[` `"` `=` `;` ...) is refused as unsafe, as the
 * contract asks; `#` (a comment habit) and any non-ASCII character (an IME's
 * full-width "（", "ω", "²") are typing slips, refused as syntax.
 */
function readsAsCode(character: string): boolean {
  return /^[\x21-\x7e]$/.test(character) && character !== '#';
}

const COMPARISONS: ReadonlySet<Operator> = new Set<Operator>(['<', '<=', '>', '>=']);

/** A comparison where a value should start (`<img …>`, `<script>`) reads as markup, not maths. */
function markupError(character: string, position: number): ExpressionError {
  return new ExpressionError(
    `Unexpected character "${character}" at ${position + 1}`,
    position,
    'unsafe',
    'unexpectedCharacter',
    { character },
  );
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < source.length) {
    const character = source[index] ?? '';
    if (/\s/.test(character)) {
      index += 1;
      continue;
    }
    const rest = source.slice(index);
    const number = NUMBER.exec(rest);
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), position: index });
      index += number[0].length;
      continue;
    }
    const name = NAME.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', value: name[0], position: index });
      index += name[0].length;
      continue;
    }
    // The letter students write for the constant: read as the name `pi`, so `2π` is a product.
    if (character === 'π') {
      tokens.push({ kind: 'name', value: 'pi', position: index });
      index += 1;
      continue;
    }
    if (rest.startsWith('**')) {
      tokens.push({ kind: 'operator', value: '^', position: index });
      index += 2;
      continue;
    }
    if (rest.startsWith('<=') || rest.startsWith('>=')) {
      tokens.push({ kind: 'operator', value: rest.startsWith('<') ? '<=' : '>=', position: index });
      index += 2;
      continue;
    }
    // The programmer's `cond ? a : b` is not maths syntax; say which form is.
    if (character === '?') {
      throw new ExpressionError(
        `Write a condition with piecewise, e.g. piecewise(x < 0, 0, x), not "?" and ":" (at ${index + 1})`,
        index,
        'unsafe',
        'conditionalHint',
      );
    }
    const symbol = SYMBOLS.get(character);
    if (symbol === undefined) {
      const endsValue = (token: Token | undefined): boolean =>
        token !== undefined &&
        (token.kind === 'number' ||
          token.kind === 'name' ||
          (token.kind === 'operator' && [')', '}', '|'].includes(token.value)));
      const markup = tokens.find(
        (token, at) =>
          token.kind === 'operator' && COMPARISONS.has(token.value) && !endsValue(tokens[at - 1]),
      );
      // `<img src=x …>`: the "<" where a value should start is the first thing wrong, not the "=".
      if (markup && markup.kind === 'operator') throw markupError(markup.value, markup.position);
      throw new ExpressionError(
        `Unexpected character "${character}" at ${index + 1}`,
        index,
        readsAsCode(character) ? 'unsafe' : 'syntax',
        'unexpectedCharacter',
        { character },
      );
    }
    tokens.push({ kind: 'operator', value: symbol, position: index });
    index += 1;
  }
  tokens.push({ kind: 'end', position: source.length });
  return tokens;
}

/**
 * Grammar (lowest precedence first; `^` is right-associative and binds tighter
 * than a unary sign, so -2^2 = -4 and 2^-1 = 0.5):
 *   comparison := expression (('<' | '<=' | '>' | '>=') expression)*   (1 or 0; `0 < x < 1` is a chain)
 *   expression := term (('+' | '-') term)*
 *   term       := signed (('*' | '/' | '%')? signed)*   (no sign: implicit '*', see #juxtaposed)
 *   signed     := ('+' | '-') signed | power
 *   power      := primary ('^' signed)?
 *   primary    := number | constant | variable
 *               | function '(' comparison (',' comparison)* ')' | '(' comparison ')'
 *               | '{' comparison '}'                          (a group, as in KaTeX's e^{-x})
 *               | '|' comparison '|'                          (abs, as on a blackboard)
 * A bar after a value closes the innermost open `|`; outside any, it opens one
 * multiplied in (`2|x|`), so `|x - |y||` nests.
 */
class Parser {
  readonly #tokens: Token[];
  readonly #variables: ReadonlySet<string>;
  #index = 0;
  #depth = 0;
  /** How many `|x|` are open around the token being read. */
  #openBars = 0;
  /** Token indices of bars that closed an abs: a value ends there, as after ")". */
  readonly #closingBars = new Set<number>();
  /** `^` nodes written without brackets around them, which a juxtaposed factor may not follow. */
  readonly #barePowers = new WeakSet<ExpressionNode>();
  /** Token index of each closing ")" or "}" to that of the bracket it closes. */
  readonly #groupOpenings = new Map<number, number>();

  constructor(tokens: Token[], variables: ReadonlySet<string>) {
    this.#tokens = tokens;
    this.#variables = variables;
  }

  parse(): ExpressionNode {
    const bars = this.#tokens.filter((token) => token.kind === 'operator' && token.value === '|');
    const lone = bars.length % 2 === 1 ? bars[bars.length - 1] : undefined;
    if (lone) throw this.#unmatchedBar(lone);
    const tree = this.#comparison();
    const next = this.#peek();
    if (next.kind !== 'end') throw this.#unexpected(next);
    return tree;
  }

  #peek(): Token {
    return this.#tokens[this.#index] ?? { kind: 'end', position: 0 };
  }

  #next(): Token {
    const token = this.#peek();
    this.#index += 1;
    return token;
  }

  #isOperator(value: Operator): boolean {
    const token = this.#peek();
    return token.kind === 'operator' && token.value === value;
  }

  #expect(value: '(' | ')' | '}', name = ''): void {
    const token = this.#next();
    if (token.kind !== 'operator' || token.value !== value) throw this.#unexpected(token, value, name);
  }

  /** `expected`: what the grammar needed there; `name`: the function before a missing "(". */
  #unexpected(token: Token, expected?: '(' | ')' | '}' | 'operand', name = ''): ExpressionError {
    if (expected === '}') {
      return new ExpressionError(
        `A "{" is not closed by "}" at ${token.position + 1}`,
        token.position,
        'syntax',
        'closingBrace',
      );
    }
    // `2 3`, `pi 2`, `sin(x)2`: a value follows a value; a missing ")" is rarely what was meant.
    const at = this.#tokens.indexOf(token);
    const before = this.#tokens[at - 1];
    if (
      (expected === undefined || expected === ')') &&
      token.kind === 'number' &&
      before &&
      before.kind !== 'end' &&
      this.#endsValue(at - 1)
    ) {
      return new ExpressionError(
        `Put "*" between "${String(before.value)}" and "${token.value}" at ${token.position + 1}`,
        token.position,
        'syntax',
        'missingOperator',
        { before: String(before.value), found: String(token.value) },
      );
    }
    const found =
      token.kind === 'end'
        ? 'the end of the expression'
        : `"${String(token.value)}" at ${token.position + 1}`;
    const wanted = expected === 'operand' ? 'a number, a name or "("' : `"${expected}"`;
    const atEnd = token.kind === 'end';
    const code: ExpressionErrorCode =
      expected === undefined
        ? 'unexpectedToken'
        : expected === ')'
          ? atEnd
            ? 'missingClosingBracket'
            : 'expectedClosingBracket'
          : expected === '('
            ? atEnd
              ? 'missingOpeningBracket'
              : 'expectedOpeningBracket'
            : atEnd
              ? 'missingOperand'
              : 'expectedOperand';
    return new ExpressionError(
      expected ? `Expected ${wanted} but found ${found}` : `Unexpected ${found}`,
      token.position,
      'syntax',
      code,
      { found: token.kind === 'end' ? '' : String(token.value), name },
    );
  }

  #unmatchedBar(bar: Token): ExpressionError {
    return new ExpressionError(
      `Unmatched "|" at ${bar.position + 1}; write |x| or abs(x)`,
      bar.position,
      'syntax',
      'unexpectedToken',
      { found: '|', name: '' },
    );
  }

  #nested<T>(parse: () => T): T {
    if (++this.#depth > MAX_EXPRESSION_DEPTH) {
      throw new ExpressionError(
        'The expression is nested too deeply',
        this.#peek().position,
        'unsafe',
        'nestedTooDeeply',
      );
    }
    try {
      return parse();
    } finally {
      this.#depth -= 1;
    }
  }

  #expression(): ExpressionNode {
    return this.#nested(() => {
      let tree = this.#term();
      while (this.#isOperator('+') || this.#isOperator('-')) {
        const operator = this.#next();
        const right = this.#term();
        tree = {
          kind: 'binary',
          operator: operator.kind === 'operator' && operator.value === '+' ? '+' : '-',
          left: tree,
          right,
        };
      }
      return tree;
    });
  }

  #term(): ExpressionNode {
    let factor = this.#signed();
    let tree = factor;
    let divided = false;
    for (;;) {
      if (this.#isOperator('*') || this.#isOperator('/') || this.#isOperator('%')) {
        const operator = this.#next();
        if (operator.kind !== 'operator') break;
        divided ||= operator.value !== '*';
        factor = this.#signed();
        tree = {
          kind: 'binary',
          operator: operator.value === '*' ? '*' : operator.value === '/' ? '/' : '%',
          left: tree,
          right: factor,
        };
        continue;
      }
      const next = this.#peek();
      if (!this.#juxtaposed()) break;
      // Students write `1/2x` meaning 1/(2x) and `e^2x` meaning e^(2x); reading either
      // another way would draw a different curve without a word, so both are refused.
      if (divided) {
        throw new ExpressionError(
          `Write the product after "/" or "%" in brackets, e.g. 1/(2x) or (1/2)x, at ${next.position + 1}`,
          next.position,
          'syntax',
          'bracketProduct',
        );
      }
      if (this.#endsInPower(factor)) {
        throw new ExpressionError(
          `Write the exponent in brackets, e.g. e^(2x) or (e^2)x, at ${next.position + 1}`,
          next.position,
          'syntax',
          'bracketExponent',
        );
      }
      factor = this.#signed();
      tree = { kind: 'binary', operator: '*', left: tree, right: factor };
    }
    return tree;
  }

  /** Whether token `index` ends a value: a number, a constant or variable, `)`, `}` or an abs's closing bar. */
  #endsValue(index: number): boolean {
    const token = this.#tokens[index];
    if (!token) return false;
    if (token.kind === 'number' || token.kind === 'name') return true;
    return (
      token.kind === 'operator' &&
      (token.value === ')' || token.value === '}' || this.#closingBars.has(index))
    );
  }

  /**
   * Whether the next token multiplies what came before without a sign, as on a
   * graphing calculator: `2x`, `2sin(x)`, `3(x+1)`, `x(x-1)`, `(x+1)(x-1)`,
   * `(x+1)x`, `2pi x`, `2πx`, `pi x`, `a x`. A name before it is always a value
   * here (a function's name is followed by its "("). Two numbers side by side
   * (`2 3`) stay an error, more likely a typo than a product, and a name is never
   * split: `xpi` is one (unknown) name, see gluedReading.
   */
  #juxtaposed(): boolean {
    const next = this.#peek();
    if (!this.#endsValue(this.#index - 1)) return false;
    if (next.kind === 'name') return true;
    if (next.kind === 'operator' && (next.value === '(' || next.value === '{')) return true;
    // Inside `|...|` a bar after a value closes it; only outside does one start a factor.
    if (next.kind === 'operator' && next.value === '|') return this.#openBars === 0;
    return false;
  }

  #endsInPower(node: ExpressionNode): boolean {
    if (node.kind === 'negate') return this.#endsInPower(node.operand);
    return this.#barePowers.has(node);
  }

  #signed(): ExpressionNode {
    return this.#nested(() => {
      if (this.#isOperator('-')) {
        this.#next();
        return { kind: 'negate', operand: this.#signed() };
      }
      if (this.#isOperator('+')) {
        this.#next();
        return this.#signed();
      }
      return this.#power();
    });
  }

  #power(): ExpressionNode {
    const base = this.#primary();
    if (!this.#isOperator('^')) return base;
    this.#next();
    const first = this.#index;
    const right = this.#signed();
    const node: ExpressionNode = { kind: 'binary', operator: '^', left: base, right };
    // `e^(-x)cos(x)`, `e^{-x}cos(x)`: an exponent that is one pair of brackets ends
    // where they close, so a factor after it is plainly not part of it.
    if (this.#groupOpenings.get(this.#index - 1) !== first) this.#barePowers.add(node);
    return node;
  }

  #primary(): ExpressionNode {
    const token = this.#next();
    if (token.kind === 'number') return { kind: 'number', value: token.value };
    if (token.kind === 'operator' && (token.value === '(' || token.value === '{')) {
      const opening = this.#index - 1;
      const tree = this.#comparison();
      this.#expect(token.value === '(' ? ')' : '}');
      this.#groupOpenings.set(this.#index - 1, opening);
      // `(e^2)x` is what the brackets are for: no longer a bare power.
      this.#barePowers.delete(tree);
      return tree;
    }
    if (token.kind === 'operator' && token.value === '|') {
      this.#openBars += 1;
      const inner = this.#comparison();
      const close = this.#next();
      if (close.kind !== 'operator' || close.value !== '|') throw this.#unmatchedBar(token);
      this.#openBars -= 1;
      this.#closingBars.add(this.#index - 1);
      return { kind: 'call', fn: ABS, args: [inner] };
    }
    if (token.kind === 'name') {
      if (this.#variables.has(token.value)) return { kind: 'variable', name: token.value };
      const name = token.value.toLowerCase();
      const fn = FUNCTIONS.get(name);
      if (fn) return this.#call(token.value, fn);
      const constant = CONSTANTS.get(name);
      if (constant !== undefined) return { kind: 'number', value: constant };
      const variables = [...this.#variables];
      const guess = this.#unknownNameGuess(token.value, token.position, variables);
      if (guess) throw guess;
      throw new ExpressionError(
        `Unknown name "${token.value}" at ${token.position + 1}. Known functions: ${EXPRESSION_FUNCTIONS.join(', ')}; constants: pi, e` +
          (variables.length > 0 ? `; variables: ${variables.join(', ')}` : ''),
        token.position,
        'unsafe',
        variables.length > 0 ? 'unknownNameOrVariable' : 'unknownName',
        {
          name: token.value,
          functions: EXPRESSION_FUNCTIONS.join(', '),
          constants: EXPRESSION_CONSTANTS.join(', '),
          variables: variables.join(', '),
        },
      );
    }
    if (token.kind === 'operator' && COMPARISONS.has(token.value))
      throw markupError(token.value, token.position);
    throw this.#unexpected(token, 'operand');
  }

  /** The refusal of an unknown name that says what was most likely meant, when something was. */
  #unknownNameGuess(name: string, position: number, variables: string[]): ExpressionError | undefined {
    const variable = variables[0] ?? 'x';
    if (this.#isOperator('(')) {
      const meant = closestFunction(name);
      const functions = EXPRESSION_FUNCTIONS.join(', ');
      return meant
        ? new ExpressionError(
            `Unknown function "${name}" at ${position + 1}; did you mean ${callExample(meant, variable)}?`,
            position,
            'unsafe',
            'unknownFunctionGuess',
            { name, meant: callExample(meant, variable) },
          )
        : new ExpressionError(
            `Unknown function "${name}" at ${position + 1}. Known functions: ${functions}`,
            position,
            'unsafe',
            'unknownFunction',
            { name, functions },
          );
    }
    // Longest first, so `pi` is read before a variable `p`.
    const values = [...variables, ...EXPRESSION_CONSTANTS].sort((a, b) => b.length - a.length);
    const meant = gluedReading(name, values);
    if (meant === undefined) return undefined;
    return new ExpressionError(
      `Unknown name "${name}" at ${position + 1}; did you mean ${meant}?`,
      position,
      'unsafe',
      'unknownNameGuess',
      { name, meant },
    );
  }

  #comparison(): ExpressionNode {
    const first = this.#expression();
    const operators: Comparison[] = [];
    const operands: ExpressionNode[] = [first];
    for (;;) {
      const token = this.#peek();
      if (token.kind !== 'operator' || !COMPARISONS.has(token.value)) break;
      this.#next();
      operators.push(token.value as Comparison);
      operands.push(this.#expression());
    }
    return operators.length === 0 ? first : { kind: 'compare', operators, operands };
  }

  #call(name: string, fn: MathFunction): ExpressionNode {
    const open = this.#peek();
    this.#expect('(', name);
    const args: ExpressionNode[] = [];
    if (!this.#isOperator(')')) {
      args.push(this.#comparison());
      while (this.#isOperator(',')) {
        this.#next();
        args.push(this.#comparison());
      }
    }
    this.#expect(')');
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const range = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      throw new ExpressionError(
        `${name}() takes ${range} argument(s), got ${args.length}`,
        open.position,
        'syntax',
        fn.minArgs === fn.maxArgs ? 'argumentCount' : 'argumentRange',
        { name, count: fn.minArgs, min: fn.minArgs, max: fn.maxArgs, got: args.length },
      );
    }
    return { kind: 'call', fn, args };
  }
}

function evaluateNode(tree: ExpressionNode, scope: ReadonlyMap<string, number>): number {
  switch (tree.kind) {
    case 'number':
      return tree.value;
    case 'variable':
      return scope.get(tree.name) ?? NaN;
    case 'negate':
      return -evaluateNode(tree.operand, scope);
    case 'call':
      return tree.fn.apply(tree.args.map((arg) => evaluateNode(arg, scope)));
    case 'compare': {
      const values = tree.operands.map((operand) => evaluateNode(operand, scope));
      const holds = tree.operators.every((operator, index) => {
        const left = values[index] ?? NaN;
        const right = values[index + 1] ?? NaN;
        return operator === '<'
          ? left < right
          : operator === '<='
            ? left <= right
            : operator === '>'
              ? left > right
              : left >= right;
      });
      return holds ? 1 : 0;
    }
    case 'binary': {
      const left = evaluateNode(tree.left, scope);
      const right = evaluateNode(tree.right, scope);
      switch (tree.operator) {
        case '+':
          return left + right;
        case '-':
          return left - right;
        case '*':
          return left * right;
        case '/':
          return left / right;
        case '%':
          return left % right;
        case '^':
          return left ** right;
        default: {
          const unknown: never = tree.operator;
          throw new ExpressionError(`Unknown operator ${String(unknown)}`, 0);
        }
      }
    }
    default: {
      const unknown: never = tree;
      throw new ExpressionError(`Unknown expression node ${String(unknown)}`, 0);
    }
  }
}

export interface CompiledExpression {
  readonly source: string;
  readonly variables: readonly string[];
  /** Values for the declared variables; a missing one is NaN. */
  evaluate(values?: Readonly<Record<string, number>>): number;
}

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses `source` once for repeated evaluation (a plot samples it hundreds of
 * times). Throws ExpressionError. `variables` are the only free names allowed.
 */
export function compileExpression(
  source: string,
  options: { variables?: readonly string[] } = {},
): CompiledExpression {
  const variables = options.variables ?? [];
  for (const name of variables) {
    if (!VARIABLE_NAME.test(name) || FUNCTIONS.has(name.toLowerCase()) || CONSTANTS.has(name.toLowerCase())) {
      throw new ExpressionError(`"${name}" cannot be a variable name`, 0, 'unsafe', 'badVariableName', {
        name,
      });
    }
  }
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(
      `The expression is longer than ${MAX_EXPRESSION_LENGTH} characters`,
      0,
      'unsafe',
      'expressionTooLong',
      { max: MAX_EXPRESSION_LENGTH },
    );
  }
  if (source.trim() === '')
    throw new ExpressionError('The expression is empty', 0, 'syntax', 'emptyExpression');
  const tree = new Parser(tokenize(source), new Set(variables)).parse();
  return {
    source,
    variables,
    evaluate(values = {}) {
      // Copied into a Map by own keys only: nothing reachable through a prototype.
      const scope = new Map<string, number>();
      for (const name of variables) {
        if (Object.hasOwn(values, name)) scope.set(name, Number(values[name]));
      }
      return evaluateNode(tree, scope);
    },
  };
}

/** Evaluates an arithmetic expression without variables; throws ExpressionError on anything else. */
export function evaluateExpression(source: string): number {
  return compileExpression(source).evaluate();
}
