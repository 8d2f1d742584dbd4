import katex from 'katex';
import type { DocumentNode } from '../../contracts/exports';
import {
  collectFootnotes,
  footnoteDefinition,
  footnoteReference,
  shownItems,
  shownItemsTight,
  type Footnotes,
} from '../footnotes';
import { documentText, type VisualOutcome } from '../visuals';
import { HIGHLIGHT } from '../../core/markdown/document-ast';
import {
  detailsLabel,
  documentLanguage,
  visualErrorText,
  type DocumentLanguage,
} from '../../core/markdown/diagram-error-text';

export interface HtmlRenderOptions {
  /** Rendered Mermaid and plot images by node id; nodes without one show their source. */
  visuals?: ReadonlyMap<string, VisualOutcome>;
  /**
   * Trusted fragments (KaTeX MathML, sanitized SVG) are handed to this function and
   * replaced by what it returns, so the caller can keep them out of the HTML
   * sanitizer's way; by default they are inlined.
   */
  slot?: (trustedHtml: string) => string;
  /** Called after each top-level node is rendered: `current` of `total`. */
  onBlock?: (current: number, total: number) => void;
  /**
   * A fenced block's own HTML (coloured code, trusted: its text escaped by the
   * caller); undefined keeps markdown-it's plain `<pre><code>`.
   */
  codeBlock?: (text: string, language: string) => string | undefined;
  /**
   * The language of the messages the document carries (a diagram that failed); by
   * default the document's own: Chinese when its text has Chinese characters.
   */
  language?: DocumentLanguage;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => ESCAPES[character] ?? character);
}

/** Obsidian's `==highlight==`, which rides on each leaf it covers (see document-ast). */
function highlighted(node: DocumentNode, html: string): string {
  return node.attributes[HIGHLIGHT] === true ? `<mark>${html}</mark>` : html;
}

function attribute(name: string, value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return ` ${name}="${escapeHtml(String(value))}"`;
}

/** TeX to MathML: no fonts or CSS needed, and every current browser lays it out. */
export function texToMathml(tex: string, display: boolean): string {
  try {
    return katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'mathml' });
  } catch {
    return `<code class="math-error">${escapeHtml(tex)}</code>`;
  }
}

/**
 * Document AST to HTML in markdown-it's output shape, so the CommonMark examples
 * compare directly. Text is escaped here; raw HTML nodes pass through and the
 * exporter sanitizes the result.
 */
