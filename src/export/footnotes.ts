import type { DocumentNode } from '../contracts/exports';
import { FOOTNOTE_DEFINITION, FOOTNOTE_MARKER, FOOTNOTE_REFERENCE } from '../core/markdown/document-ast';

/**
 * A note's footnotes as the exporters set them: numbered as the preview numbers them
 * (`footnoteNumbers`: by first reference in reading order, then the defined but never
 * referenced ones in the order they are defined), each with its text as inline nodes.
 */
export interface Footnote {
  label: string;
  number: number;
  /** The definition's inline content, without its `[^label]: `. */
  content: DocumentNode[];
  /** The paragraph that defines it (the first, where a label is defined twice). */
  definition: DocumentNode;
  /** How many references the note makes to it (0 for one defined but never referenced). */
  references: number;
}

export interface Footnotes {
  /** In number order. */
  readonly notes: readonly Footnote[];
  byLabel(label: string): Footnote | undefined;
}

/** The label `node` refers to, when it is a footnote reference. */
export function footnoteReference(node: DocumentNode): string | undefined {
  const label = node.type === 'text' ? node.attributes[FOOTNOTE_REFERENCE] : undefined;
  return typeof label === 'string' ? label : undefined;
}

/** The label `node` defines, when it is a footnote's definition. */
export function footnoteDefinition(node: DocumentNode): string | undefined {
  const label = node.type === 'paragraph' ? node.attributes[FOOTNOTE_DEFINITION] : undefined;
  return typeof label === 'string' ? label : undefined;
}

/** A definition's content: its children after the `[^label]: ` marker. */
function definitionContent(paragraph: DocumentNode): DocumentNode[] {
  return paragraph.children.filter((child) => child.attributes[FOOTNOTE_MARKER] !== true);
}

/**
 * The footnotes of `root`. A label defined twice keeps its first definition, as Pandoc
 * does. `skipNotes` leaves out references made inside footnotes (a Word footnote cannot hold
 * a footnote of its own, so DOCX numbers by the body's references alone).
 */
export function collectFootnotes(root: DocumentNode, options: { skipNotes?: boolean } = {}): Footnotes {
  const definitions = new Map<string, DocumentNode>();
  const referenced: string[] = [];
  const counts = new Map<string, number>();
  const visit = (node: DocumentNode, inNote: boolean): void => {
    const defined = footnoteDefinition(node);
    if (defined !== undefined && !definitions.has(defined)) definitions.set(defined, node);
    const label = footnoteReference(node);
    if (label !== undefined && !(inNote && options.skipNotes)) {
      referenced.push(label);
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    for (const child of node.children) visit(child, inNote || defined !== undefined);
  };
  visit(root, false);

  const notes: Footnote[] = [];
  const byLabel = new Map<string, Footnote>();
  for (const label of [...referenced, ...definitions.keys()]) {
    const definition = definitions.get(label);
    if (!definition || byLabel.has(label)) continue;
    const note: Footnote = {
      label,
      number: notes.length + 1,
      content: definitionContent(definition),
      definition,
      references: counts.get(label) ?? 0,
    };
    notes.push(note);
    byLabel.set(label, note);
  }
  return { notes, byLabel: (label) => byLabel.get(label) };
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

/**
 * The heading over endnotes, in the note's language: exports carry no UI locale, so the
 * language is the note's own, read as the HTML export reads it for `lang`.
 */
export function notesHeading(text: string): string {
  return CJK.test(text) ? '注释' : 'Notes';
}

/**
 * Whether a list item shows nothing once its footnote definitions are set with the notes:
 * `- [^a]: text` would otherwise leave an empty bullet. `inPlace` names the definitions an
 * exporter writes where they stand (DOCX's notes that nothing refers to); a task item keeps
 * its box.
 */
export function holdsOnlyFootnotes(
  item: DocumentNode,
  inPlace?: (paragraph: DocumentNode) => boolean,
): boolean {
  if (typeof item.attributes['checked'] === 'boolean' || item.children.length === 0) return false;
  return item.children.every((child) =>
    child.type === 'list'
      ? shownItems(child, inPlace).length === 0
      : footnoteDefinition(child) !== undefined && !(inPlace?.(child) ?? false),
  );
}

/** A list's items less those that held only footnote definitions; none left, the list is left out. */
export function shownItems(
  list: DocumentNode,
  inPlace?: (paragraph: DocumentNode) => boolean,
): DocumentNode[] {
  return list.children.filter((item) => !holdsOnlyFootnotes(item, inPlace));
}

/**
 * Whether the list's shown items are tight: a definition's paragraph is never marked tight,
 * so one in an item made the whole list loose, though it is no longer there.
 */
export function shownItemsTight(list: DocumentNode, items: readonly DocumentNode[]): boolean {
  if (list.attributes['tight'] === true) return true;
  return items.every((item) =>
    item.children.every(
      (child) =>
        child.type !== 'paragraph' ||
        child.attributes['tight'] === true ||
        footnoteDefinition(child) !== undefined,
    ),
  );
}
