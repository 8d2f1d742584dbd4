import type { DocumentNode, ExportDocument } from '../contracts/exports';
import { calloutTitle } from '../core/markdown/callout-titles';
import { CALLOUT, CALLOUT_DEFAULT_TITLE, CALLOUT_TITLE } from '../core/markdown/document-ast';
import type { DocumentLanguage } from '../core/markdown/diagram-error-text';
import { exportLanguage } from './visuals';

function titled(paragraph: DocumentNode, title: string): DocumentNode {
  const strong = paragraph.children[0];
  const id = strong?.node_id ?? `${paragraph.node_id}.0`;
  return {
    ...paragraph,
    children: [
      {
        node_id: id,
        type: 'strong',
        attributes: {},
        children: [{ node_id: `${id}.0`, type: 'text', attributes: {}, children: [], text: title }],
        ...(paragraph.position && { position: paragraph.position }),
      },
    ],
  };
}

/**
 * `root` with each callout written without a title titled in `language`, as the app titles
 * it (a kind Obsidian knows by its name, another kind capitalised). Nodes with no such
 * callout under them stay the same objects: exporters key footnotes by node.
 */
export function withCalloutTitlesIn(root: DocumentNode, language: DocumentLanguage): DocumentNode {
  const visit = (node: DocumentNode): DocumentNode => {
    const kind = node.attributes[CALLOUT];
    let changed = false;
    const children = node.children.map((child, index) => {
      const next =
        index === 0 &&
        typeof kind === 'string' &&
        child.attributes[CALLOUT_TITLE] === true &&
        child.attributes[CALLOUT_DEFAULT_TITLE] === true
          ? titled(child, calloutTitle(kind, language))
          : visit(child);
      if (next !== child) changed = true;
      return next;
    });
    return changed ? { ...node, children } : node;
  };
  return visit(root);
}

/** The document with its untitled callouts titled in the one language the export writes its own words in. */
export function withCalloutTitles(document: ExportDocument): ExportDocument {
  const root = withCalloutTitlesIn(document.root, exportLanguage(document));
  return root === document.root ? document : { ...document, root };
}
