import sanitizeHtml from 'sanitize-html';
import type { ExportDocument, ExportPageSize } from '../../contracts/exports';
import { EXPORT_MIME_TYPES } from '../../contracts/exports';
import {
  WarningList,
  isDarkExport,
  type DocumentExporter,
  type ExportContext,
  type ExportResult,
} from '../exporter';
import { styledCode, type CodeStyle, type CodeTheme } from '../../core/code-highlight-themes';
import { withCalloutTitles } from '../callout-titles';
import { codeBlockColours, exportCodeTheme } from '../code-theme';
import { exportLanguage, renderVisuals } from '../visuals';
import { printsTitle } from '../title-heading';
import { escapeHtml, renderHtmlBody } from './render-html';

const RASTER_DATA_URL = /^data:image\/(?:png|jpe?g|gif|webp)[;,]/i;

/**
 * The note's own raw HTML is the only untrusted markup in the body (text is escaped
 * by the renderer); sanitize-html needs no DOM, so this runs in the worker.
 */
const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'input',
    'del',
    's',
    'ins',
    'details',
    'summary',
    'figure',
    'figcaption',
    'kbd',
    'mark',
  ],
  allowedAttributes: {
    // `id`: a footnote's reference and its note link to each other.
    a: ['href', 'title', 'name', 'rel', 'id'],
    li: ['id'],
    img: ['src', 'alt', 'title', 'width', 'height', 'style'],
    input: ['type', 'checked', 'disabled'],
    ol: ['start'],
    th: ['style', 'colspan', 'rowspan'],
    td: ['style', 'colspan', 'rowspan'],
    span: ['class', 'title', 'data-slot'],
    p: ['class', 'data-error-code'],
    '*': ['class'],
  },
  allowedStyles: {
    '*': { 'text-align': [/^(?:left|right|center)$/] },
    // A picture's size as Obsidian writes it (`|200x100`), which `height:auto` would undo.
    img: { 'aspect-ratio': [/^\d+ \/ \d+$/] },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  exclusiveFilter: (frame) =>
    (frame.tag === 'input' && frame.attribs['type'] !== 'checkbox') ||
    (frame.tag === 'img' &&
      /^data:/i.test(frame.attribs['src'] ?? '') &&
      !RASTER_DATA_URL.test(frame.attribs['src'] ?? '')),
  transformTags: {
    // Exported pages open on their own: links must not reach back through window.opener.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } }),
    input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
  },
};

function styleAttribute(style: CodeStyle | undefined): string {
  if (!style) return '';
  const rules = [`color:${style.color}`];
  if (style.bold) rules.push('font-weight:bold');
  if (style.italic) rules.push('font-style:italic');
  return ` style="${rules.join(';')}"`;
}

/**
 * A code block with its colours inline, so they hold whatever stylesheet the file
 * is opened with (the app theme's own `.hljs-*` rules included). It goes through a
 * trusted slot: every piece of the note's text in it is escaped here.
 */
function colouredCodeBlock(
  text: string,
  language: string,
  theme: CodeTheme,
  block: { background: string; foreground: string } | undefined,
): string {
  const spans = styledCode(text, language, theme)
    .map((run) => {
      const escaped = escapeHtml(run.text);
      return run.style ? `<span${styleAttribute(run.style)}>${escaped}</span>` : escaped;
    })
    .join('');
  const cls = language !== '' ? ` class="language-${escapeHtml(language)}"` : '';
  const style = block ? ` style="background:${block.background};color:${block.foreground}"` : '';
  const codeStyle = block ? ' style="color:inherit;background:none"' : '';
  return `<pre class="code-theme-${theme.id}"${style}><code${cls}${codeStyle}>${spans}</code></pre>`;
}

export function sanitizeExportHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE_OPTIONS);
}

const STYLES = {
  light: {
    background: '#ffffff',
    text: '#1f2937',
    muted: '#6b7280',
    border: '#e5e7eb',
    code: '#f3f4f6',
    link: '#2563eb',
    highlight: '#fff4d6',
  },
  dark: {
    background: '#111827',
    text: '#f3f4f6',
    muted: '#9ca3af',
    border: '#374151',
    code: '#1f2937',
    link: '#93c5fd',
    highlight: '#3a3019',
  },
};

/** CSS's own names for the contract's page sizes: printing the file uses the paper chosen. */
const CSS_PAGE_SIZES: Readonly<Record<ExportPageSize, string>> = {
  A4: 'A4',
  A5: 'A5',
  Letter: 'letter',
  Legal: 'legal',
};

