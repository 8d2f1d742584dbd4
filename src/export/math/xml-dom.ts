import { DOMParser, XMLSerializer } from '@xmldom/xmldom';

/** `Node.ELEMENT_NODE` and `Node.TEXT_NODE`: a worker has no `Node` global to read them from. */
export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

function refuse(message: string): never {
  throw new Error(`not well-formed XML: ${message}`);
}

/**
 * The XML of the formula pipeline (KaTeX's MathML, mathml2omml's Office Math) as a
 * DOM, through xmldom because the export runs in a worker, where there is no DOMParser.
 * xmldom repairs some faults (an unclosed tag is only a warning), so every report
 * throws: a broken string is never written on.
 */
export function parseXml(xml: string): Document {
  const parser = new DOMParser({ errorHandler: { warning: refuse, error: refuse, fatalError: refuse } });
  const document = parser.parseFromString(xml, 'text/xml');
  if (!document.documentElement) refuse('no root element');
  return document;
}

export function serializeXml(node: Node): string {
  return new XMLSerializer().serializeToString(node);
}

export function isElement(node: Node | null | undefined, names?: ReadonlySet<string>): node is Element {
  return node?.nodeType === ELEMENT_NODE && (names === undefined || names.has(node.nodeName));
}

/** The element children of `parent`, in order. */
export function childElements(parent: Node): Element[] {
  return Array.from(parent.childNodes).filter((child): child is Element => isElement(child));
}

/** A new element beside `context`, in its namespace, so it is written with the same prefix. */
export function createElementLike(context: Element, name: string, children: readonly Node[] = []): Element {
  const created = context.ownerDocument.createElementNS(context.namespaceURI, name);
  for (const child of children) created.appendChild(child);
  return created;
}
