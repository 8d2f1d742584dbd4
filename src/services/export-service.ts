import type { z } from 'zod';
import { AppError, isAppError, offsetPage, toIsoUtc, type JobDto } from '../contracts';
import {
  EXPORT_CODE_THEMES,
  EXPORT_FORMATS,
  EXPORT_MIME_TYPES,
  type ExportFileInfo,
  type ExportFileResponse,
  type ExportFormat,
  type ExportJob,
  type ExportJobListResponse,
  type ExportOptions,
} from '../contracts/exports';
import {
  MAX_EXPORT_MARKDOWN_CHARS,
  createExportSchema,
  listExportsSchema,
  type CreateExportInput,
  type ListExportsInput,
} from '../contracts/export-schemas';
import { systemClock, type Clock } from '../core/ids';
import type { JobContext, JobRuntime } from '../core/job-runtime';
import { documentFromMarkdown } from '../core/markdown/document-ast';
import { inlineNoteImages, type StoredPicture } from '../core/note-images';
import { base64Of } from './image-store';
import type { AttachmentRepository, NotesRepository } from '../db';
import {
  ExportError,
  type DocumentExporter,
  type ExportStage,
  type ExportTheme,
  type ExportThemePort,
  type StaticRenderer,
  type SvgRasterizer,
} from '../export/exporter';
import { createStaticRenderer, type MermaidStaticPort } from '../export/static-render';

export const EXPORT_JOB_KIND = 'export';
/** How long a finished file can be downloaded before it must be exported again. */
export const EXPORT_FILE_TTL_MS = 24 * 60 * 60 * 1000;
/** Finished export jobs kept (with their files); older ones are pruned. */
const KEEP_EXPORT_JOBS = 50;
/** At most this many progress events per stage: a huge note reports every n-th node. */
const PROGRESS_STEPS = 200;

const STAGE_MESSAGES: Record<ExportStage, (current: number, total: number) => string> = {
  rendering: (current, total) => `Drew diagram or plot ${current} of ${total}`,
  writing: (current, total) => `Wrote node ${current} of ${total}`,
};

/**
 * The exporter's stage progress as job progress (§4.2's fields), in call order.
 * The exporter does not wait; `settled()` does, before the job moves on.
 */
function stageProgress(context: JobContext<ExportJobInput>): {
  report: (stage: ExportStage, current: number, total: number) => void;
  settled: () => Promise<void>;
} {
  let chain = Promise.resolve();
  return {
    report(stage, current, total) {
      const step = Math.max(1, Math.ceil(total / PROGRESS_STEPS));
      if (current !== total && current % step !== 0) return;
      chain = chain.then(() =>
        context.progress({ phase: stage, current, total, message: STAGE_MESSAGES[stage](current, total) }),
      );
    },
    settled: () => chain,
  };
}

/** Exporters load on first use: the PDF and DOCX libraries never enter the shell or an idle worker. */
export type ExporterLoader = () => Promise<DocumentExporter>;

const DEFAULT_EXPORTERS: Partial<Record<ExportFormat, ExporterLoader>> = {
  html: async () => (await import('../export/html/html-exporter')).htmlExporter,
  pdf: async () => {
    const [{ createPdfExporter }, { defaultFontLoader, defaultSubsetter }] = await Promise.all([
      import('../export/pdf/pdf-exporter'),
      import('../export/pdf/cjk-font'),
    ]);
    return createPdfExporter(defaultFontLoader, defaultSubsetter);
  },
  docx: async () => (await import('../export/docx/docx-exporter')).docxExporter,
};

export interface ExportServiceOptions {
  runtime: JobRuntime;
  notes: Pick<NotesRepository, 'get'>;
  files: Pick<AttachmentRepository, 'put' | 'get' | 'delete'>;
  /** Renders diagrams and plots; by default plots only, plus Mermaid through `mermaid`. */
  renderer?: StaticRenderer;
  /** The page's Mermaid renderer (Comlink), asked for each diagram. */
  mermaid?: MermaidStaticPort | (() => MermaidStaticPort | undefined);
  exporters?: Partial<Record<ExportFormat, ExporterLoader>>;
  /** The app's themes for `theme_id`; without it only `light` and `dark` are known. */
  themes?: ExportThemePort;
  clock?: Clock;
  ttlMs?: number;
}

