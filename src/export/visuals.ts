import type {
  DocumentNode,
  ExportDocument,
  StaticRenderResult,
  StaticRenderTheme,
} from '../contracts/exports';
import {
  documentLanguage,
  visualErrorText,
  type DocumentLanguage,
} from '../core/markdown/diagram-error-text';
import { walkDocument } from '../core/markdown/document-ast';
import { ExportError, isDarkExport, WarningList, type ExportContext } from './exporter';
import { StaticRenderError, staticSourceHash } from './static-render';

export type VisualOutcome =
  { ok: true; result: StaticRenderResult } | { ok: false; code: string; message: string };

const RENDERER_FAILURES = new Set(['MERMAID_RENDER_FAILED', 'FUNCTION_PLOT_RENDER_FAILED']);

function describe(node: DocumentNode, error: StaticRenderError): string {
  const what = node.type === 'mermaid' ? 'Diagram' : 'Function plot';
  const line = node.position ? node.position.start_line + 1 + (error.line ?? 0) : undefined;
  const where =
    line !== undefined
      ? ` (line ${line}${error.column !== undefined ? `, column ${error.column}` : ''})`
      : '';
  return `${error.code}: ${what}${where} kept as source: ${error.message}`;
}

/**
 * Renders every Mermaid and function-plot node before an exporter writes a line.
 * A diagram the user got wrong stays as source with a warning; a renderer that
 * cannot work at all fails the export (EXPORT_RENDER_FAILED), because the file
 * would silently lack every diagram. They follow the export's theme unless the
 * format fixes one (`options.theme`).
 */
export async function renderVisuals(
  root: DocumentNode,
  context: ExportContext,
  warnings: WarningList,
  options: {
    width?: number;
    height?: number;
    theme?: StaticRenderTheme;
    /** The node types to render; both by default. */
    only?: ReadonlySet<'mermaid' | 'function_plot'>;
  } = {},
): Promise<Map<string, VisualOutcome>> {
  const { theme: forced, only, ...size } = options;
  const nodes: DocumentNode[] = [];
  walkDocument(root, (node) => {
    if ((node.type === 'mermaid' || node.type === 'function_plot') && (!only || only.has(node.type)))
      nodes.push(node);
  });
  const outcomes = new Map<string, VisualOutcome>();
  const theme = forced ?? (isDarkExport(context) ? 'dark' : 'light');
  for (const [index, node] of nodes.entries()) {
    context.signal.throwIfAborted();
    if (index > 0) context.progress?.('rendering', index, nodes.length);
    const source = node.text ?? '';
    try {
      const result = await context.renderer.render(
        {
          kind: node.type === 'mermaid' ? 'mermaid' : 'function_plot',
          source,
          sourceHash: staticSourceHash(source),
          theme,
          ...size,
        },
        context.signal,
      );
      for (const warning of result.warnings) warnings.add(warning);
      outcomes.set(node.node_id, { ok: true, result });
    } catch (error) {
      if (!(error instanceof StaticRenderError)) throw error;
      if (RENDERER_FAILURES.has(error.code)) {
        throw new ExportError(
          'EXPORT_RENDER_FAILED',
          `A ${node.type === 'mermaid' ? 'diagram' : 'plot'} could not be rendered: ${error.message}`,
          {
            node_id: node.node_id,
            render_code: error.code,
          },
        );
      }
      warnings.add(describe(node, error));
      outcomes.set(node.node_id, { ok: false, code: error.code, message: error.message });
    }
  }
  if (nodes.length > 0) context.progress?.('rendering', nodes.length, nodes.length);
  return outcomes;
}

export interface RasterVisual {
  png: Uint8Array;
  /** The SVG's size in CSS pixels (the PNG has `scale` times as many). */
  width: number;
  height: number;
}

/**
 * The rendered SVGs as PNG through the context's rasterizer. One that cannot be
 * drawn is left out with a warning, and the exporter falls back for it.
 */
export async function rasterizeVisuals(
  visuals: ReadonlyMap<string, VisualOutcome>,
  context: ExportContext,
  warnings: WarningList,
  format: string,
  scale = 2,
): Promise<Map<string, RasterVisual>> {
  const rasters = new Map<string, RasterVisual>();
  const { rasterizer } = context;
  if (!rasterizer) return rasters;
  for (const [nodeId, outcome] of visuals) {
    context.signal.throwIfAborted();
    if (!outcome.ok || typeof outcome.result.content !== 'string') continue;
    const { content, width, height } = outcome.result;
    try {
      const png = await rasterizer.rasterize(content, { width, height, scale });
      rasters.set(nodeId, { png, width, height });
    } catch (error) {
      if (context.signal.aborted) throw error;
      warnings.add(
        `${format}: a diagram could not be drawn as a picture (${error instanceof Error ? error.message : 'unknown error'}).`,
      );
    }
  }
  return rasters;
}

/** All the text a document holds, for the language it is written in. */
export function documentText(node: DocumentNode): string {
  return (node.text ?? '') + node.children.map(documentText).join('');
}

/**
 * The one language every format writes its own words in (a diagram that failed): Chinese as
 * soon as the title or the text has Chinese characters, else English.
 */
export function exportLanguage(document: ExportDocument): DocumentLanguage {
  return documentLanguage(`${document.title}\n${documentText(document.root)}`);
}

/**
 * `root` with a paragraph after each diagram or plot that failed, saying why in `language`,
 * as the HTML export writes it under the source; the parser's own words are left out, since
 * a printed page cannot fold them away. For the formats that write such a node as its source.
 */
export function withFailureNotes(
  root: DocumentNode,
  visuals: ReadonlyMap<string, VisualOutcome>,
  language: DocumentLanguage,
): DocumentNode {
  const note = (node: DocumentNode): DocumentNode | undefined => {
    const outcome = visuals.get(node.node_id);
    if (!outcome || outcome.ok) return undefined;
    const kind = node.type === 'mermaid' ? 'mermaid' : 'function_plot';
    const { summary } = visualErrorText(kind, outcome.code, outcome.message, language);
    const id = `${node.node_id}:failure`;
    return {
      node_id: id,
      type: 'paragraph',
      attributes: {},
      children: [{ node_id: `${id}:text`, type: 'text', attributes: {}, children: [], text: summary }],
    };
  };
  // Nodes with no failure under them stay the same objects: exporters key footnotes by node.
  const visit = (node: DocumentNode): DocumentNode => {
    let changed = false;
    const children = node.children.flatMap((child) => {
      const failure = note(child);
      const kept = failure ? child : visit(child);
      if (failure || kept !== child) changed = true;
      return failure ? [child, failure] : [kept];
    });
    return changed ? { ...node, children } : node;
  };
  return visit(root);
}

/**
 * The document with the failure notes of its diagrams and plots, for an exporter that draws
 * them itself later (PDF): Mermaid only where a page can draw it, as the exporter does.
 * Drawn ones are cached by the renderer, so the exporter's own pass does not draw them again.
 */
export async function withVisualFailureNotes(
  document: ExportDocument,
  context: ExportContext,
): Promise<ExportDocument> {
  // Its own warnings and no progress: the exporter's pass reports both.
  const quiet: ExportContext = {
    options: context.options,
    renderer: context.renderer,
    signal: context.signal,
    ...(context.rasterizer && { rasterizer: context.rasterizer }),
    ...(context.theme && { theme: context.theme }),
  };
  const visuals = await renderVisuals(document.root, quiet, new WarningList(), {
    ...(!context.rasterizer && { only: new Set(['function_plot'] as const) }),
  });
  return { ...document, root: withFailureNotes(document.root, visuals, exportLanguage(document)) };
}