function stylesheet(theme: 'light' | 'dark', pageSize: ExportPageSize): string {
  const c = STYLES[theme];
  return `body{margin:0;background:${c.background};color:${c.text};font:16px/1.6 system-ui,-apple-system,"Segoe UI","Noto Sans SC","PingFang SC","Microsoft YaHei",sans-serif}
article{max-width:820px;margin:0 auto;padding:2rem 1.25rem}
h1,h2,h3,h4,h5,h6{line-height:1.25;margin:1.6em 0 .6em}
a{color:${c.link}}
pre{background:${c.code};padding:.8em 1em;border-radius:6px;overflow:auto}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
:not(pre)>code{background:${c.code};padding:.1em .3em;border-radius:4px}
blockquote{margin:0;padding:0 1em;border-left:4px solid ${c.border};color:${c.muted}}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid ${c.border};padding:.35em .7em}
img,svg{max-width:100%;height:auto}
figure{margin:1em 0;text-align:center}
.math-block{overflow-x:auto;margin:1em 0}
.task-list-item{list-style:none}
.wikilink{text-decoration:underline dotted}
mark{background:var(--color-highlight,var(--color-warning-soft,${c.highlight}));color:inherit;padding:0 .15em;border-radius:3px}
.footnote-ref a{text-decoration:none}
.footnotes{color:${c.muted};font-size:.9em;margin-top:2em}
.footnotes hr{border:0;border-top:1px solid ${c.border}}
.footnotes p{margin:.25em 0}
.footnote-back{text-decoration:none}
.render-error{color:#b91c1c;font-size:.9em}
.metadata{color:${c.muted};font-size:.9em;border-bottom:1px solid ${c.border};padding-bottom:.5em}
.metadata dt{font-weight:600;float:left;clear:left;margin-right:.5em}
.metadata dd{margin:0}
@page{size:${CSS_PAGE_SIZES[pageSize]}}
@media print{article{max-width:none;padding:0}}`;
}

/**
 * CSS as the text of a `<style>` element: `</style` would end the element early,
 * so its slash is escaped (`\\/` reads as `/` to CSS).
 */
function styleText(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

function metadataList(metadata: Record<string, unknown>): string {
  const rows = Object.entries(metadata)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => {
      const text = Array.isArray(value)
        ? value.map(String).join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
      return `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(text)}</dd>`;
    });
  return rows.length ? `<dl class="metadata">${rows.join('')}</dl>\n` : '';
}

/**
 * One self-contained HTML file: styles inline, formulas as MathML, diagrams and
 * plots as inline SVG, nothing fetched from anywhere.
 */
export async function renderHtmlDocument(
  source: ExportDocument,
  context: ExportContext,
  warnings: WarningList,
): Promise<string> {
  const document = withCalloutTitles(source);
  const visuals = await renderVisuals(document.root, context, warnings);
  context.signal.throwIfAborted();
  // Trusted fragments wait outside the sanitizer behind nonce-named slots, so a
  // note cannot forge one.
  const nonce = crypto.randomUUID();
  const slots: string[] = [];
  const codeStyle = exportCodeTheme(context);
  // One language for the page and the messages it carries (a diagram that failed).
  const language = exportLanguage(document);
  const body = renderHtmlBody(document.root, {
    visuals,
    language,
    ...(codeStyle.id !== 'none' && {
      codeBlock: (text: string, language: string) =>
        colouredCodeBlock(text, language, codeStyle, codeBlockColours(codeStyle, context)),
    }),
    onBlock: (current, total) => context.progress?.('writing', current, total),
    slot: (trusted) => {
      slots.push(trusted);
      return `<span data-slot="${nonce}-${slots.length - 1}"></span>`;
    },
  });
  const clean = sanitizeExportHtml(body).replace(
    new RegExp(`<span data-slot="${nonce}-(\\d+)"></span>`, 'g'),
    (_match, index: string) => slots[Number(index)] ?? '',
  );
  const theme = isDarkExport(context) ? 'dark' : 'light';
  // The theme's rules follow the base ones so they win; they are written for the
  // app's `.markdown-preview`, which the article carries.
  const themeCss = context.theme ? `\n${styleText(context.theme.css)}` : '';
  const title = escapeHtml(document.title);
  const heading = printsTitle(document, context.options.include_title)
    ? `<h1 class="title">${title}</h1>\n`
    : '';
  const metadata = context.options.include_metadata ? metadataList(document.metadata) : '';
  return (
    `<!doctype html>\n<html lang="${language}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    // No script may run in an exported page, and it may load nothing but its own inline images.
    // A theme's fonts are embedded as data: URLs (its CSS safety allows no other).
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data: https: http:; font-src data:; style-src 'unsafe-inline'">\n` +
    `<meta name="generator" content="NotesAgent">\n<title>${title}</title>\n<style>${stylesheet(theme, context.options.page_size)}${themeCss}</style>\n</head>\n` +
    `<body>\n<article class="markdown-preview">\n${heading}${metadata}${clean}</article>\n</body>\n</html>\n`
  );
}

export const htmlExporter: DocumentExporter = {
  format: 'html',
  extension: 'html',
  mimeType: EXPORT_MIME_TYPES.html,
  async export(document: ExportDocument, context: ExportContext): Promise<ExportResult> {
    const warnings = new WarningList();
    const html = await renderHtmlDocument(document, context, warnings);
    return { data: new TextEncoder().encode(html), warnings: warnings.toArray() };
  },
};