type StoredSource =
  | { type: 'note'; note_id: string }
  /** `pending_key` names the text held in memory; the text itself is never stored. */
  | { type: 'markdown'; title: string; chars: number; pending_key: string };

interface ExportJobInput {
  format: ExportFormat;
  source: StoredSource;
  options: ExportOptions;
}

interface ExportJobResult {
  file: ExportFileInfo & { attachment_id: string };
  warnings: string[];
}

// Windows' reserved device names are refused as file names on that system even with an extension.
/** Said in the exporters' own form (a format, then the sentence), so the page translates it like theirs. */
function missingPictureWarning(format: ExportFormat): string {
  return `${format.toUpperCase()}: a picture that is no longer stored is shown as its alt text.`;
}

const RESERVED_NAME = /^(?:con|prn|aux|nul|com\d|lpt\d)$/i;

/** A file name safe on every desktop system: no path separators, control or reserved characters. */
export function sanitizeFileName(title: string, extension: string): string {
  const cleaned = title
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  let base = Array.from(cleaned).slice(0, 120).join('').trim();
  if (base === '' || RESERVED_NAME.test(base)) base = base === '' ? 'export' : `${base}_`;
  return `${base}.${extension}`;
}

/** RFC 6266: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

async function sha256Hex(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function createError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = String(issue?.path[0] ?? '');
  const fields = error.issues.map((item) => ({ path: item.path.join('.'), message: item.message }));
  if (field === 'format') {
    return new AppError('EXPORT_FORMAT_UNSUPPORTED', 'Export to HTML, PDF or DOCX.', {
      formats: 'html, pdf, docx',
    });
  }
  if (field === 'options') {
    return new AppError(
      'EXPORT_OPTIONS_INVALID',
      `The export options are not valid: ${issue?.path.join('.')}: ${issue?.message}`,
      {
        field: issue?.path.join('.') ?? 'options',
        // The caller can offer the known themes instead of guessing at them.
        ...(issue?.path[1] === 'code_theme' && { code_themes: EXPORT_CODE_THEMES.join(', ') }),
      },
    );
  }
  return new AppError('VALIDATION_FAILED', 'Choose a note or Markdown to export.', {
    issues: fields.length,
    field: fields[0]?.path ?? '',
  });
}

/**
 * §10 Export Service: an export is a job (kind `export`) that turns a note (or an
 * unsaved preview) into one HTML, PDF or DOCX file, stored until it expires. The
 * job id is the event resource, so `events.subscribe(job_id, ...)` follows it.
 */
export class ExportService {
  readonly #runtime: JobRuntime;
  readonly #notes: ExportServiceOptions['notes'];
  readonly #files: ExportServiceOptions['files'];
  readonly #renderer: StaticRenderer;
  readonly #exporters: Partial<Record<ExportFormat, ExporterLoader>>;
  readonly #themes: ExportThemePort | undefined;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  #pageMermaid: MermaidStaticPort | undefined;
  readonly #mermaidOption: ExportServiceOptions['mermaid'];
  /** Unsaved Markdown is held here, never in the stored job (§10.1: not persisted). */
  readonly #pendingMarkdown = new Map<string, string>();

