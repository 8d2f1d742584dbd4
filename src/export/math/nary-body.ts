import { childElements, createElementLike, isElement } from './xml-dom';

/**
 * Big operators Word sets as `<m:nary>` when written bare (∏ ∐ ∑, ∫ ∬ ∭ ∮ ∯ ∰ ∱ ∲ ∳,
 * ⋀ ⋁ ⋂ ⋃); ∩ and ∪ are left out: bare, they are binary (A ∩ B).
 */
const BARE_NARY = /^[\u220f-\u2211\u222b-\u2233\u22c0-\u22c3]$/u;

/**
 * The test mathml2omml applies to the base of a script or limit, copied as it is
 * (its alternation is loose): a base it passes becomes an `<m:nary>` there.
 */
const SCRIPTED_NARY = /^[\u220f-\u2211]|[\u2229-\u2233]|[\u22c0-\u22c3]$/;

/** Elements whose children are laid out one after another (a row), not as positional arguments. */
const ROWS = new Set(['math', 'mrow', 'mstyle', 'mtd', 'mpadded', 'mphantom', 'menclose', 'msqrt', 'merror']);

/** Elements that put limits or scripts on their first child. */
const SCRIPTED = new Set(['msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover']);

/** Relations end an operator's body: in `\sum_k a_k = b` the sum is `a_k`, `= b` follows it. */
const RELATIONS = new Set([...'=≠<>≤≥≦≧≪≫≈≃≅≡≢∼∝≺≻⪯⪰∈∉∋⊂⊃⊆⊇⊊⊋→←↔⇒⇐⇔⟶⟵⟹⟸⟺↦⊢⊨∣∥:≔']);
const SEPARATORS = new Set([',', ';']);
const OPENING = new Set([...'([{⟨⌊⌈']);
const CLOSING = new Set([...')]}⟩⌋⌉']);

const textOf = (node: Node): string => node.textContent ?? '';

/** Whether `node` is a big operator, bare (`\int x`) or with limits (`\int_T`, `\sum_{k=1}^n`). */
function isNaryOperator(node: Node): node is Element {
  if (!isElement(node)) return false;
  if (node.nodeName === 'mo') return BARE_NARY.test(textOf(node).trim());
  if (!SCRIPTED.has(node.nodeName)) return false;
  const accent = (name: string) => node.getAttribute(name)?.toLowerCase() === 'true';
  if (accent('accent') || accent('accentunder')) return false;
  const base = node.childNodes[0];
  return (
    base !== undefined &&
    SCRIPTED_NARY.test(
      textOf(base)
        .replace(/[\u2062\u200b]/g, '')
        .trim(),
    )
  );
}

/** An `<mspace>` of a quad or more, or a line break: where `\quad` sets one formula apart from the next. */
function isWideSpace(node: Element): boolean {
  if (node.nodeName !== 'mspace') return false;
  if (node.getAttribute('linebreak') === 'newline') return true;
  const width = /^(-?[\d.]+)em$/.exec(node.getAttribute('width') ?? '');
  return width !== null && Number(width[1]) >= 1;
}

/**
 * How many of `siblings` (what follows a big operator) make its body: everything up
 * to a relation, a separator or a wide space at the operator's own bracket depth,
 * or a bracket that closes one opened before the operator.
 */
function bodyLength(siblings: readonly Node[]): number {
  let depth = 0;
  for (const [index, node] of siblings.entries()) {
    if (!isElement(node)) continue;
    if (isWideSpace(node) && depth === 0) return index;
    if (node.nodeName !== 'mo') continue;
    const text = textOf(node).trim();
    if (OPENING.has(text)) depth += 1;
    else if (CLOSING.has(text)) {
      if (depth === 0) return index;
      depth -= 1;
    } else if (depth === 0 && (RELATIONS.has(text) || SEPARATORS.has(text))) return index;
  }
  return siblings.length;
}

/** A bare operator gets empty limits, so it converts as an `<m:nary>` too (the empty ones are hidden). */
function giveLimits(operator: Element): void {
  if (SCRIPTED.has(operator.nodeName)) return;
  const limits = createElementLike(operator, 'msubsup');
  operator.parentNode?.insertBefore(limits, operator);
  limits.appendChild(operator);
  limits.appendChild(createElementLike(operator, 'mrow'));
  limits.appendChild(createElementLike(operator, 'mrow'));
}

function groupRow(row: Element): void {
  const children = Array.from(row.childNodes);
  for (let index = 0; index < children.length; index++) {
    const node = children[index];
    if (node === undefined || !isNaryOperator(node)) continue;
    const rest = children.slice(index + 1);
    const length = bodyLength(rest);
    const body = createElementLike(row, 'mrow', rest.slice(0, length));
    row.insertBefore(body, rest[length] ?? null);
    giveLimits(node);
    // The body is grouped again, so an operator inside it (∫∫, ∑∑) takes its own body.
    groupRow(body);
    index += length;
  }
}

/**
 * Each big operator's body in one `<mrow>` right after it. mathml2omml puts only the
 * operator's next sibling into `<m:nary>`'s `<m:e>` and then writes the following text
 * of the same style straight into that `<m:e>` without a run, so `\int_T x(t)\,dt` became
 * `<m:e><m:r>x</m:r>(t)</m:e>` (invalid Office Math; Word lost the `x`) and `\sum_k a_k x(t)`
 * left `a_k x(t)` outside the sum. One `<mrow>` is one sibling, and mathml2omml converts
 * its contents inside `<m:e>` as a whole. Changes `element` and everything under it in place.
 */
export function groupNaryBodies(element: Element): void {
  for (const child of childElements(element)) groupNaryBodies(child);
  if (ROWS.has(element.nodeName)) groupRow(element);
}
