import type { DocumentNode } from '../../contracts/exports';
import { FOOTNOTE_DEFINITION, FOOTNOTE_MARKER, FOOTNOTE_REFERENCE, parseDocumentAst } from './document-ast';
import { mathText } from './math-text';

/**
 * Above this many characters a block is shown as typed: parsing it for a
 * 160-character snippet would cost more than the search that found it.
 */
export const READABLE_TEXT_MAX_SOURCE = 20_000;

const TAG = /<\/?[A-Za-z][^<>]*>/g;

/**
 * The text a reader sees in a Markdown block, for search snippets and citations:
 * no `#`, `**`, list markers, table pipes, fences or link targets; a link shows
 * its label, a wikilink its label or title, an image its alt text. Math reads
 * as plain text (`\frac{1}{n}` is `1/n`, see `mathText`); a footnote reads as
 * a page's foot does (`¹ text`, its reference `¹`). Code and diagrams keep their
 * source. Parsed with the app's one grammar, so it agrees with the preview on
 * what is markup.
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
    case 'heading': {
      // A block read alone (a search hit) holds a reference whose definition is elsewhere in
      // the note: the parser leaves it as typed, and it still reads as a reference.
      const text = inlineText(node.children)
        .replace(UNRESOLVED_REFERENCE, (_match, label: string) => footnoteMark(label, ''))
        .trim();
      const footnote = node.attributes[FOOTNOTE_DEFINITION];
      return typeof footnote === 'string' && text !== '' ? `${footnoteMark(footnote, ' ')}${text}` : text;
    }
    case 'table':
      return node.children
        .map((row) => row.children.map((cell) => inlineText(cell.children).trim()).join(' · '))
        .join('\n');
    case 'math_block':
      return mathText(node.text ?? '');
    case 'code_block':
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
      case 'math_inline':
        text += mathText(node.text ?? '');
        break;
      case 'text':
        if (node.attributes[FOOTNOTE_MARKER] === true) break;
        if (typeof node.attributes[FOOTNOTE_REFERENCE] === 'string') {
          text += footnoteMark(node.attributes[FOOTNOTE_REFERENCE], '');
          break;
        }
        text += node.children.length > 0 ? inlineText(node.children) : (node.text ?? '');
        break;
      default:
        text += node.children.length > 0 ? inlineText(node.children) : (node.text ?? '');
    }
  }
  return text;
}

const UNRESOLVED_REFERENCE = /\[\^([^\]\s]+)\]/g;
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** A footnote's label as printed pages show it: `¹`; a named one `[name]`. */
function footnoteMark(label: string, after: string): string {
  if (/^\d+$/.test(label))
    return [...label].map((digit) => SUPERSCRIPT_DIGITS[Number(digit)]).join('') + after;
  return after === '' ? `[${label}]` : `[${label}]${after}`;
}
