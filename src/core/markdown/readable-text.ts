import type { DocumentNode } from '../../contracts/exports';
import { parseDocumentAst } from './document-ast';

/**
 * Above this many characters a block is shown as typed: parsing it for a
 * 160-character snippet would cost more than the search that found it.
 */
export const READABLE_TEXT_MAX_SOURCE = 20_000;

const TAG = /<\/?[A-Za-z][^<>]*>/g;

/**
 * The text a reader sees in a Markdown block, for search snippets and citations:
 * no `#`, `**`, list markers, table pipes, fences or link targets; a link shows
 * its label, a wikilink its label or title, an image its alt text. Code, math
 * and diagrams keep their source. Parsed with the app's one grammar, so it
 * agrees with the preview on what is markup.
 */
export function readableText(markdown: string): string {
  if (markdown.length > READABLE_TEXT_MAX_SOURCE) return markdown;
  return blocksText(parseDocumentAst(markdown).children).trim();
}

function blocksText(nodes: readonly DocumentNode[]): string {
  return nodes
    .map(blockText)
    .filter((text) => text !== '')
    .join('\n');
}

function blockText(node: DocumentNode): string {
  switch (node.type) {
    case 'paragraph':
    case 'heading':
      return inlineText(node.children).trim();
    case 'table':
      return node.children
        .map((row) => row.children.map((cell) => inlineText(cell.children).trim()).join(' · '))
        .join('\n');
    case 'code_block':
    case 'math_block':
    case 'mermaid':
    case 'function_plot':
    case 'front_matter':
      return (node.text ?? '').trimEnd();
    case 'html_block':
      return (node.text ?? '').replace(TAG, ' ').trim();
    case 'thematic_break':
      return '';
    default:
      // Lists, items, quotes: their blocks, a line each.
      return blocksText(node.children);
  }
}

function inlineText(nodes: readonly DocumentNode[]): string {
  let text = '';
  for (const node of nodes) {
    switch (node.type) {
      case 'soft_break':
      case 'line_break':
        text += ' ';
        break;
      case 'html_inline':
        break;
      case 'image':
        text += String(node.attributes['alt'] ?? '');
        break;
      default:
        text += node.children.length > 0 ? inlineText(node.children) : (node.text ?? '');
    }
  }
  return text;
}
