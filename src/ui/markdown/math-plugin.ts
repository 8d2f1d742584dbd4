import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';

// KaTeX output by mode and TeX: an edit elsewhere in a paragraph re-renders the
// paragraph, but its formulas come from here. Bounded, oldest dropped first.
const TEX_CACHE_LIMIT = 2000;
const texCache = new Map<string, string>();

/**
 * TeX to KaTeX HTML, cached by source. `throwOnError: false` turns TeX errors into KaTeX's red error
 * span; the catch covers KaTeX's own failures, because one bad formula must never
 * take the whole preview down.
 */
export function renderTex(tex: string, displayMode: boolean, escapeHtml: (text: string) => string): string {
  const key = (displayMode ? 'D' : 'I') + tex;
  const cached = texCache.get(key);
  if (cached !== undefined) return cached;
  let html: string;
  try {
    html = katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
  } catch {
    html = `<code class="math-error">${escapeHtml(tex)}</code>`;
  }
  if (texCache.size >= TEX_CACHE_LIMIT) texCache.delete(texCache.keys().next().value ?? '');
  texCache.set(key, html);
  return html;
}

/** `$...$` and `$$...$$` math (parsed by the shared grammar in core/markdown), rendered with KaTeX. */
export function mathPlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.renderer.rules['math_inline'] = (tokens, index) =>
    renderTex(tokens[index]?.content ?? '', false, escape);
  md.renderer.rules['math_inline_display'] = (tokens, index) =>
    renderTex(tokens[index]?.content ?? '', true, escape);
  md.renderer.rules['math_block'] = (tokens, index, _options, _env, renderer) => {
    const token = tokens[index];
    if (!token) return '';
    token.attrJoin('class', 'math-block');
    return `<div${renderer.renderAttrs(token)}>${renderTex(token.content, true, escape)}</div>\n`;
  };
}