  constructor(options: ExportServiceOptions) {
    this.#runtime = options.runtime;
    this.#notes = options.notes;
    this.#files = options.files;
    const mermaid = options.mermaid;
    this.#mermaidOption = mermaid;
    this.#renderer =
      options.renderer ??
      createStaticRenderer({
        mermaid: {
          render: (source, renderOptions) => {
            const port = this.#pageMermaid ?? (typeof mermaid === 'function' ? mermaid() : mermaid);
            if (!port) return Promise.reject(new Error('no page is connected to draw diagrams'));
            return port.render(source, renderOptions);
          },
        },
      });
    this.#exporters = { ...DEFAULT_EXPORTERS, ...options.exporters };
    this.#themes = options.themes;
    this.#clock = options.clock ?? systemClock;
    this.#ttlMs = options.ttlMs ?? EXPORT_FILE_TTL_MS;
    this.#runtime.register<ExportJobInput, ExportJobResult>({
      kind: EXPORT_JOB_KIND,
      concurrency: 1,
      run: (context) => this.#run(context),
    });
  }

  /** The page hands in its Mermaid renderer (Mermaid needs a DOM); a later call replaces it. */
  registerPageRenderer(port: MermaidStaticPort): void {
    this.#pageMermaid = port;
  }

  /** The page's SVG-to-PNG drawing, when the connected page offers one. */
  #rasterizer(): { rasterizer?: SvgRasterizer } {
    const option = this.#mermaidOption;
    const port = this.#pageMermaid ?? (typeof option === 'function' ? option() : option);
    // Called through the port, not bound: the page's port is a Comlink proxy.
    if (!port?.rasterize) return {};
    const rasterizer: SvgRasterizer = {
      rasterize: (svg, size) =>
        port.rasterize?.(svg, size) ?? Promise.reject(new Error('The page cannot draw images.')),
    };
    return { rasterizer };
  }

  /** The formats this build can write, for the UI's menu. */
  formats(): ExportFormat[] {
    return EXPORT_FORMATS.filter((format) => this.#exporters[format] !== undefined);
  }

  /** `POST /api/exports`: validates, then queues the job (202 ExportJob). */
  async create(input: CreateExportInput): Promise<ExportJob> {
    const parsed = createExportSchema.safeParse(input);
    if (!parsed.success) throw createError(parsed.error);
    const { source, format, options } = parsed.data;
    if (!this.#exporters[format]) {
      throw new AppError(
        'EXPORT_FORMAT_UNSUPPORTED',
        `Export to ${format.toUpperCase()} is not available in this build.`,
        {
          format,
        },
      );
    }
    // An unknown theme fails the request itself, before any job exists.
    await this.#theme(options.theme_id);
    let stored: StoredSource;
    if (source.type === 'note') {
      const note = await this.#notes.get(source.note_id);
      if (!note || note.deleted_at !== null) {
        throw new AppError('EXPORT_SOURCE_NOT_FOUND', 'The note to export was not found.', {
          note_id: source.note_id,
        });
      }
      stored = { type: 'note', note_id: source.note_id };
    } else {
      if (source.markdown.length > MAX_EXPORT_MARKDOWN_CHARS) {
        throw new AppError(
          'PAYLOAD_TOO_LARGE',
          'The Markdown to export is longer than 2,000,000 characters.',
          {
            limit: MAX_EXPORT_MARKDOWN_CHARS,
            size: source.markdown.length,
          },
        );
      }
      // In place before the job exists: the runtime may start it before `create` returns.
      const pendingKey = crypto.randomUUID();
      this.#pendingMarkdown.set(pendingKey, source.markdown);
      stored = {
        type: 'markdown',
        title: source.title?.trim() || 'Untitled',
        chars: source.markdown.length,
        pending_key: pendingKey,
      };
    }
    const jobInput: ExportJobInput = { format, source: stored, options };
    const job = await this.#runtime.create(EXPORT_JOB_KIND, { ...jobInput });
    await this.#prune();
    return this.#toExportJob(job);
  }

  /** Keeps the newest finished exports; older ones go, their files with them. */
  async #prune(): Promise<void> {
    const { items } = await this.#runtime.list({ kind: EXPORT_JOB_KIND, limit: 10_000, offset: 0 });
    const stale = items
      .filter((job) => job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled')
      .slice(KEEP_EXPORT_JOBS);
    for (const job of stale) {
      const result = job.result as ExportJobResult | null;
      if (result?.file) await this.#files.delete(result.file.attachment_id);
    }
    if (stale.length > 0) await this.#runtime.prune(EXPORT_JOB_KIND, KEEP_EXPORT_JOBS);
  }

  /** `GET /api/exports/{job_id}` */
  async get(jobId: string): Promise<ExportJob> {
    return this.#toExportJob(await this.#job(jobId));
  }

  /** `GET /api/exports?status=&format=&limit=&offset=`, newest first. */
  async list(input: ListExportsInput = {}): Promise<ExportJobListResponse> {
    const parsed = listExportsSchema.safeParse(input);
    if (!parsed.success) {
      throw new AppError('VALIDATION_FAILED', 'The export list query is not valid.', {
        field: parsed.error.issues[0]?.path.join('.') ?? '',
      });
    }
    const query = parsed.data;
    const { items } = await this.#runtime.list({
      kind: EXPORT_JOB_KIND,
      ...(query.status && { status: query.status }),
      limit: 10_000,
      offset: 0,
    });
    const matching = items.filter(
      (job) => !query.format || (job.input as Partial<ExportJobInput>).format === query.format,
    );
    return offsetPage(
      matching.slice(query.offset, query.offset + query.limit).map((job) => this.#toExportJob(job)),
      matching.length,
      query,
    );
  }

  /** `POST /api/exports/{job_id}/cancel` */
  async cancel(jobId: string): Promise<{ accepted: true; job_id: string; status: ExportJob['status'] }> {
    const job = await this.#job(jobId);
    const after = await this.#runtime.cancel(job.job_id);
    const source = (job.input as unknown as ExportJobInput).source;
    if (after.status === 'cancelled' && source.type === 'markdown')
      this.#pendingMarkdown.delete(source.pending_key);
    return { accepted: true, job_id: after.job_id, status: after.status };
  }

  /** `GET /api/exports/{job_id}/file`: never an empty file for an unfinished, failed or expired job. */
  async file(jobId: string): Promise<ExportFileResponse> {
    const job = await this.#job(jobId);
    if (job.status !== 'completed') {
      throw new AppError('STATE_CONFLICT', `The export is ${job.status}; there is no file to download.`, {
        job_id: jobId,
        status: job.status,
      });
    }
    const { file } = job.result as ExportJobResult;
    if (this.#clock() >= Date.parse(file.expires_at)) {
      await this.#files.delete(file.attachment_id);
      throw new AppError('EXPORT_FILE_EXPIRED', 'The exported file has expired; export the note again.', {
        job_id: jobId,
        expires_at: file.expires_at,
      });
    }
    const stored = await this.#files.get(file.attachment_id);
    if (!stored) {
      throw new AppError(
        'EXPORT_FILE_EXPIRED',
        'The exported file is no longer stored; export the note again.',
        {
          job_id: jobId,
        },
      );
    }
    const data = new Uint8Array(await stored.blob.arrayBuffer());
    return {
      file_name: file.file_name,
      mime_type: file.mime_type,
      size: data.byteLength,
      sha256: file.sha256,
      content_disposition: contentDisposition(file.file_name),
      data,
    };
  }

  /** The theme's stylesheet, or undefined when no theme port is wired (built-in ids only). */
  async #theme(themeId: string): Promise<ExportTheme | undefined> {
    if (!this.#themes) {
      if (themeId === 'light' || themeId === 'dark') return undefined;
      throw new AppError('THEME_NOT_FOUND', `No theme "${themeId}" is installed.`, { theme_id: themeId });
    }
    return this.#themes.getThemeCss(themeId);
  }

  async #job(jobId: string): Promise<JobDto> {
    try {
      const job = await this.#runtime.get(jobId);
      if (job.kind === EXPORT_JOB_KIND) return job;
    } catch (error) {
      if (!isAppError(error) || error.code !== 'JOB_NOT_FOUND') throw error;
    }
    throw new AppError('EXPORT_JOB_NOT_FOUND', 'This export was not found.', { job_id: jobId });
  }

  #toExportJob(job: JobDto): ExportJob {
    const input = job.input as unknown as ExportJobInput;
    const result = job.result as ExportJobResult | null;
    let file: ExportFileInfo | null = null;
    if (job.status === 'completed' && result) {
      const { attachment_id: _attachment, ...info } = result.file;
      file = info;
    }
    return {
      job_id: job.job_id,
      status: job.status,
      format: input.format,
      progress: job.progress,
      file,
      warnings: result?.warnings ?? [],
      error: job.error,
      created_at: job.created_at,
      started_at: job.started_at,
      completed_at: job.completed_at,
    };
  }

  async #source(context: JobContext<ExportJobInput>): Promise<{ title: string; markdown: string }> {
    const { source } = context.input;
    if (source.type === 'markdown') {
      const markdown = this.#pendingMarkdown.get(source.pending_key);
      if (markdown === undefined) {
        // The app was reloaded while this job waited: the unsaved text is gone by design.
        throw new AppError(
          'EXPORT_SOURCE_NOT_FOUND',
          'The unsaved Markdown of this export is no longer available.',
          {},
        );
      }
      return { title: source.title, markdown };
    }
    const note = await this.#notes.get(source.note_id);
    if (!note || note.deleted_at !== null) {
      throw new AppError('EXPORT_SOURCE_NOT_FOUND', 'The note to export was deleted.', {
        note_id: source.note_id,
      });
    }
    return { title: note.title || 'Untitled', markdown: note.body };
  }

  /** A picture the note links as `attachment:<id>`, or null when it is no longer stored. */
  async #picture(attachmentId: string): Promise<StoredPicture | null> {
    const row = await this.#files.get(attachmentId);
    if (!row || !row.mime_type.startsWith('image/')) return null;
    return { mime_type: row.mime_type, base64: base64Of(new Uint8Array(await row.blob.arrayBuffer())) };
  }

  async #run(context: JobContext<ExportJobInput>): Promise<ExportJobResult> {
    const { format, options } = context.input;
    try {
      await context.progress({ phase: 'parsing', current: 0, total: null, message: 'Reading the note' });
      const { title, markdown } = await this.#source(context);
      const document = documentFromMarkdown(markdown, title);
      const pictures = await inlineNoteImages(document.root, (id) => this.#picture(id));
      context.signal.throwIfAborted();
      const load = this.#exporters[format];
      if (!load)
        throw new AppError('EXPORT_FORMAT_UNSUPPORTED', `Export to ${format} is not available.`, { format });
      // Looked up again: the theme may have been uninstalled while the job waited.
      const theme = await this.#theme(options.theme_id);
      const exporter = await load();
      let result;
      const stages = stageProgress(context);
      try {
        result = await exporter.export(document, {
          options,
          renderer: this.#renderer,
          ...this.#rasterizer(),
          ...(theme && { theme }),
          signal: context.signal,
          progress: stages.report,
        });
        await stages.settled();
      } catch (error) {
        await stages.settled().catch(() => undefined);
        if (error instanceof ExportError) throw new AppError(error.code, error.message, error.details);
        if (context.signal.aborted || isAppError(error)) throw error;
        throw new AppError('EXPORT_RENDER_FAILED', `The ${format.toUpperCase()} file could not be written.`, {
          reason: error instanceof Error ? error.message.slice(0, 300) : 'unknown',
        });
      }
      context.signal.throwIfAborted();
      await context.progress({ phase: 'saving', current: 0, total: 1, message: 'Saving the file' });
      const fileName = sanitizeFileName(title, exporter.extension);
      const mimeType = EXPORT_MIME_TYPES[format];
      const sha256 = await sha256Hex(result.data);
      const attachment = await this.#files.put(
        new Blob([result.data as Uint8Array<ArrayBuffer>], { type: mimeType }),
        {
          name: fileName,
          mime_type: mimeType,
        },
      );
      if (context.signal.aborted) {
        // Cancelled while saving: nothing half-finished stays behind.
        await this.#files.delete(attachment.attachment_id);
        context.signal.throwIfAborted();
      }
      await context.progress({ phase: 'saving', current: 1, total: 1, message: 'Saved the file' });
      return {
        file: {
          attachment_id: attachment.attachment_id,
          file_name: fileName,
          mime_type: mimeType,
          size: result.data.byteLength,
          sha256,
          expires_at: toIsoUtc(this.#clock() + this.#ttlMs),
        },
        warnings:
          pictures.missing > 0 ? [missingPictureWarning(format), ...result.warnings] : result.warnings,
      };
    } finally {
      const { source } = context.input;
      if (source.type === 'markdown') this.#pendingMarkdown.delete(source.pending_key);
    }
  }
}
