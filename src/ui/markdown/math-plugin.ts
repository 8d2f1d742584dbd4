import katex from 'katex';
import type { MarkdownIt } from 'markdown-it';

/**
 * TeX to KaTeX HTML. `throwOnError: false` turns TeX errors into KaTeX's red error
 * span; the catch covers KaTeX's own failures, because one bad formula must never
 * take the whole preview down.
 */
export function renderTex(tex: string, displayMode: boolean, escapeHtml: (text: string) => string): string {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
  } catch {
    return `<code class="math-error">${escapeHtml(tex)}</code>`;
  }
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
