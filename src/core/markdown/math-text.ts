/**
 * TeX math as a reader would say it in plain text: `\bar{W}=\frac{1}{n}\sum W_i`
 * reads `W̄=1/n ∑ Wᵢ`. For snippets and excerpts, where the source's backslashes
 * and braces are noise and KaTeX would cost too much; not a renderer: a command it
 * does not know keeps its name.
 */

// prettier-ignore
const SYMBOLS: Readonly<Record<string, string>> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η',
  theta: 'θ', vartheta: 'ϑ', iota: 'ι', kappa: 'κ', lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π',
  varpi: 'ϖ', rho: 'ρ', varrho: 'ϱ', sigma: 'σ', varsigma: 'ς', tau: 'τ', upsilon: 'υ', phi: 'φ',
  varphi: 'φ', chi: 'χ', psi: 'ψ', omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ',
  Xi: 'Ξ', Pi: 'Π', Sigma: 'Σ', Upsilon: 'Υ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
  infty: '∞', cdot: '·', times: '×', div: '÷', pm: '±', mp: '∓', le: '≤', leq: '≤', ge: '≥', geq: '≥',
  ne: '≠', neq: '≠', approx: '≈', equiv: '≡', sim: '∼', simeq: '≃', propto: '∝', to: '→',
  rightarrow: '→', leftarrow: '←', Rightarrow: '⇒', Leftarrow: '⇐', leftrightarrow: '↔',
  Leftrightarrow: '⇔', iff: '⇔', implies: '⇒', mapsto: '↦', in: '∈', notin: '∉', ni: '∋',
  subset: '⊂', subseteq: '⊆', supset: '⊃', supseteq: '⊇', cup: '∪', cap: '∩', setminus: '∖',
  emptyset: '∅', varnothing: '∅', forall: '∀', exists: '∃', partial: '∂', nabla: '∇', ldots: '…',
  cdots: '⋯', dots: '…', vdots: '⋮', neg: '¬', lnot: '¬', land: '∧', wedge: '∧', lor: '∨', vee: '∨',
  oplus: '⊕', otimes: '⊗', circ: '∘', bullet: '•', star: '⋆', ast: '∗', langle: '⟨', rangle: '⟩',
  lfloor: '⌊', rfloor: '⌋', lceil: '⌈', rceil: '⌉', mid: '|', vert: '|', Vert: '‖', prime: '′',
  ell: 'ℓ', hbar: 'ℏ', angle: '∠', perp: '⊥', parallel: '∥', degree: '°', ll: '≪', gg: '≫',
  quad: ' ', qquad: ' ', lbrace: '{', rbrace: '}', backslash: '\\', colon: ':',
};

/** Big operators read apart from what precedes them: `1/n ∑ Wᵢ`, not `1/n∑Wᵢ`. */
// prettier-ignore
const OPERATORS: Readonly<Record<string, string>> = {
  sum: '∑', prod: '∏', coprod: '∐', int: '∫', iint: '∬', iiint: '∭', oint: '∮', bigcup: '⋃',
  bigcap: '⋂',
};

/** Named functions print their name (`\log n` reads `log n`). */
// prettier-ignore
const FUNCTIONS = new Set([
  'log', 'ln', 'lg', 'exp', 'sin', 'cos', 'tan', 'cot', 'sec', 'csc', 'arcsin', 'arccos', 'arctan',
  'sinh', 'cosh', 'tanh', 'max', 'min', 'sup', 'inf', 'lim', 'limsup', 'liminf', 'det', 'gcd', 'deg',
  'dim', 'ker', 'arg', 'Pr', 'mod', 'bmod', 'pmod',
]);

/** Accents over one letter, as combining marks. */
// prettier-ignore
const ACCENTS: Readonly<Record<string, string>> = {
  bar: '\u0304', overline: '\u0305', hat: '\u0302', widehat: '\u0302', tilde: '\u0303',
  widetilde: '\u0303', vec: '\u20D7', dot: '\u0307', ddot: '\u0308', check: '\u030C', breve: '\u0306',
  acute: '\u0301', grave: '\u0300', underline: '\u0332',
};

/** Commands whose argument is read as it is written. */
// prettier-ignore
const TEXT_COMMANDS = new Set([
  'text', 'textrm', 'textbf', 'textit', 'mathrm', 'mathbf', 'mathit', 'mathsf', 'mathtt', 'mathcal',
  'boldsymbol', 'operatorname', 'mbox', 'displaystyle', 'textstyle', 'emph',
]);

/** Sizing and delimiters' helpers: nothing to read. */
// prettier-ignore
const SILENT = new Set([
  'left', 'right', 'big', 'Big', 'bigg', 'Bigg', 'bigl', 'bigr', 'Bigl', 'Bigr', 'middle', 'limits',
  'nolimits', 'displaystyle', 'textstyle', 'scriptstyle', 'label', 'nonumber', 'notag',
]);

const BLACKBOARD: Readonly<Record<string, string>> = { R: 'ℝ', N: 'ℕ', Z: 'ℤ', Q: 'ℚ', C: 'ℂ', P: 'ℙ' };

// prettier-ignore
const SUPERSCRIPT: Readonly<Record<string, string>> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
  '+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ', T: 'ᵀ', '′': '′', '*': '*',
};

