import type { StaticRenderRequest, StaticRenderResult, StaticRenderTheme } from '../contracts/exports';
import { contentHash } from '../core/content-hash';
import {
  FUNCTION_PLOT_EXPRESSION_UNSAFE,
  FUNCTION_PLOT_PARSE_FAILED,
  FUNCTION_PLOT_RENDER_FAILED,
  parseFunctionPlot,
  renderFunctionPlotSvg,
} from '../core/function-plot';
import type { StaticRenderer } from './exporter';

/** Bumped whenever a renderer's output changes, so cached images are not reused across versions. */
export const STATIC_RENDERER_VERSION = 'static-1';
const CACHE_LIMIT = 128;

export type StaticRenderErrorCode =
  | 'MERMAID_PARSE_FAILED'
  | 'MERMAID_RENDER_FAILED'
  | 'MERMAID_SVG_UNSAFE'
  | typeof FUNCTION_PLOT_PARSE_FAILED
  | typeof FUNCTION_PLOT_EXPRESSION_UNSAFE
  | typeof FUNCTION_PLOT_RENDER_FAILED;

export class StaticRenderError extends Error {
  override readonly name = 'StaticRenderError';
  readonly code: StaticRenderErrorCode;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: StaticRenderErrorCode, message: string, at: { line?: number; column?: number } = {}) {
    super(message);
    this.code = code;
    this.line = at.line;
    this.column = at.column;
  }
}

/** Mermaid needs a DOM: the page renders it (§12.1, static mode) and answers through Comlink. */
export interface MermaidStaticPort {
  render(
    source: string,
    options: { theme: StaticRenderTheme },
  ): Promise<{ svg: string; width: number; height: number; warnings: string[] }>;
  /** The page's SVG-to-PNG drawing (SvgRasterizer), where the page offers it. */
  rasterize?(svg: string, size: { width: number; height: number; scale: number }): Promise<Uint8Array>;
}

/** The page may never answer (a tab in the background, a stuck chunk load): a cancel must not wait for it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function staticSourceHash(source: string): string {
  return contentHash(source);
}

// Whatever the page's sanitizer did, nothing that can run script or pull in HTML
// reaches an exported file: a second, independent check on the worker side.
const UNSAFE_SVG =
  /<script\b|<foreignobject\b|<iframe\b|<object\b|<embed\b|\son[a-z]+\s*=|javascript:|vbscript:|data:text\/html/i;

export function isSvgSafe(svg: string): boolean {
  return /^\s*<svg[\s>]/i.test(svg) && !UNSAFE_SVG.test(svg);
}

/**
 * The §10.4 renderer the exporters use: function plots are drawn here (pure SVG),
 * Mermaid by the page. Results are cached by source hash, theme, size and renderer
 * version; failures are not cached.
 */
export function createStaticRenderer(
  options: { mermaid?: MermaidStaticPort | undefined } = {},
): StaticRenderer & {
  readonly cacheSize: number;
} {
  const cache = new Map<string, StaticRenderResult>();
  const remember = (key: string, result: StaticRenderResult): StaticRenderResult => {
    cache.set(key, result);
    if (cache.size > CACHE_LIMIT) {
      const oldest = cache.keys().next().value;
      if (oldest !== undefined) cache.delete(oldest);
    }
    return result;
  };

  async function renderUncached(
    request: StaticRenderRequest,
    signal?: AbortSignal,
  ): Promise<StaticRenderResult> {
    if (request.kind === 'function_plot') {
      const parsed = parseFunctionPlot(request.source);
      const error = parsed.diagnostics.find((item) => item.severity === 'error');
      if (!parsed.plot || error) {
        throw new StaticRenderError(
          error?.code === FUNCTION_PLOT_EXPRESSION_UNSAFE
            ? FUNCTION_PLOT_EXPRESSION_UNSAFE
            : FUNCTION_PLOT_PARSE_FAILED,
          error?.message ?? 'The plot could not be read.',
          {
            ...(error?.line !== undefined && { line: error.line }),
            ...(error?.column !== undefined && { column: error.column }),
          },
        );
      }
      try {
        const result = renderFunctionPlotSvg(parsed.plot, {
          theme: request.theme,
          ...(request.width !== undefined && { width: request.width }),
          ...(request.height !== undefined && { height: request.height }),
        });
        const warnings = parsed.diagnostics.map((item) => item.message).concat(result.warnings);
        return { ...result, warnings };
      } catch (cause) {
        throw new StaticRenderError(
          FUNCTION_PLOT_RENDER_FAILED,
          cause instanceof Error ? cause.message : 'The plot could not be drawn.',
        );
      }
    }
    if (!options.mermaid) {
      throw new StaticRenderError(
        'MERMAID_RENDER_FAILED',
        'Diagrams cannot be drawn here (no page renderer).',
      );
    }
    signal?.throwIfAborted();
    let rendered: Awaited<ReturnType<MermaidStaticPort['render']>>;
    try {
      rendered = await untilAborted(options.mermaid.render(request.source, { theme: request.theme }), signal);
    } catch (cause) {
      if (signal?.aborted) throw cause;
      // The page answers with the §12.4 code (an AppError across Comlink); anything
      // else means the renderer itself is not working.
      const code = (cause as { code?: unknown } | null)?.code;
      const message = cause instanceof Error ? cause.message : 'The diagram could not be rendered.';
      if (code === 'MERMAID_PARSE_FAILED' || code === 'MERMAID_SVG_UNSAFE')
        throw new StaticRenderError(code, message);
      throw new StaticRenderError('MERMAID_RENDER_FAILED', message);
    }
    if (!isSvgSafe(rendered.svg)) {
      throw new StaticRenderError('MERMAID_SVG_UNSAFE', 'The diagram contained content that is not allowed.');
    }
    return {
      mimeType: 'image/svg+xml',
      content: rendered.svg,
      width: rendered.width,
      height: rendered.height,
      warnings: rendered.warnings,
    };
  }

  return {
    get cacheSize() {
      return cache.size;
    },
    async render(request, signal) {
      const key = [
        STATIC_RENDERER_VERSION,
        request.kind,
        request.sourceHash || staticSourceHash(request.source),
        request.theme,
        request.width ?? '',
        request.height ?? '',
      ].join('|');
      const cached = cache.get(key);
      if (cached) return cached;
      return remember(key, await renderUncached(request, signal));
    },
  };
}
