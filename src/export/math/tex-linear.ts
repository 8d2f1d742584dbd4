import type { MmlNode } from 'mathjax-full/js/core/MmlTree/MmlNode.js';
import { texToMathTree } from './tex-drawing';

/**
 * A formula as one line of plain Unicode text, for the PDF's invisible text layer
 * over the drawn formula: "G(s) = 1/(s² + 2ζω_n s + ω_n²)". Unicode rather than
 * the TeX source because that is what a reader searches for and a screen reader
 * speaks: "ζ" and "G(s)" are found, `\zeta` and `\frac{1}{…}` would be spelt out.
 * The notation is Word's linear format (UnicodeMath): `/` for fractions, `_` and
 * `^` for scripts, parentheses only where an operand has more than one term.
 */

/** Whether the PDF font draws a character; what it lacks is written in ASCII instead. */
export type Covers = (codePoint: number) => boolean;

// prettier-ignore
const SUPERSCRIPTS: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
  '+': '⁺', '−': '⁻', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ', T: 'ᵀ',
};
// prettier-ignore
const SUBSCRIPTS: Record<string, string> = {
  '0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
  '+': '₊', '−': '₋', '-': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', o: 'ₒ', x: 'ₓ', h: 'ₕ',
  k: 'ₖ', l: 'ₗ', m: 'ₘ', n: 'ₙ', p: 'ₚ', s: 'ₛ', t: 'ₜ', i: 'ᵢ', j: 'ⱼ', r: 'ᵣ', u: 'ᵤ', v: 'ᵥ',
};
/** Accents over one letter as combining marks, with a word for when the font lacks the mark. */
const ACCENTS: Record<string, [mark: string, name: string]> = {
  '^': ['\u0302', 'hat'],
  ˆ: ['\u0302', 'hat'],
  '¯': ['\u0304', 'bar'],
  '‾': ['\u0304', 'bar'],
  ˉ: ['\u0304', 'bar'],
  '˙': ['\u0307', 'dot'],
  '¨': ['\u0308', 'ddot'],
  '~': ['\u0303', 'tilde'],
  '˜': ['\u0303', 'tilde'],
  '→': ['\u20d7', 'vec'],
  '⃗': ['\u20d7', 'vec'],
};
/** Symbols the CJK font often lacks, as their TeX names so they are not lost. */
const FALLBACKS: Record<string, string> = {
  '≻': '\\succ',
  '≺': '\\prec',
  '⪰': '\\succeq',
  '⪯': '\\preceq',
  '↦': '\\mapsto',
  '⟹': '\\implies',
  '⟺': '\\iff',
  '⟶': '→',
  '∘': '\\circ',
  '⊗': '\\otimes',
  '⊕': '\\oplus',
  '⋅': '·',
  '∗': '*',
  '∣': '|',
  '∥': '||',
  '⟨': '<',
  '⟩': '>',
};

/** MathJax's TeX classes, which say how an operator is spaced. */
const ORD = 0;
const OP = 1;
const BIN = 2;
const REL = 3;
const OPEN = 4;
const PUNCT = 6;

interface Piece {
  text: string;
  /** The TeX class: operators are spaced, the rest written together. */
  kind: number;
  /** Ends in an ASCII script (`ω_n`): a letter after it needs a space to end the script. */
  openScript?: boolean;
}

/** Text with each character the font lacks replaced by its fallback (kept where it has none). */
function drawable(text: string, covers: Covers): string {
  return Array.from(text, (character) => {
    if (covers(character.codePointAt(0) ?? 0)) return character;
    const fallback = FALLBACKS[character];
    return fallback !== undefined && Array.from(fallback).every((c) => covers(c.codePointAt(0) ?? 0))
      ? fallback
      : character;
  }).join('');
}

