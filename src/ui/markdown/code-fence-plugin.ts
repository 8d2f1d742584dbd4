import type { MarkdownIt } from 'markdown-it';
import { highlightCode, isHighlightable } from './highlight';

/** Fence label whose block becomes a Mermaid placeholder instead of highlighted code. */
const MERMAID_LANGUAGE = 'mermaid';
const FUNCTION_PLOT_LANGUAGE = 'function-plot';
const SAFE_LANGUAGE_NAME = /^[\w#+.-]+$/;

/**
 * The placeholder's copy of the diagram source is percent-encoded, not just
 * HTML-escaped: DOMPurify (SAFE_FOR_XML) drops any attribute whose decoded value
 * contains `-->`, which nearly every flowchart has. `decodeMermaidSource` reverses it.
 */
export function encodeMermaidSource(source: string): string {
  return encodeURIComponent(source);
}

export function decodeMermaidSource(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

/**
 * Code fences: highlighted with the registered highlight.js grammars, escaped plain
 * text otherwise. Mermaid fences become a `.mermaid-block` placeholder holding the
 * source (visible as a `<pre>` fallback); `renderMermaidBlocks` draws them later,
 * off the synchronous render path.
 */
export function codeFencePlugin(md: MarkdownIt): void {
  const escape = md.utils.escapeHtml;
  md.renderer.rules.fence = (tokens, index, _options, _env, renderer) => {
    const token = tokens[index];
    if (!token) return '';
    const info = token.info ? md.utils.unescapeAll(token.info).trim() : '';
    const language = (info.split(/\s+/)[0] ?? '').toLowerCase();

    if (language === MERMAID_LANGUAGE) {
      token.attrJoin('class', 'mermaid-block');
      token.attrSet('data-mermaid-source', encodeMermaidSource(token.content));
      return (
        `<div${renderer.renderAttrs(token)}>` +
        `<pre class="mermaid-source"><code class="language-mermaid">${escape(token.content)}</code></pre>` +
        `</div>\n`
      );
    }

    if (language === FUNCTION_PLOT_LANGUAGE) {
      // The source stays visible until (and unless) the chart replaces nothing:
      // renderFunctionPlots draws above it, and a broken block keeps it.
      return (
        `<div class="function-plot-block"${renderer.renderAttrs(token)}>` +
        `<pre class="function-plot-source"><code class="language-function-plot">${escape(token.content)}</code></pre>` +
        `</div>\n`
      );
    }

    const classes = ['hljs'];
    if (language !== '' && SAFE_LANGUAGE_NAME.test(language)) classes.push(`language-${language}`);
    const body = isHighlightable(language) ? highlightCode(token.content, language) : escape(token.content);
    return `<pre${renderer.renderAttrs(token)}><code class="${escape(classes.join(' '))}">${body}</code></pre>\n`;
  };
}
