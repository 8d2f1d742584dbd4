import katex from 'katex';
import { mml2omml } from 'mathml2omml';
import { useMathAlphanumerics } from './math-alphanumerics';
import { groupNaryBodies } from './nary-body';
import { tidyOmml } from './omml-tidy';
import { parseXml, serializeXml, TEXT_NODE } from './xml-dom';

/**
 * Private-use characters stand in for spaces while mml2omml runs (it trims the text of
 * every run), and for `&`, `<` and `>` (it writes text back unescaped, so `a<b` broke the XML).
 */
const PLACEHOLDER_BASE = 0xe000;
const PLACEHOLDERS = /[\uE000-\uF8FF]/g;

class Placeholders {
  readonly #kept: string[] = [];

  /** A placeholder character for `text`; nothing for no text. */
  hold(text: string): string {
    if (text === '') return '';
    this.#kept.push(text);
    return String.fromCharCode(PLACEHOLDER_BASE + this.#kept.length - 1);
  }

  restore(text: string): string {
    return text.replace(
      PLACEHOLDERS,
      (character) => this.#kept[character.charCodeAt(0) - PLACEHOLDER_BASE] ?? '',
    );
  }
}

/** Text under `node` with XML's special characters held as placeholders, to come back escaped. */
function holdSpecialCharacters(node: Node, placeholders: Placeholders): void {
  const escaped: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
  // xmldom gives a text node no child list.
  if (node.nodeType === TEXT_NODE)
    node.textContent = (node.textContent ?? '').replace(/[&<>]/g, (character) =>
      placeholders.hold(escaped[character] ?? ''),
    );
  else for (const child of Array.from(node.childNodes)) holdSpecialCharacters(child, placeholders);
}

/** KaTeX's spacing characters in `<mtext>`, longest first, as the Unicode space Word shows for each. */
const TEXT_SPACES: ReadonlyArray<readonly [string, string]> = [
  // \; is a four-per-em plus a hair space in KaTeX: Word gets one three-per-em space (5/18 em).
  ['\u2005\u200a', '\u2004'],
  // \! is a negative thin space: Word has none, so it is left out (KaTeX adds an invisible separator).
  ['\u2009\u2063', ''],
  // \: (4/18 em): the medium mathematical space.
  ['\u2005', '\u205f'],
  ['\u2009', '\u2009'],
  ['\u200a', '\u200a'],
  ['\u00a0', '\u00a0'],
];

/** A `<mspace>` width (\quad, \qquad, \enspace, \hspace) as Unicode spaces of about that width. */
function spacesForWidth(em: number): string {
  if (!(em > 0)) return '';
  const whole = Math.min(Math.floor(em + 0.01), 20);
  const rest = em - whole;
  const tail =
    rest >= 0.45
      ? '\u2002'
      : rest >= 0.3
        ? '\u2004'
        : rest >= 0.2
          ? '\u205f'
          : rest >= 0.1
            ? '\u2009'
            : rest > 0.02
              ? '\u200a'
              : '';
  return '\u2003'.repeat(whole) + tail;
}

const EM_UNITS: Readonly<Record<string, number>> = { em: 1, ex: 0.43, mu: 1 / 18, pt: 0.1, px: 0.0625 };

/**
 * Spacing (\quad, \,, \;, ~ …) survives into Word: mml2omml drops `<mspace>` and trims the
 * spacing characters out of `<mtext>`, which glued "ẋ = Ax + Bu, \quad y = Cx" together.
 * Each space is swapped for a placeholder before the conversion and put back after it.
 */
function protectSpaces(mathml: string, placeholders: Placeholders): string {
  const hold = (spaces: string): string => placeholders.hold(spaces);
  return mathml
    .replace(
      /<mspace\b[^>]*?\bwidth="(-?[\d.]+)([a-z]*)"[^>]*\/>/g,
      (_match, value: string, unit: string) => {
        const spaces = spacesForWidth(Number(value) * (EM_UNITS[unit] ?? 1));
        return spaces === '' ? '' : `<mtext>${hold(spaces)}</mtext>`;
      },
    )
    .replace(/<mtext>([^<]*)<\/mtext>/g, (_match, text: string) => {
      let out = '';
      let rest = text;
      while (rest !== '') {
        const space = TEXT_SPACES.find(([from]) => rest.startsWith(from));
        if (space) {
          out += hold(space[1]);
          rest = rest.slice(space[0].length);
        } else {
          out += rest[0];
          rest = rest.slice(1);
        }
      }
      return out === '' ? '' : `<mtext>${out}</mtext>`;
    });
}

/**
 * TeX to Office Math (`<m:oMath>`), throwing on TeX that KaTeX cannot parse. The
 * TeX annotation KaTeX keeps inside its MathML has no OMML form and is dropped.
 */
export function texToOmml(tex: string, display: boolean): string {
  const mathml = katex
    .renderToString(tex, { displayMode: display, throwOnError: true, output: 'mathml' })
    .replace(/^<span class="katex(?:-display)?">(?:<span class="katex">)?/, '')
    .replace(/(?:<\/span>)+$/, '')
    .replace(/<annotation\b[^>]*>[\s\S]*?<\/annotation>/g, '');
  const placeholders = new Placeholders();
  const mathDocument = parseXml(mathml);
  groupNaryBodies(mathDocument.documentElement);
  useMathAlphanumerics(mathDocument.documentElement);
  holdSpecialCharacters(mathDocument, placeholders);
  const converted = placeholders.restore(mml2omml(protectSpaces(serializeXml(mathDocument), placeholders)));
  const ommlDocument = parseXml(converted);
  tidyOmml(ommlDocument.documentElement);
  const omml = serializeXml(ommlDocument);
  if (!omml.includes('<m:oMath')) throw new Error('the formula has no Office Math form');
  return omml;
}
