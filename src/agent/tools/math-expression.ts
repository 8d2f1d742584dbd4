/**
 * A small arithmetic language for `math.evaluate`, parsed by hand: numbers,
 * `+ - * / % ^` (and `**`), parentheses, unary signs, a fixed set of functions
 * and constants. Names are looked up in Maps, never on objects, so inputs such
 * as `constructor`, `__proto__` or `alert(1)` are unknown names, not property
 * access; nothing is ever handed to `eval` or `Function`.
 */

export class MathExpressionError extends Error {
  override readonly name = 'MathExpressionError';
  /** 0-based character offset of the problem in the expression. */
  readonly position: number;

  constructor(message: string, position: number) {
    super(message);
    this.position = position;
  }
}

export const MAX_EXPRESSION_LENGTH = 1_000;
const MAX_DEPTH = 64;

type Token =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'name'; value: string; position: number }
  | { kind: 'operator'; value: '+' | '-' | '*' | '/' | '%' | '^' | '(' | ')' | ','; position: number }
  | { kind: 'end'; position: number };

interface MathFunction {
  minArgs: number;
  maxArgs: number;
  apply: (args: number[]) => number;
}

const unary = (fn: (x: number) => number): MathFunction => ({
  minArgs: 1,
  maxArgs: 1,
  apply: ([x = NaN]) => fn(x),
});

function roundTo(value: number, digits = 0): number {
  if (!Number.isInteger(digits) || digits < 0 || digits > 15) {
    throw new MathExpressionError('round() takes 0 to 15 whole decimal digits', 0);
  }
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON * Math.sign(value)) * factor) / factor;
}

const FUNCTIONS: ReadonlyMap<string, MathFunction> = new Map([
  ['sin', unary(Math.sin)],
  ['cos', unary(Math.cos)],
  ['tan', unary(Math.tan)],
  ['sqrt', unary(Math.sqrt)],
  ['abs', unary(Math.abs)],
  ['ln', unary(Math.log)],
  ['exp', unary(Math.exp)],
  ['floor', unary(Math.floor)],
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

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const SYMBOLS: Record<string, Extract<Token, { kind: 'operator' }>['value']> = {
  '+': '+',
  '-': '-',
  '−': '-',
  '*': '*',
  '×': '*',
  '/': '/',
  '÷': '/',
  '%': '%',
  '^': '^',
  '(': '(',
  ')': ')',
  ',': ',',
};

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
    if (rest.startsWith('**')) {
      tokens.push({ kind: 'operator', value: '^', position: index });
      index += 2;
      continue;
    }
    const symbol = SYMBOLS[character];
    if (symbol === undefined || !Object.hasOwn(SYMBOLS, character)) {
      throw new MathExpressionError(`Unexpected character "${character}" at ${index + 1}`, index);
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
 *   expression := term (('+' | '-') term)*
 *   term       := signed (('*' | '/' | '%') signed)*
 *   signed     := ('+' | '-') signed | power
 *   power      := primary ('^' signed)?
 *   primary    := number | constant | function '(' expression (',' expression)* ')' | '(' expression ')'
 */
class Parser {
  readonly #tokens: Token[];
  #index = 0;
  #depth = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  parse(): number {
    const value = this.#expression();
    const next = this.#peek();
    if (next.kind !== 'end') throw this.#unexpected(next);
    return value;
  }

  #peek(): Token {
    return this.#tokens[this.#index] ?? { kind: 'end', position: 0 };
  }

  #next(): Token {
    const token = this.#peek();
    this.#index += 1;
    return token;
  }

  #isOperator(value: string): boolean {
    const token = this.#peek();
    return token.kind === 'operator' && token.value === value;
  }

  #expect(value: string): void {
    const token = this.#next();
    if (token.kind !== 'operator' || token.value !== value) throw this.#unexpected(token, `"${value}"`);
  }

  #unexpected(token: Token, expected?: string): MathExpressionError {
    const found =
      token.kind === 'end'
        ? 'the end of the expression'
        : `"${String(token.value)}" at ${token.position + 1}`;
    return new MathExpressionError(
      expected ? `Expected ${expected} but found ${found}` : `Unexpected ${found}`,
      token.position,
    );
  }

  #nested<T>(parse: () => T): T {
    if (++this.#depth > MAX_DEPTH) {
      throw new MathExpressionError('The expression is nested too deeply', this.#peek().position);
    }
    try {
      return parse();
    } finally {
      this.#depth -= 1;
    }
  }

  #expression(): number {
    return this.#nested(() => {
      let value = this.#term();
      while (this.#isOperator('+') || this.#isOperator('-')) {
        const operator = this.#next();
        const right = this.#term();
        value = operator.kind === 'operator' && operator.value === '+' ? value + right : value - right;
      }
      return value;
    });
  }

  #term(): number {
    let value = this.#signed();
    while (this.#isOperator('*') || this.#isOperator('/') || this.#isOperator('%')) {
      const operator = this.#next();
      const right = this.#signed();
      if (operator.kind !== 'operator') break;
      if (operator.value === '*') value *= right;
      else if (operator.value === '/') value /= right;
      else value %= right;
    }
    return value;
  }

  #signed(): number {
    return this.#nested(() => {
      if (this.#isOperator('-')) {
        this.#next();
        return -this.#signed();
      }
      if (this.#isOperator('+')) {
        this.#next();
        return this.#signed();
      }
      return this.#power();
    });
  }

  #power(): number {
    const base = this.#primary();
    if (!this.#isOperator('^')) return base;
    this.#next();
    return base ** this.#signed();
  }

  #primary(): number {
    const token = this.#next();
    if (token.kind === 'number') return token.value;
    if (token.kind === 'operator' && token.value === '(') {
      const value = this.#expression();
      this.#expect(')');
      return value;
    }
    if (token.kind === 'name') {
      const name = token.value.toLowerCase();
      const fn = FUNCTIONS.get(name);
      if (fn) return this.#call(token.value, fn);
      const constant = CONSTANTS.get(name);
      if (constant !== undefined) return constant;
      throw new MathExpressionError(
        `Unknown name "${token.value}" at ${token.position + 1}. Known functions: ${[...FUNCTIONS.keys()].join(', ')}; constants: pi, e`,
        token.position,
      );
    }
    throw this.#unexpected(token, 'a number, a name or "("');
  }

  #call(name: string, fn: MathFunction): number {
    const open = this.#peek();
    this.#expect('(');
    const args: number[] = [];
    if (!this.#isOperator(')')) {
      args.push(this.#expression());
      while (this.#isOperator(',')) {
        this.#next();
        args.push(this.#expression());
      }
    }
    this.#expect(')');
    if (args.length < fn.minArgs || args.length > fn.maxArgs) {
      const range = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      throw new MathExpressionError(
        `${name}() takes ${range} argument(s), got ${args.length}`,
        open.position,
      );
    }
    return fn.apply(args);
  }
}

/** Evaluates an arithmetic expression; throws MathExpressionError on anything else. */
export function evaluateExpression(expression: string): number {
  if (expression.length > MAX_EXPRESSION_LENGTH) {
    throw new MathExpressionError(`The expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, 0);
  }
  if (expression.trim() === '') throw new MathExpressionError('The expression is empty', 0);
  return new Parser(tokenize(expression)).parse();
}