export function renderHtmlBody(root: DocumentNode, options: HtmlRenderOptions = {}): string {
  const slot = options.slot ?? ((html: string) => html);
  const visuals = options.visuals ?? new Map<string, VisualOutcome>();
  let language = options.language;

  const children = (node: DocumentNode, tight = false): string =>
    node.children.map((child) => render(child, tight)).join('');
  const footnotes = collectFootnotes(root);
  /** References made so far, by label: the second reference to a note gets an anchor of its own. */
  const referencesSeen = new Map<string, number>();

  function footnoteRef(label: string): string | undefined {
    const note = footnotes.byLabel(label);
    if (!note) return undefined;
    const seen = (referencesSeen.get(label) ?? 0) + 1;
    referencesSeen.set(label, seen);
    const id = seen === 1 ? `fnref-${note.number}` : `fnref-${note.number}-${seen}`;
    return `<sup class="footnote-ref"><a href="#fn-${note.number}" id="${id}">${note.number}</a></sup>`;
  }

  /** The notes at the end, each with a way back to every place that refers to it. */
  function footnoteSection(notes: Footnotes['notes']): string {
    if (notes.length === 0) return '';
    const items = notes.map((note) => {
      const back = Array.from({ length: note.references }, (_, index) => {
        const target = index === 0 ? `fnref-${note.number}` : `fnref-${note.number}-${index + 1}`;
        return ` <a href="#${target}" class="footnote-back">↩\uFE0E${index === 0 ? '' : `<sup>${index + 1}</sup>`}</a>`;
      }).join('');
      return `<li id="fn-${note.number}"><p>${note.content.map((child) => render(child, false)).join('')}${back}</p></li>\n`;
    });
    return `<section class="footnotes">\n<hr>\n<ol>\n${items.join('')}</ol>\n</section>\n`;
  }

  /** A sentence in the document's language; the parser's own words fold away below it. */
  function renderError(kind: 'mermaid' | 'function-plot', code: string, said: string): string {
    language ??= documentLanguage(documentText(root));
    const text = visualErrorText(kind === 'mermaid' ? 'mermaid' : 'function_plot', code, said, language);
    const detail = text.detail
      ? `<details class="render-error-detail"><summary>${escapeHtml(detailsLabel(language))}</summary><code>${escapeHtml(text.detail)}</code></details>`
      : '';
    return `<p class="render-error" data-error-code="${escapeHtml(code)}">${escapeHtml(text.summary)}</p>${detail}`;
  }

  function visual(node: DocumentNode): string {
    const outcome = visuals.get(node.node_id);
    const kind = node.type === 'mermaid' ? 'mermaid' : 'function-plot';
    if (outcome?.ok && typeof outcome.result.content === 'string') {
      return `<figure class="${kind}">${slot(outcome.result.content)}</figure>\n`;
    }
    const message = outcome && !outcome.ok ? renderError(kind, outcome.code, outcome.message) : '';
    return `<div class="${kind} render-failed"><pre><code>${escapeHtml(node.text ?? '')}</code></pre>${message}</div>\n`;
  }

  function render(node: DocumentNode, tight: boolean): string {
    const a = node.attributes;
    switch (node.type) {
      case 'document':
        return (
          node.children
            .map((child, index) => {
              const html = render(child, false);
              options.onBlock?.(index + 1, node.children.length);
              return html;
            })
            .join('') + footnoteSection(footnotes.notes)
        );
      case 'heading':
        return `<h${Number(a['level'])}>${children(node)}</h${Number(a['level'])}>\n`;
      case 'paragraph':
        // A definition is set with the notes at the end, not where it is written.
        if (footnoteDefinition(node) !== undefined) return '';
        return tight && a['tight'] === true ? children(node) : `<p>${children(node)}</p>\n`;
      case 'list': {
        const tag = a['ordered'] === true ? 'ol' : 'ul';
        const start = a['ordered'] === true && a['start'] !== 1 ? attribute('start', a['start'] ?? null) : '';
        const items = shownItems(node);
        if (items.length === 0) return '';
        const itemsTight = shownItemsTight(node, items);
        return `<${tag}${start}>\n${items.map((item) => render(item, itemsTight)).join('')}</${tag}>\n`;
      }
      case 'list_item': {
        const checked = a['checked'];
        const box =
          checked === true || checked === false
            ? `<input type="checkbox" disabled${checked ? ' checked' : ''}> `
            : '';
        const body = children(node, tight);
        const opening = checked === true || checked === false ? '<li class="task-list-item">' : '<li>';
        // markdown-it breaks the line after <li> when the item opens with a block.
        const first = node.children[0];
        const blockFirst = first !== undefined && !(tight && first.type === 'paragraph');
        return `${opening}${blockFirst ? '\n' : ''}${box}${body}</li>\n`;
      }
      case 'blockquote':
        return `<blockquote>\n${children(node)}</blockquote>\n`;
      case 'code_block': {
        const language = a['language'];
        const coloured = options.codeBlock?.(node.text ?? '', typeof language === 'string' ? language : '');
        if (coloured !== undefined) return `${slot(coloured)}\n`;
        const cls =
          typeof language === 'string' && language !== '' ? attribute('class', `language-${language}`) : '';
        return `<pre><code${cls}>${escapeHtml(node.text ?? '')}</code></pre>\n`;
      }
      case 'thematic_break':
        return '<hr>\n';
      case 'html_block':
        return node.text ?? '';
      case 'front_matter':
        return '';
      case 'table': {
        const head = node.children.filter((row) => row.attributes['header'] === true);
        const body = node.children.filter((row) => row.attributes['header'] !== true);
        return (
          '<table>\n' +
          (head.length ? `<thead>\n${head.map((row) => render(row, false)).join('')}</thead>\n` : '') +
          (body.length ? `<tbody>\n${body.map((row) => render(row, false)).join('')}</tbody>\n` : '') +
          '</table>\n'
        );
      }
      case 'table_row':
        return `<tr>\n${children(node)}</tr>\n`;
      case 'table_cell': {
        const tag = a['header'] === true ? 'th' : 'td';
        const align = typeof a['align'] === 'string' ? attribute('style', `text-align:${a['align']}`) : '';
        return `<${tag}${align}>${children(node)}</${tag}>\n`;
      }
      case 'math_block':
        return `<div class="math-block">${slot(texToMathml(node.text ?? '', true))}</div>\n`;
      case 'mermaid':
      case 'function_plot':
        return visual(node);
      case 'text': {
        const label = footnoteReference(node);
        return (label !== undefined && footnoteRef(label)) || highlighted(node, escapeHtml(node.text ?? ''));
      }
      case 'soft_break':
        return '\n';
      case 'line_break':
        return '<br>\n';
      case 'emphasis':
        return `<em>${children(node)}</em>`;
      case 'strong':
        return `<strong>${children(node)}</strong>`;
      case 'strikethrough':
        return `<s>${children(node)}</s>`;
      case 'link':
        return `<a href="${escapeHtml(String(a['href'] ?? ''))}"${attribute('title', a['title'] ?? null)}>${children(node)}</a>`;
      case 'image': {
        // Obsidian's `|200x100`: the stylesheet keeps heights `auto`, the ratio keeps the one asked for.
        const ratio =
          typeof a['width'] === 'number' && typeof a['height'] === 'number'
            ? attribute('style', `aspect-ratio: ${a['width']} / ${a['height']}`)
            : '';
        return `<img${attribute('src', String(a['src'] ?? ''))} alt="${escapeHtml(String(a['alt'] ?? ''))}"${attribute('title', a['title'] ?? null)}${attribute('width', a['width'] ?? null)}${attribute('height', a['height'] ?? null)}${ratio}>`;
      }
      case 'code_inline':
        return highlighted(node, `<code>${escapeHtml(node.text ?? '')}</code>`);
      case 'html_inline':
        return node.text ?? '';
      case 'math_inline':
        return slot(texToMathml(node.text ?? '', a['display'] === true));
      case 'wikilink':
        // Another note is not part of this file: the link's label stays, marked.
        return highlighted(
          node,
          `<span class="wikilink"${attribute('title', String(a['target'] ?? ''))}>${escapeHtml(node.text ?? '')}</span>`,
        );
      default: {
        const unknown: never = node.type;
        return escapeHtml(String(unknown));
      }
    }
  }

  return render(root, false);
}
