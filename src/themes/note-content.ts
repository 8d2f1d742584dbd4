/**
 * How a rendered note looks, in the app, in a theme's preview and in exports.
 * Only custom properties carry colours, so a theme (built-in or package) restyles
 * code, tables, quotes, math and diagrams by setting them.
 */
export const NOTE_CONTENT_CSS = `.markdown-preview {
  color: var(--color-text);
  line-height: 1.6;
}

.markdown-preview h1,
.markdown-preview h2,
.markdown-preview h3,
.markdown-preview h4,
.markdown-preview h5,
.markdown-preview h6 {
  margin: 1.4em 0 0.5em;
  line-height: 1.25;
  color: var(--color-heading, var(--color-text));
}

.markdown-preview h1 {
  font-size: 1.75em;
  padding-bottom: 0.25em;
  border-bottom: 1px solid var(--color-border);
}

.markdown-preview h2 {
  font-size: 1.4em;
}

.markdown-preview a {
  color: var(--color-accent);
}

.markdown-preview code {
  font-family: var(--font-mono);
  font-size: 0.9em;
  padding: 0.1em 0.35em;
  border-radius: 4px;
  background: var(--color-code-bg);
  color: var(--color-code-text);
}

.markdown-preview pre {
  overflow: auto;
  padding: 0.75rem 1rem;
  border: 1px solid var(--color-code-border);
  border-radius: var(--radius);
  background: var(--color-code-bg);
  color: var(--color-code-text);
}

.markdown-preview pre code,
.markdown-preview pre code.hljs {
  padding: 0;
  background: transparent;
  color: inherit;
  font-size: 0.875rem;
}

.markdown-preview table {
  border-collapse: collapse;
  margin: 1em 0;
  display: block;
  max-width: 100%;
  overflow: auto;
}

.markdown-preview th,
.markdown-preview td {
  padding: 0.375rem 0.75rem;
  border: 1px solid var(--color-table-border);
  /*
   * Break a cell's text only where it would overflow: "anywhere", which the preview sets
   * for its prose, also shrinks a cell to a letter's width, splitting words a column fits.
   */
  overflow-wrap: break-word;
}

.markdown-preview th {
  background: var(--color-table-header-bg);
  font-weight: 600;
  /* A header is a word or a short phrase: the table scrolls rather than split "Algorith|m" or "时间片轮|转". */
  word-break: keep-all;
}

.markdown-preview tbody tr:nth-child(2n) {
  background: var(--color-table-stripe);
}

.markdown-preview blockquote {
  margin: 1em 0;
  padding: 0 1em;
  border-left: 0.25em solid var(--color-quote-border);
  color: var(--color-text-muted);
}

.markdown-preview hr {
  border: 0;
  border-top: 1px solid var(--color-border);
}

.markdown-preview .katex {
  color: inherit;
}

/* A formula wider than the page scrolls on its own instead of being cut off at the edge
   (a display formula written inside a paragraph, $$…$$ on one line, too; in a math block
   the block is the one box that scrolls). */
.markdown-preview .math-block,
.markdown-preview .katex-display:not(.math-block *) {
  overflow-x: auto;
  overflow-y: hidden;
}

/*
 * A diagram fits the pane down to three quarters of its own size (labels stay 12 px or more);
 * wider than that it scrolls sideways in its own area, as a wide formula does. On a phone the
 * whole diagram used to shrink to the pane, its labels 6 px tall. --diagram-width is Mermaid's
 * own width, set where the diagram is drawn; exports draw diagrams as figures, not these blocks.
 */
.markdown-preview .mermaid-diagram {
  overflow-x: auto;
  overflow-y: hidden;
}

.markdown-preview .mermaid-block svg {
  max-width: 100%;
  height: auto;
}

.markdown-preview .mermaid-diagram svg {
  display: block;
  min-width: calc(var(--diagram-width, 0px) * 0.75);
}

@media print {
  .markdown-preview .mermaid-diagram svg {
    min-width: 0;
  }
}

/* Interactive function plots: the library draws axes in black; the theme decides. */
.markdown-preview .function-plot-chart {
  color: var(--color-text-muted);
}

.markdown-preview .function-plot-chart text {
  fill: var(--color-text-muted);
}

.markdown-preview .function-plot-chart .axis path,
.markdown-preview .function-plot-chart .axis line {
  stroke: var(--color-border);
}

.markdown-preview .function-plot-chart .origin {
  stroke: var(--color-text-muted);
}

/* Syntax colours (highlight.js classes), from the theme's --code-* tokens. */
.hljs-doctag,
.hljs-keyword,
.hljs-meta .hljs-keyword,
.hljs-template-tag,
.hljs-template-variable,
.hljs-type,
.hljs-variable.language_ {
  color: var(--code-keyword);
}

.hljs-title,
.hljs-title.class_,
.hljs-title.class_.inherited__,
.hljs-title.function_ {
  color: var(--code-title);
}

.hljs-attr,
.hljs-attribute,
.hljs-literal,
.hljs-meta,
.hljs-number,
.hljs-operator,
.hljs-variable,
.hljs-selector-attr,
.hljs-selector-class,
.hljs-selector-id {
  color: var(--code-number);
}

.hljs-regexp,
.hljs-string,
.hljs-meta .hljs-string {
  color: var(--code-string);
}

.hljs-built_in {
  color: var(--code-built-in, var(--code-type));
}

.hljs-symbol {
  color: var(--code-type);
}

.hljs-comment,
.hljs-code,
.hljs-formula {
  color: var(--code-comment);
}

.hljs-name,
.hljs-quote,
.hljs-selector-tag,
.hljs-selector-pseudo {
  color: var(--code-attr);
}

.hljs-subst {
  color: var(--code-meta);
}

.hljs-section {
  color: var(--code-number);
  font-weight: bold;
}

.hljs-bullet {
  color: var(--code-type);
}

.hljs-emphasis {
  font-style: italic;
}

.hljs-strong {
  font-weight: bold;
}

.hljs-addition {
  color: var(--code-addition);
  background-color: var(--code-addition-bg);
}

.hljs-deletion {
  color: var(--code-deletion);
  background-color: var(--code-deletion-bg);
}
`;
