import { diagramLabels } from '../markdown/diagram-labels';
import type { MermaidLabels } from '../markdown/mermaid-blocks';

/**
 * The isolated preview of a theme: a whole document for a sandboxed iframe
 * (`sandbox=""`: no scripts, an opaque origin) with a CSP of its own that
 * allows inline styles and `data:` images and fonts, nothing else.
 */
export const PREVIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

/** KaTeX's MathML (which the browser draws natively) instead of its HTML, which needs KaTeX's own CSS and fonts. */
const PREVIEW_EXTRAS = '.katex-html { display: none; } .markdown-preview { padding: 0.75rem 1rem; }';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** `</style` inside the CSS would end the style element; `<\/` means the same to CSS. */
function styleText(css: string): string {
  return css.replaceAll('</', '<\\/');
}

export function previewDocument(css: string, sampleHtml: string, lang: string): string {
  return (
    `<!doctype html><html lang="${escapeAttribute(lang)}"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(PREVIEW_CSP)}">` +
    `<style>${styleText(css)}</style><style>${PREVIEW_EXTRAS}</style>` +
    `</head><body><main class="markdown-preview">${sampleHtml}</main></body></html>`
  );
}

/**
 * The sample note as sanitized HTML, its diagrams drawn (as sanitized SVG) in
 * an off-screen container of this page first, since the frame runs no scripts.
 * `labels` are the diagrams' words in the UI language.
 */
export async function renderSampleNote(
  source: string,
  isDark: boolean,
  labels: MermaidLabels = diagramLabels(),
): Promise<string> {
  const renderer = await import('../markdown');
  const html = renderer.renderMarkdownSafe(source);
  const container = document.createElement('div');
  container.setAttribute('aria-hidden', 'true');
  container.style.cssText = 'position:absolute;left:-10000px;top:0;width:640px;';
  container.innerHTML = html;
  document.body.append(container);
  try {
    await renderer.renderMermaidBlocks(container, { theme: isDark ? 'dark' : 'default', labels });
    return container.innerHTML;
  } catch (error) {
    console.warn('NotesAgent: diagrams in the theme preview failed', error);
    return html;
  } finally {
    container.remove();
  }
}
