import type {
  DocumentNode,
  ExportDocument,
  ExportFormat,
  ExportOptions,
  StaticRenderRequest,
  StaticRenderResult,
} from '../contracts/exports';

/** Renders Mermaid diagrams and function plots to sanitized images (§10.4). */
export interface StaticRenderer {
  render(request: StaticRenderRequest, signal?: AbortSignal): Promise<StaticRenderResult>;
}

/** A theme as one self-contained stylesheet, already checked by the theme's CSS safety. */
export interface ExportTheme {
  readonly theme_id: string;
  readonly is_dark: boolean;
  readonly css: string;
}

/**
 * Where the exporter finds the app's themes (`theme_id` of §10.1). Rejects an
 * unknown id with THEME_NOT_FOUND.
 */
export interface ExportThemePort {
  getThemeCss(themeId: string): Promise<ExportTheme>;
}

/**
 * Draws a sanitized SVG as PNG bytes, `scale` pixels per SVG unit. The page does it
 * (workers cannot decode SVG images); formats that cannot show SVG (PDF, and DOCX
 * for readers without SVG support) take the PNG.
 */
export interface SvgRasterizer {
  rasterize(svg: string, size: { width: number; height: number; scale: number }): Promise<Uint8Array>;
}

export interface ExportContext {
  readonly options: ExportOptions;
  readonly renderer: StaticRenderer;
  /** Absent where no page is connected: diagrams then stay SVG (DOCX) or source (PDF). */
  readonly rasterizer?: SvgRasterizer;
  /** The resolved `options.theme_id`; absent, only the built-in `dark` id reads as dark. */
  readonly theme?: ExportTheme;
  readonly signal: AbortSignal;
  /**
   * Progress inside the exporter: `rendering` counts the diagrams and plots drawn,
   * `writing` the document's top-level nodes written (after each one). The caller
   * records it in order; the exporter does not wait for it.
   */
  progress?(stage: ExportStage, current: number, total: number): void;
}

export type ExportStage = 'rendering' | 'writing';

export interface ExportResult {
  data: Uint8Array;
  /** What the format could not represent exactly (each once, in document order). */
  warnings: string[];
}

/** §10.3 DocumentExporter: one per format, each in its own folder. */
export interface DocumentExporter {
  readonly format: ExportFormat;
  readonly extension: string;
  readonly mimeType: string;
  export(document: ExportDocument, context: ExportContext): Promise<ExportResult>;
}

/**
 * Thrown by an exporter for severe loss (EXPORT_UNSUPPORTED_CONTENT) or a failed
 * render (EXPORT_RENDER_FAILED); the service turns it into the job's error.
 */
export class ExportError extends Error {
  override readonly name = 'ExportError';
  readonly code: 'EXPORT_UNSUPPORTED_CONTENT' | 'EXPORT_RENDER_FAILED';
  readonly details: Record<string, string | number | boolean | null>;

  constructor(
    code: ExportError['code'],
    message: string,
    details: Record<string, string | number | boolean | null> = {},
  ) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/** Collects warnings once each, in the order they first occur. */
export class WarningList {
  readonly #items = new Set<string>();
  add(message: string): void {
    this.#items.add(message);
  }
  toArray(): string[] {
    return [...this.#items];
  }
}

/**
 * Severe loss (§10.3): when every content block of the note is of a kind the
 * format leaves out, the file would be empty of the note, so the export fails
 * with EXPORT_UNSUPPORTED_CONTENT instead of writing it.
 */
export function assertRepresentable(
  root: DocumentNode,
  dropped: ReadonlySet<DocumentNode['type']>,
  format: string,
): void {
  const blocks = root.children.filter((node) => node.type !== 'front_matter');
  if (blocks.length > 0 && blocks.every((node) => dropped.has(node.type))) {
    throw new ExportError(
      'EXPORT_UNSUPPORTED_CONTENT',
      `Nothing in this note can be written to ${format}: it holds only ${[...new Set(blocks.map((node) => node.type))].join(', ')}.`,
      { format, blocks: blocks.length },
    );
  }
}

/** Whether the export is drawn dark: the resolved theme decides, else the built-in id. */
export function isDarkExport(context: Pick<ExportContext, 'options' | 'theme'>): boolean {
  return context.theme?.is_dark ?? context.options.theme_id === 'dark';
}
