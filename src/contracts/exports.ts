import type { ErrorEnvelope } from './errors';
import type { JobProgress, JobStatus } from './jobs';
import type { OffsetPage } from './pages';

// §10 Export Service and §12 Mermaid / function-plot contracts. Field names are
// the contract's (snake_case wire DTOs); zod schemas live in export-schemas.ts so
// the page can import these types without loading zod.

export const EXPORT_FORMATS = ['html', 'pdf', 'docx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MIME_TYPES: Readonly<Record<ExportFormat, string>> = {
  html: 'text/html;charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export const EXPORT_PAGE_SIZES = ['A4', 'Letter', 'A5', 'Legal'] as const;
export type ExportPageSize = (typeof EXPORT_PAGE_SIZES)[number];

/** §10.1 `code_theme`: highlight.js's GitHub colours, or `none` for code in the text colour. */
export const EXPORT_CODE_THEMES = ['github-light', 'github-dark', 'none'] as const;
export type ExportCodeTheme = (typeof EXPORT_CODE_THEMES)[number];

export interface ExportOptions {
  theme_id: string;
  include_title: boolean;
  include_metadata: boolean;
  page_size: ExportPageSize;
  code_theme: string;
}

export type ExportSource =
  { type: 'note'; note_id: string } | { type: 'markdown'; markdown: string; title?: string };

export interface ExportFileInfo {
  file_name: string;
  mime_type: string;
  size: number;
  sha256: string;
  expires_at: string;
}

/** §10.1 ExportJob. `warnings` lists what a format could not represent exactly. */
export interface ExportJob {
  job_id: string;
  status: JobStatus;
  format: ExportFormat;
  progress: JobProgress | null;
  file: ExportFileInfo | null;
  warnings: string[];
  error: ErrorEnvelope['error'] | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export type ExportJobListResponse = OffsetPage<ExportJob>;

/** The downloaded file: the worker's answer to `GET /api/exports/{job_id}/file`. */
export interface ExportFileResponse {
  file_name: string;
  mime_type: string;
  size: number;
  sha256: string;
  /** `attachment; filename="..."; filename*=UTF-8''...` with a sanitized name. */
  content_disposition: string;
  data: Uint8Array;
}

// ---------------------------------------------------------------------------
// §10.3 Document AST
// ---------------------------------------------------------------------------

/** The contract's first batch of node types, then the ones this dialect needs beside them. */
export const DOCUMENT_NODE_TYPES = [
  'document',
  'heading',
  'paragraph',
  'text',
  'emphasis',
  'strong',
  'link',
  'list',
  'list_item',
  'table',
  'image',
  'blockquote',
  'code_block',
  'math_inline',
  'math_block',
  'mermaid',
  'function_plot',
  // Beyond the first batch: front matter and wikilinks as their own nodes, the
  // rest so that no Markdown construct is lost on the way to an exporter.
  'front_matter',
  'wikilink',
  'table_row',
  'table_cell',
  'code_inline',
  'strikethrough',
  'line_break',
  'soft_break',
  'thematic_break',
  'html_block',
  'html_inline',
] as const;
export type DocumentNodeType = (typeof DOCUMENT_NODE_TYPES)[number];

/** 0-based source lines, `end_line` exclusive (markdown-it's block map); inline nodes carry their block's. */
export interface SourcePosition {
  start_line: number;
  end_line: number;
}

export interface DocumentNode {
  node_id: string;
  type: DocumentNodeType;
  attributes: Record<string, string | number | boolean | null>;
  children: DocumentNode[];
  text?: string;
  position?: SourcePosition;
}

export interface ExportDocument {
  title: string;
  root: DocumentNode;
  /** Front matter as parsed YAML (an empty object when there is none or it does not parse). */
  metadata: Record<string, unknown>;
}

// ---------------------------------------------------------------------------
// §10.4 Static render, §12 function plots
// ---------------------------------------------------------------------------

export type StaticRenderTheme = 'light' | 'dark';

export interface StaticRenderRequest {
  kind: 'mermaid' | 'function_plot';
  source: string;
  sourceHash: string;
  theme: StaticRenderTheme;
  width?: number;
  height?: number;
}

export interface StaticRenderResult {
  mimeType: 'image/svg+xml' | 'image/png';
  content: string | Uint8Array;
  width: number;
  height: number;
  warnings: string[];
}

export interface FunctionPlot {
  version: 1;
  expressions: Array<{ expression: string; label?: string; color?: string }>;
  domain?: [number, number];
  range?: [number, number];
  axes: { xLabel?: string; yLabel?: string; grid: boolean };
  /**
   * Named constants the expressions may use besides `x` (`param: a = 2`). An
   * additive field: §12.2 names parameters in prose but gives them no field.
   */
  parameters?: Array<{ name: string; value: number }>;
}

export interface FunctionPlotDiagnostic {
  severity: 'warning' | 'error';
  code: string;
  message: string;
  line?: number;
  column?: number;
}

export interface FunctionPlotParseResult {
  plot?: FunctionPlot;
  diagnostics: FunctionPlotDiagnostic[];
}
