import { childElements, createElementLike, TEXT_NODE } from './xml-dom';

/** Office Math's `m:sty` values: plain, bold, italic, bold italic. */
const STYLES = new Set(['p', 'b', 'i', 'bi']);

function firstChild(parent: Element, name: string): Element | undefined {
  return childElements(parent).find((child) => child.nodeName === name);
}

/** Text outside `<m:t>` (Word rejects it) as a run of its own. */
function wrapLooseText(parent: Element): void {
  if (parent.nodeName === 'm:t' || parent.nodeName === 'w:t') return;
  for (const child of Array.from(parent.childNodes)) {
    if (child.nodeType !== TEXT_NODE) continue;
    const text = createElementLike(parent, 'm:t');
    text.setAttribute('xml:space', 'preserve');
    parent.insertBefore(createElementLike(parent, 'm:r', [text]), child);
    text.appendChild(child);
  }
}

/**
 * A run's properties as the schema orders them: `m:rPr` before `w:rPr`, and `m:nor`
 * (ordinary text) or `m:sty`, never both. mathml2omml writes `<w:rPr/>` first and a
 * `m:sty` of "undefined" for upright letters (`\mathrm{d}`, ∞), which Word cannot read.
 */
function tidyRun(run: Element): void {
  const math = firstChild(run, 'm:rPr');
  const word = firstChild(run, 'w:rPr');
  const style = math && firstChild(math, 'm:sty');
  if (math && style) {
    if (!STYLES.has(style.getAttribute('m:val') ?? '')) style.setAttribute('m:val', 'p');
    for (const ordinary of childElements(math).filter((child) => child.nodeName === 'm:nor'))
      math.removeChild(ordinary);
  }
  if (word) {
    run.removeChild(word);
    if (word.hasChildNodes()) run.insertBefore(word, run.firstChild);
  }
  // Checked first: xmldom 0.8 links a node inserted before itself into a loop.
  if (math && run.firstChild !== math) run.insertBefore(math, run.firstChild);
}

/**
 * A big operator's parts in the schema's order (properties, lower limit, upper limit,
 * body, all present), with an empty limit hidden, so Word shows no empty box for the
 * limit `\int x\,dx` does not have.
 */
function tidyNary(nary: Element): void {
  const part = (name: string): Element => firstChild(nary, name) ?? createElementLike(nary, name);
  const properties = part('m:naryPr');
  const sub = part('m:sub');
  const sup = part('m:sup');
  const body = part('m:e');
  const hide = (name: string, limit: Element) => {
    if (limit.hasChildNodes()) return;
    const flag = firstChild(properties, name) ?? properties.appendChild(createElementLike(nary, name));
    flag.setAttribute('m:val', 'on');
  };
  hide('m:subHide', sub);
  hide('m:supHide', sup);
  while (nary.firstChild) nary.removeChild(nary.firstChild);
  for (const kept of [properties, sub, sup, body]) nary.appendChild(kept);
}

/** The Office Math from mathml2omml made valid for Word (see each step), changed in place. */
export function tidyOmml(element: Element): void {
  for (const child of childElements(element)) tidyOmml(child);
  wrapLooseText(element);
  if (element.nodeName === 'm:r') tidyRun(element);
  if (element.nodeName === 'm:nary') tidyNary(element);
}