/** One term needs no parentheses around it as a fraction's part or a script. */
function atomic(text: string): boolean {
  if (/^[\p{L}\p{N}.′'²³¹⁰⁴-⁹ⁿⁱᵀ]+$/u.test(text)) return true;
  if (!text.startsWith('(') || !text.endsWith(')')) return false;
  // "(a)(b)" is two groups: the first must close at the very end.
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '(') depth += 1;
    else if (text[index] === ')') depth -= 1;
    if (depth === 0 && index < text.length - 1) return false;
  }
  return true;
}

const group = (text: string) => (atomic(text) ? text : `(${text})`);

function tokenText(node: MmlNode): string {
  return (node as unknown as { getText(): string }).getText();
}

function texClass(node: MmlNode): number {
  return typeof node.texClass === 'number' ? node.texClass : ORD;
}

class Linearizer {
  constructor(private readonly covers: Covers) {}

  has(text: string): boolean {
    return Array.from(text).every((character) => this.covers(character.codePointAt(0) ?? 0));
  }

  /** A script as Unicode super/subscript characters where the font has them all, else `^x` or `_(…)`. */
  script(text: string, up: boolean, ascii = false): Piece {
    if (!text) return { text: '', kind: ORD };
    if (up && /^[′']+$/.test(text))
      return { text: this.has(text) ? text : "'".repeat(text.length), kind: ORD };
    const table = up ? SUPERSCRIPTS : SUBSCRIPTS;
    const mapped = Array.from(text, (character) => table[character]);
    if (!ascii && mapped.every((character) => character !== undefined && this.has(character)))
      return { text: mapped.join(''), kind: ORD };
    return { text: `${up ? '^' : '_'}${group(text)}`, kind: ORD, openScript: true };
  }

  /** Children side by side, operators spaced as they read: "a = b + c", "−x", "f(x, y)". */
  row(nodes: readonly (MmlNode | null)[], tight: boolean): Piece {
    let text = '';
    let previous: Piece | undefined;
    for (const node of nodes) {
      if (!node) continue;
      const piece = this.node(node, tight);
      if (!piece.text) continue;
      const operatorBefore = previous === undefined || [BIN, REL, OPEN, PUNCT, OP].includes(previous.kind);
      if (piece.kind === REL && !tight) text = `${text.trimEnd()} ${piece.text} `;
      else if (piece.kind === BIN && !tight && !operatorBefore) text = `${text.trimEnd()} ${piece.text} `;
      else if (piece.kind === PUNCT) text += tight ? piece.text : `${piece.text} `;
      else {
        // "ω_n s" ends the script; "∑ᵢ i" keeps the sum's limits apart from what it sums.
        if ((previous?.openScript || previous?.kind === OP) && /^[\p{L}\p{N}]/u.test(piece.text)) text += ' ';
        text += piece.text;
      }
      previous = piece;
    }
    const kind = previous && nodes.filter(Boolean).length === 1 ? previous.kind : ORD;
    return { text, kind, openScript: previous?.openScript ?? false };
  }

  scripted(base: MmlNode | null, below: MmlNode | null, above: MmlNode | null, tight: boolean): Piece {
    const basePiece = base ? this.node(base, tight) : { text: '', kind: ORD };
    const under = below ? this.script(this.node(below, true).text.trim(), false) : undefined;
    // "ω_n^2", not "ω_n²": a Unicode script after an ASCII one would read as part of it.
    const over = above
      ? this.script(this.node(above, true).text.trim(), true, under?.openScript === true)
      : undefined;
    let text = basePiece.text;
    let openScript = false;
    for (const script of [under, over]) {
      if (!script?.text) continue;
      text += script.text;
      openScript = script.openScript ?? false;
    }
    return { text, kind: basePiece.kind === OP ? OP : ORD, openScript };
  }

  node(node: MmlNode, tight: boolean): Piece {
    const children = node.childNodes as unknown as ReadonlyArray<MmlNode | null>;
    if (node.isToken) {
      if (node.isKind('mspace')) {
        const width = Number.parseFloat(String(node.attributes.get('width') ?? '0'));
        // \, between "x² dx" and \quad are word spaces; negative and hair spaces are not.
        return { text: width >= 0.16 ? ' ' : '', kind: ORD };
      }
      const raw = tokenText(node)
        .replace(/\u2061/g, ' ')
        .replace(/[\u2062\u2064]/g, '')
        .replace(/\u2063/g, ',');
      const text = drawable(raw, this.covers);
      return { text, kind: node.isKind('mo') ? texClass(node) : ORD };
    }
    const kind = node.kind;
    switch (kind) {
      case 'mfrac': {
        const [numerator, denominator] = children;
        const top = numerator ? this.node(numerator, tight).text.trim() : '';
        const bottom = denominator ? this.node(denominator, tight).text.trim() : '';
        // \binom: a fraction with no bar.
        const bar = String(node.attributes.get('linethickness') ?? '');
        const slash = /^0(?:\D|$)/.test(bar) ? (this.has('¦') ? '¦' : ', ') : '/';
        return { text: `${group(top)}${slash}${group(bottom)}`, kind: ORD };
      }
      case 'msub':
        return this.scripted(children[0] ?? null, children[1] ?? null, null, tight);
      case 'msup':
        return this.scripted(children[0] ?? null, null, children[1] ?? null, tight);
      case 'msubsup':
        return this.scripted(children[0] ?? null, children[1] ?? null, children[2] ?? null, tight);
      case 'munder':
        return this.scripted(children[0] ?? null, children[1] ?? null, null, tight);
      case 'munderover':
        return this.scripted(children[0] ?? null, children[1] ?? null, children[2] ?? null, tight);
      case 'mover': {
        const [base, over] = children;
        const accent = over?.isToken ? ACCENTS[tokenText(over)] : undefined;
        if (base && accent) {
          const text = this.node(base, tight).text.trim();
          const [mark, name] = accent;
          return Array.from(text).length === 1 && this.has(mark)
            ? { text: `${text}${mark}`, kind: ORD }
            : { text: `${name}(${text})`, kind: ORD };
        }
        return this.scripted(base ?? null, null, over ?? null, tight);
      }
      case 'msqrt':
        return { text: `√${group(this.row(children, tight).text.trim())}`, kind: ORD };
      case 'mroot': {
        const [radicand, index] = children;
        const inside = radicand ? this.node(radicand, tight).text.trim() : '';
        const degree = index ? this.node(index, true).text.trim() : '';
        return { text: `√(${degree}&${inside})`, kind: ORD };
      }
      case 'mtable':
        return {
          text: children
            .map((row) => (row ? this.node(row, tight).text.trim() : ''))
            .filter(Boolean)
            .join('; '),
          kind: ORD,
        };
      case 'mtr':
      case 'mlabeledtr':
        return {
          text: children
            .map((cell) => (cell ? this.node(cell, tight).text.trim() : ''))
            .filter(Boolean)
            .join(' '),
          kind: ORD,
        };
      case 'mphantom':
      case 'none':
      case 'mprescripts':
        return { text: '', kind: ORD };
      default: {
        // mrow, TeXAtom, mstyle, mpadded, menclose, math: their children in a row;
        // a TeXAtom keeps its class (\mathrel{…}, \operatorname{…}).
        const piece = this.row(children, tight);
        return kind === 'TeXAtom' ? { ...piece, kind: texClass(node) } : piece;
      }
    }
  }
}

/** A MathJax MathML tree as one line of text (see the file's comment). */
export function linearMath(root: MmlNode, covers: Covers): string {
  return new Linearizer(covers).node(root, false).text.replace(/\s+/g, ' ').trim();
}

/** TeX as one line of readable text; throws TexError for bad TeX. */
export function texToLinearText(tex: string, display: boolean, covers: Covers = () => true): string {
  return linearMath(texToMathTree(tex, display), covers);
}