// prettier-ignore
const SUBSCRIPT: Readonly<Record<string, string>> = {
  '0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
  '+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', h: 'ₕ', i: 'ᵢ', j: 'ⱼ', k: 'ₖ',
  l: 'ₗ', m: 'ₘ', n: 'ₙ', o: 'ₒ', p: 'ₚ', r: 'ᵣ', s: 'ₛ', t: 'ₜ', u: 'ᵤ', v: 'ᵥ', x: 'ₓ',
};

/** Sources longer than this are returned as typed: a snippet needs only its start. */
const MAX_MATH_SOURCE = 4_000;

export function mathText(tex: string): string {
  if (tex.length > MAX_MATH_SOURCE) return tex;
  return new Reader(tex)
    .read(false)
    .replace(/[ \t]+/g, ' ')
    .trim();
}

class Reader {
  #at = 0;
  readonly #source: string;

  constructor(source: string) {
    this.#source = source;
  }

  /** Up to the end, or to the `}` closing the group being read. */
  read(inGroup: boolean): string {
    let out = '';
    while (this.#at < this.#source.length) {
      const char = this.#source[this.#at]!;
      if (char === '}') {
        this.#at += 1;
        if (inGroup) return out;
        continue;
      }
      out += this.#next(out);
    }
    return out;
  }

  /** One item: a command, a group, a script or a character. */
  #next(before: string): string {
    const char = this.#source[this.#at]!;
    if (char === '{') {
      this.#at += 1;
      return this.read(true);
    }
    if (char === '^' || char === '_') {
      this.#at += 1;
      return script(this.#argument(), char === '^' ? SUPERSCRIPT : SUBSCRIPT, char);
    }
    if (char === '&') {
      this.#at += 1;
      return ' ';
    }
    if (char === '~') {
      this.#at += 1;
      return ' ';
    }
    if (char !== '\\') {
      this.#at += 1;
      return char;
    }
    return this.#command(before);
  }

  /** A command's argument: a group, or the one item that follows. */
  #argument(): string {
    while (this.#source[this.#at] === ' ') this.#at += 1;
    if (this.#at >= this.#source.length) return '';
    if (this.#source[this.#at] === '}') return '';
    return this.#next('');
  }

  /** `[…]` after a command (`\sqrt[3]{x}`), read and returned; '' when absent. */
  #optional(): string {
    if (this.#source[this.#at] !== '[') return '';
    const end = this.#source.indexOf(']', this.#at);
    if (end < 0) return '';
    const inner = this.#source.slice(this.#at + 1, end);
    this.#at = end + 1;
    return mathText(inner);
  }

  #command(before: string): string {
    const match = /^\\([A-Za-z]+|.?)/.exec(this.#source.slice(this.#at))!;
    const name = match[1]!;
    this.#at += match[0].length;
    if (name === '' || name === ',' || name === ';' || name === ':' || name === ' ') return ' ';
    if (name === '!') return '';
    if (name === '\\') return ' ';
    if (!/^[A-Za-z]/.test(name)) return name; // \{ \} \% \& \_ \$ \#
    const symbol = SYMBOLS[name];
    if (symbol !== undefined) return symbol;
    const operator = OPERATORS[name];
    if (operator !== undefined) return before === '' || /[\s(]$/.test(before) ? operator : ` ${operator}`;
    if (FUNCTIONS.has(name)) return before === '' || /[\s(]$/.test(before) ? name : ` ${name}`;
    if (SILENT.has(name)) return '';
    if (name === 'begin' || name === 'end') {
      this.#argument();
      return ' ';
    }
    if (name === 'frac' || name === 'dfrac' || name === 'tfrac' || name === 'cfrac') {
      const numerator = this.#argument();
      const denominator = this.#argument();
      return `${operand(numerator)}/${operand(denominator)}`;
    }
    if (name === 'binom' || name === 'dbinom') {
      const n = this.#argument();
      const k = this.#argument();
      return `C(${n.trim()}, ${k.trim()})`;
    }
    if (name === 'sqrt') {
      const index = this.#optional();
      const radicand = this.#argument();
      return `${index ? script(index, SUPERSCRIPT, '^') : ''}√${operand(radicand)}`;
    }
    const accent = ACCENTS[name];
    if (accent !== undefined) {
      const base = this.#argument().trim();
      return [...base].map((letter) => letter + accent).join('');
    }
    if (name === 'mathbb') {
      const letters = this.#argument();
      return [...letters].map((letter) => BLACKBOARD[letter] ?? letter).join('');
    }
    if (TEXT_COMMANDS.has(name)) return this.#argument();
    return name;
  }
}

/** A fraction's part in parentheses when it is more than one term. */
function operand(text: string): string {
  const trimmed = text.trim();
  return /^[\p{L}\p{N}\u0300-\u036F\u20D7.′]+$/u.test(trimmed) || /^\(.*\)$/.test(trimmed)
    ? trimmed
    : `(${trimmed})`;
}

/** Raised or lowered characters where Unicode has them all; else `^(…)`. */
function script(text: string, table: Readonly<Record<string, string>>, mark: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const chars = [...trimmed];
  if (chars.every((char) => table[char] !== undefined)) return chars.map((char) => table[char]).join('');
  return chars.length === 1 ? `${mark}${trimmed}` : `${mark}(${trimmed})`;
}
