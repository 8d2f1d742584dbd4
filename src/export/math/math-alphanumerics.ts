import { childElements, TEXT_NODE } from './xml-dom';

/**
 * Where each MathML `mathvariant` starts in Unicode's Mathematical Alphanumeric Symbols
 * (capital A, then 25 more capitals and 26 small letters; digit 0, then 9 more). Bold,
 * italic and bold italic are left out: Office Math writes those as a run style (`m:sty`).
 */
const VARIANTS: Readonly<Record<string, { letters: number; digits?: number }>> = {
  script: { letters: 0x1d49c },
  'bold-script': { letters: 0x1d4d0 },
  fraktur: { letters: 0x1d504 },
  'double-struck': { letters: 0x1d538, digits: 0x1d7d8 },
  'bold-fraktur': { letters: 0x1d56c },
  'sans-serif': { letters: 0x1d5a0, digits: 0x1d7e2 },
  'bold-sans-serif': { letters: 0x1d5d4, digits: 0x1d7ec },
  'sans-serif-italic': { letters: 0x1d608 },
  'sans-serif-bold-italic': { letters: 0x1d63c },
  monospace: { letters: 0x1d670, digits: 0x1d7f6 },
};

/** Letters Unicode had already encoded (Letterlike Symbols), left as holes in the block. */
const HOLES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  script: {
    B: 'ℬ',
    E: 'ℰ',
    F: 'ℱ',
    H: 'ℋ',
    I: 'ℐ',
    L: 'ℒ',
    M: 'ℳ',
    R: 'ℛ',
    e: 'ℯ',
    g: 'ℊ',
    o: 'ℴ',
  },
  fraktur: { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' },
  'double-struck': { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' },
};

/** `text` in a mathvariant's letters and digits; characters it has none for stay as they are. */
export function mathAlphanumeric(text: string, variant: string): string {
  const start = VARIANTS[variant];
  if (!start) return text;
  return Array.from(text, (character) => {
    const hole = HOLES[variant]?.[character];
    if (hole) return hole;
    const code = character.charCodeAt(0);
    if (code >= 0x41 && code <= 0x5a) return String.fromCodePoint(start.letters + code - 0x41);
    if (code >= 0x61 && code <= 0x7a) return String.fromCodePoint(start.letters + 26 + code - 0x61);
    if (code >= 0x30 && code <= 0x39 && start.digits !== undefined)
      return String.fromCodePoint(start.digits + code - 0x30);
    return character;
  }).join('');
}

function rewriteText(node: Node, variant: string): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === TEXT_NODE) child.textContent = mathAlphanumeric(child.textContent ?? '', variant);
    else rewriteText(child, variant);
  }
}

/**
 * Double-struck, script, fraktur, sans-serif and monospace tokens (`\mathbb{R}`,
 * `\mathcal{F}`, `\mathfrak{g}`, `\mathsf`, `\mathtt`) written in Unicode's mathematical
 * letters, upright, changed in place. mathml2omml drops these variants, so Word showed a
 * plain R. Word's own equation editor keeps such letters as these characters (ℝ for
 * `\doubleR`), and they stay ℝ when copied out of Word or opened in another reader,
 * where OMML's `m:scr` run property is Word's alone.
 */
export function useMathAlphanumerics(element: Element): void {
  const variant = element.getAttribute('mathvariant') ?? '';
  if (VARIANTS[variant]) {
    rewriteText(element, variant);
    // The letters carry the variant now; "normal" keeps Word from slanting them.
    element.setAttribute('mathvariant', 'normal');
  }
  for (const child of childElements(element)) useMathAlphanumerics(child);
}
