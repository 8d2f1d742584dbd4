// Public surface of the Markdown preview. Components import from here only;
// the CSS lives in './styles' so the app shell imports it once.
export { renderMarkdown, renderMarkdownSafe } from './render-markdown';
export { createSanitizer, sanitizeHtml, sanitizeSvg } from './sanitize';
export type { Sanitizer } from './sanitize';
export {
  renderMermaidBlocks,
  renderMermaidStatic,
  clearMermaidRenderCache,
  MERMAID_PARSE_FAILED,
  MERMAID_RENDER_FAILED,
  MERMAID_SVG_UNSAFE,
} from './mermaid-blocks';
export type {
  MermaidErrorCode,
  MermaidLabels,
  MermaidTheme,
  RenderMermaidOptions,
  RenderMermaidResult,
} from './mermaid-blocks';
export { wikilinkHref } from './wikilink-plugin';
export { SOURCE_LINE_ATTRIBUTE } from './source-line-plugin';
export {
  PlotParameterMemory,
  renderFunctionPlots,
  renderInteractivePlot,
  resetFunctionPlots,
  themeSeriesColors,
} from './function-plot-blocks';
export type { PlotLabels, RenderHandle } from './function-plot-blocks';
export { translatePlotWarning } from './plot-warnings';
export { BlockRenderer } from './block-renderer';
export type { BlockRendererOptions, PreviewBlock } from './block-renderer';
