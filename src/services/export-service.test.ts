import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../contracts';
import { EXPORT_MIME_TYPES } from '../contracts/exports';
import type { DocumentExporter, StaticRenderer } from '../export/exporter';
import { createHarfBuzzSubsetter } from '../export/pdf/font-subset';
import { createPdfExporter } from '../export/pdf/pdf-exporter';
import { contentDisposition, sanitizeFileName } from './export-service';
import { testCore } from './test-core';

let current: ReturnType<typeof testCore>;
// Creating a note starts indexing in the background; let it settle before the database goes.
afterEach(async () => {
  await current?.idle();
  await current?.close();
});

let now = Date.parse('2026-09-01T10:00:00Z');
function setup(exporters?: Record<string, () => Promise<DocumentExporter>>) {
  now = Date.parse('2026-09-01T10:00:00Z');
  current = testCore({ exports: { clock: () => now, ...(exporters && { exporters }) } });
  return current.api;
}

async function finished(jobId: string): Promise<EventEnvelope[]> {
  const seen: EventEnvelope[] = [];
  await current.api.events.subscribe(jobId, 0, (event) => seen.push(event)).closed;
  return seen;
}

async function sha256(data: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** An exporter that waits until the job is cancelled, then gives up like a real one. */
function blockingExporter(started: () => void): () => Promise<DocumentExporter> {
  return async () => ({
    format: 'html',
    extension: 'html',
    mimeType: 'text/html',
    export: (_document, context) =>
      new Promise((_resolve, reject) => {
        started();
        context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true });
      }),
  });
}

const BODY =
  '# 进程调度\n\nFCFS and $O(n)$.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```function-plot\ny = x^2\n```\n';

describe('ExportService', () => {
  it.each(['html', 'docx'] as const)(
    'reports %s progress per document node, after drawing each plot, in order',
    async (format) => {
      const api = setup();
      // Five top-level nodes: heading, paragraph, table, plot, plot.
      const body =
        '# T\n\nText $x^2$.\n\n| a |\n|---|\n| 1 |\n\n```function-plot\ny = x\n```\n\n```function-plot\ny = -x\n```\n';
      const note = await api.notes.create({ title: 'Progress', body });
      const job = await api.exports.create({ source: { type: 'note', note_id: note.note_id }, format });
      const progress = (await finished(job.job_id))
        .filter((event) => event.event === 'Progress')
        .map(
          (event) =>
            event.data as {
              phase: string;
              current: number;
              total: number | null;
              percent: number | null;
              message: string;
            },
        );
      expect(progress.map(({ phase, current, total }) => [phase, current, total])).toEqual([
        ['parsing', 0, null],
        ['rendering', 1, 2],
        ['rendering', 2, 2],
        ['writing', 1, 5],
        ['writing', 2, 5],
        ['writing', 3, 5],
        ['writing', 4, 5],
        ['writing', 5, 5],
        ['saving', 0, 1],
        ['saving', 1, 1],
      ]);
      expect(progress[5]).toMatchObject({ percent: 60, message: 'Wrote node 3 of 5' });
      expect(progress[0]?.percent).toBeNull();
      // The stored job keeps the last progress.
      expect((await api.exports.get(job.job_id)).progress).toMatchObject({
        phase: 'saving',
        current: 1,
        total: 1,
      });
    },
  );

  it('reports at most 200 steps for a note of many nodes, ending on the last one', async () => {
    const api = setup();
    const body = Array.from({ length: 450 }, (_, index) => `Paragraph ${index}.`).join('\n\n');
    const note = await api.notes.create({ title: 'Long', body });
    const job = await api.exports.create({ source: { type: 'note', note_id: note.note_id }, format: 'html' });
    const writing = (await finished(job.job_id))
      .filter((event) => event.event === 'Progress')
      .map((event) => event.data as { phase: string; current: number; total: number })
      .filter((data) => data.phase === 'writing');
    // 450 nodes in steps of 3: 150 events, the last one 450 of 450.
    expect(writing).toHaveLength(150);
    expect(writing.slice(0, 2).map((data) => data.current)).toEqual([3, 6]);
    expect(writing.at(-1)).toMatchObject({ current: 450, total: 450 });
  });

  it('exports a note to HTML as a job and serves the file with its name, type, size and SHA-256', async () => {
    const api = setup();
    const note = await api.notes.create({ title: '操作系统/复习: 第1章', body: BODY });
    const job = await api.exports.create({ source: { type: 'note', note_id: note.note_id }, format: 'html' });
    expect(job).toMatchObject({ status: 'queued', format: 'html', file: null, warnings: [], error: null });

    const events = await finished(job.job_id);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('Queued');
    expect(names).toContain('Progress');
    expect(names.at(-1)).toBe('Completed');

    const done = await api.exports.get(job.job_id);
    expect(done.status).toBe('completed');
    expect(done.file).toEqual({
      file_name: '操作系统 复习 第1章.html',
      mime_type: 'text/html;charset=utf-8',
      size: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      expires_at: '2026-09-02T10:00:00.000Z',
    });
    expect(done.completed_at).not.toBeNull();

    const file = await api.exports.file(job.job_id);
    expect(file.size).toBe(done.file?.size);
    expect(file.data.byteLength).toBe(file.size);
    expect(await sha256(file.data)).toBe(done.file?.sha256);
    expect(file.content_disposition).toBe(
      `attachment; filename="____ __ _1_.html"; filename*=UTF-8''${encodeURIComponent('操作系统 复习 第1章.html')}`,
    );
    const html = new TextDecoder().decode(file.data);
    expect(html).toContain('<h1>进程调度</h1>');
    expect(html).toContain('<math');
    expect(html).toContain('<table>');
    expect(html).toContain('<figure class="function-plot"><svg');
  });

  it('exports unsaved Markdown without storing its text in the job', async () => {
    const api = setup();
    const job = await api.exports.create({
      source: { type: 'markdown', markdown: 'secret draft text', title: 'Draft' },
      format: 'html',
    });
    await finished(job.job_id);
    const rows = await current.db.jobs.toArray();
    expect(JSON.stringify(rows)).not.toContain('secret draft text');
    const file = await api.exports.file(job.job_id);
    expect(file.file_name).toBe('Draft.html');
    expect(new TextDecoder().decode(file.data)).toContain('<p>secret draft text</p>');
  });

  it('answers bad input with the contract codes', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'n', body: 'x' });
    const source = { type: 'note' as const, note_id: note.note_id };
    await expect(api.exports.create({ source, format: 'rtf' as 'html' })).rejects.toMatchObject({
      code: 'EXPORT_FORMAT_UNSUPPORTED',
    });
    await expect(
      api.exports.create({ source, format: 'html', options: { page_size: 'B9' as 'A4' } }),
    ).rejects.toMatchObject({ code: 'EXPORT_OPTIONS_INVALID' });
    await expect(
      api.exports.create({ source, format: 'html', options: { theme_id: '../../etc' } }),
    ).rejects.toMatchObject({ code: 'EXPORT_OPTIONS_INVALID' });
    // An unknown code theme is refused, naming the known ones, not printed plain.
    const unknownTheme = api.exports.create({
      source,
      format: 'pdf',
      options: { code_theme: 'monokai' as 'none' },
    });
    await expect(unknownTheme).rejects.toMatchObject({
      code: 'EXPORT_OPTIONS_INVALID',
      message: expect.stringMatching(
        /code_theme: unknown code theme "monokai"; use one of github-light, github-dark, none/,
      ),
      details: { field: 'options.code_theme', code_themes: 'github-light, github-dark, none' },
    });
    await expect(
      api.exports.create({ source: { type: 'note', note_id: 'note_missing' }, format: 'html' }),
    ).rejects.toMatchObject({ code: 'EXPORT_SOURCE_NOT_FOUND', status: 404 });
    await expect(
      api.exports.create({ source: { type: 'markdown', markdown: 'x'.repeat(2_000_001) }, format: 'html' }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    await expect(api.exports.list({ limit: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('answers unknown jobs with EXPORT_JOB_NOT_FOUND', async () => {
    const api = setup();
    await expect(api.exports.get('export_missing')).rejects.toMatchObject({ code: 'EXPORT_JOB_NOT_FOUND' });
    await expect(api.exports.cancel('export_missing')).rejects.toMatchObject({
      code: 'EXPORT_JOB_NOT_FOUND',
    });
    await expect(api.exports.file('export_missing')).rejects.toMatchObject({ code: 'EXPORT_JOB_NOT_FOUND' });
  });

  it('fails the job with EXPORT_RENDER_FAILED when diagrams cannot be drawn, and serves no file', async () => {
    const api = setup();
    const job = await api.exports.create({
      source: { type: 'markdown', markdown: '```mermaid\ngraph TD; A-->B\n```\n' },
      format: 'html',
    });
    const events = await finished(job.job_id);
    expect(events.at(-1)?.event).toBe('Failed');
    const failed = await api.exports.get(job.job_id);
    expect(failed).toMatchObject({ status: 'failed', file: null, error: { code: 'EXPORT_RENDER_FAILED' } });
    await expect(api.exports.file(job.job_id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });

  it('fails with EXPORT_SOURCE_NOT_FOUND when the note is trashed before the job runs', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = setup({
      html: async () => {
        await gate;
        return (await import('../export/html/html-exporter')).htmlExporter;
      },
    });
    const first = await api.exports.create({ source: { type: 'markdown', markdown: 'a' }, format: 'html' });
    const note = await api.notes.create({ title: 'gone', body: 'x' });
    const second = await api.exports.create({
      source: { type: 'note', note_id: note.note_id },
      format: 'html',
    });
    await api.notes.trash(note.note_id);
    release();
    await finished(first.job_id);
    await finished(second.job_id);
    expect(await api.exports.get(second.job_id)).toMatchObject({
      status: 'failed',
      error: { code: 'EXPORT_SOURCE_NOT_FOUND' },
    });
  });

  it('cancels a running export: Cancelled last, no file, nothing stored', async () => {
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const api = setup({ html: blockingExporter(() => started()) });
    const job = await api.exports.create({ source: { type: 'markdown', markdown: '# x' }, format: 'html' });
    await running;
    const answer = await api.exports.cancel(job.job_id);
    expect(answer).toMatchObject({ accepted: true, job_id: job.job_id });
    const events = await finished(job.job_id);
    expect(events.at(-1)?.event).toBe('Cancelled');
    expect(await api.exports.get(job.job_id)).toMatchObject({ status: 'cancelled', file: null });
    expect(await current.db.attachments.count()).toBe(0);
    await expect(api.exports.file(job.job_id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
    await expect(api.exports.cancel(job.job_id)).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });

  it('refuses an expired file with EXPORT_FILE_EXPIRED and deletes it', async () => {
    const api = setup();
    const job = await api.exports.create({ source: { type: 'markdown', markdown: 'x' }, format: 'html' });
    await finished(job.job_id);
    expect((await api.exports.file(job.job_id)).size).toBeGreaterThan(0);
    now += 24 * 60 * 60 * 1000;
    await expect(api.exports.file(job.job_id)).rejects.toMatchObject({
      code: 'EXPORT_FILE_EXPIRED',
      status: 410,
    });
    expect(await current.db.attachments.count()).toBe(0);
  });

  it('lists exports newest first with status and format filters and paging', async () => {
    const api = setup();
    const jobs = [];
    for (const text of ['a', 'b', 'c']) {
      const job = await api.exports.create({ source: { type: 'markdown', markdown: text }, format: 'html' });
      await finished(job.job_id);
      jobs.push(job);
    }
    const page = await api.exports.list({ limit: 2, offset: 1 });
    expect(page.page).toEqual({ total: 3, limit: 2, offset: 1 });
    expect(page.items).toHaveLength(2);
    expect((await api.exports.list({ status: 'completed', format: 'html' })).page.total).toBe(3);
    expect((await api.exports.list({ format: 'pdf' })).page.total).toBe(0);
    expect(await api.exports.formats()).toEqual(['html', 'pdf', 'docx']);
    expect((await api.exports.list({ status: 'failed' })).items).toEqual([]);
  });
});

describe('ExportService with DOCX', () => {
  it('exports a note to DOCX with its MIME type and the plot as an image', async () => {
    const api = setup();
    const note = await api.notes.create({ title: '复习', body: BODY });
    const job = await api.exports.create({ source: { type: 'note', note_id: note.note_id }, format: 'docx' });
    await finished(job.job_id);
    const done = await api.exports.get(job.job_id);
    expect(done).toMatchObject({
      status: 'completed',
      file: { file_name: '复习.docx', mime_type: EXPORT_MIME_TYPES.docx },
      warnings: [
        'DOCX: diagrams and plots are SVG images; Word versions before 2016 show a blank box instead.',
      ],
    });
    const file = await api.exports.file(job.job_id);
    // A DOCX is a zip: it starts with the local file header.
    expect(Array.from(file.data.slice(0, 4))).toEqual([0x50, 0x4b, 0x03, 0x04]);
  });
});

describe('ExportService severe loss', () => {
  it('fails a DOCX export of a note made only of raw HTML with EXPORT_UNSUPPORTED_CONTENT', async () => {
    const api = setup();
    const job = await api.exports.create({
      source: { type: 'markdown', markdown: '<div>only html</div>\n' },
      format: 'docx',
    });
    await finished(job.job_id);
    expect(await api.exports.get(job.job_id)).toMatchObject({
      status: 'failed',
      file: null,
      error: { code: 'EXPORT_UNSUPPORTED_CONTENT' },
    });
  });
});

describe('ExportService with the app themes', () => {
  const encoder = new TextEncoder();

  /** Installs a theme package through the app's own theme service, as a user would. */
  async function installTheme(
    api: ReturnType<typeof setup>,
    themeId: string,
    isDark: boolean,
    css: string,
  ): Promise<void> {
    const manifest = [
      `theme_id: ${themeId}`,
      `name: ${themeId}`,
      'version: 1.0.0',
      'author: Ada',
      'min_app_version: 0.1.0',
      `is_dark: ${isDark}`,
      'css_entry: theme.css',
    ].join('\n');
    const bytes = zipSync({
      [themeId]: { 'theme.yaml': encoder.encode(manifest), 'theme.css': encoder.encode(css) },
    });
    const packageId = await api.themes.selectPackage({ kind: 'zip', name: `${themeId}.zip`, bytes });
    await api.themes.install(packageId);
  }

  /** Records the light/dark mode each diagram or plot is drawn in. */
  function recordingRenderer(themes: string[]): StaticRenderer {
    return {
      render: async (request) => {
        themes.push(request.theme);
        return { mimeType: 'image/svg+xml', content: '<svg></svg>', width: 10, height: 10, warnings: [] };
      },
    };
  }

  function setupWithRenderer(themes: string[]) {
    now = Date.parse('2026-09-01T10:00:00Z');
    current = testCore({ exports: { clock: () => now, renderer: recordingRenderer(themes) } });
    return current.api;
  }

  it("embeds an installed package theme's CSS in the HTML file, inside its CSP", async () => {
    const api = setup();
    await installTheme(
      api,
      'sepia',
      false,
      '.markdown-preview h1 { color: #7a4b1e; letter-spacing: 0.02em; }',
    );
    const note = await api.notes.create({ title: 'Themed', body: '# Hello' });
    const job = await api.exports.create({
      source: { type: 'note', note_id: note.note_id },
      format: 'html',
      options: { theme_id: 'sepia' },
    });
    await finished(job.job_id);
    const html = new TextDecoder().decode((await api.exports.file(job.job_id)).data);
    const style = html.slice(html.indexOf('<style>'), html.indexOf('</style>'));
    expect(style).toContain('color:#7a4b1e');
    expect(style).toContain('--color-code-bg');
    expect(html).toContain('<article class="markdown-preview">');
    expect(html).toContain(`content="default-src 'none';`);
    expect(html.match(/<\/style>/g)).toHaveLength(1);
  });

  it('draws diagrams and plots dark for a dark theme, light for a light one', async () => {
    const drawn: string[] = [];
    const api = setupWithRenderer(drawn);
    await installTheme(api, 'midnight', true, '.markdown-preview { letter-spacing: 0; }');
    const note = await api.notes.create({ title: 'Plot', body: '```function-plot\ny = x^2\n```\n' });
    const source = { type: 'note' as const, note_id: note.note_id };
    for (const theme_id of ['midnight', 'light', 'dark']) {
      const job = await api.exports.create({ source, format: 'html', options: { theme_id } });
      expect((await finished(job.job_id)).at(-1)?.event).toBe('Completed');
    }
    expect(drawn).toEqual(['dark', 'light', 'dark']);
    // A Word page is white: its diagrams stay light under a dark theme.
    const docx = await api.exports.create({ source, format: 'docx', options: { theme_id: 'midnight' } });
    expect((await finished(docx.job_id)).at(-1)?.event).toBe('Completed');
    expect(drawn.at(-1)).toBe('light');
    const dark = await api.exports.list({ format: 'html', limit: 1 });
    const html = new TextDecoder().decode((await api.exports.file(dark.items[0]!.job_id)).data);
    expect(html).toContain('color-scheme: dark');
  });

  it("draws a PDF in the theme's colours: a package theme's page and text, plain paper for light", async () => {
    const fontPath = createRequire(import.meta.url).resolve(
      '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
    );
    const wasmPath = createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm');
    const pdf = createPdfExporter(
      async () => async () => new Uint8Array(readFileSync(fontPath)),
      async () => createHarfBuzzSubsetter(async () => readFileSync(wasmPath)),
    );
    const api = setup({ pdf: async () => pdf });
    await installTheme(
      api,
      'midnight',
      true,
      ':root { --color-bg: #0b1021; --color-text: rgb(245, 230, 200); }',
    );
    const note = await api.notes.create({
      title: '主题 Theme',
      body: '# 进程调度\n\nFCFS 先来先服务 first.\n',
    });
    const source = { type: 'note' as const, note_id: note.note_id };
    /** The colour of a pixel in the page corner, outside the margins, and the text poppler extracts. */
    const corner = async (theme_id: string) => {
      const job = await api.exports.create({ source, format: 'pdf', options: { theme_id } });
      expect((await finished(job.job_id)).at(-1)?.event).toBe('Completed');
      const dir = mkdtempSync(join(tmpdir(), 'notes-export-'));
      const file = join(dir, 'note.pdf');
      writeFileSync(file, (await api.exports.file(job.job_id)).data);
      execFileSync('pdftoppm', ['-r', '30', '-f', '1', '-l', '1', file, join(dir, 'page')]);
      const ppm = readFileSync(join(dir, 'page-1.ppm'));
      const header = /^P6\s+\d+\s+\d+\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'));
      const at = (header?.[0].length ?? 0) + 3 * 2;
      return {
        corner: Array.from(ppm.subarray(at, at + 3)),
        text: execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' }),
      };
    };
    const midnight = await corner('midnight');
    expect(midnight.corner).toEqual([0x0b, 0x10, 0x21]);
    expect(midnight.text).toContain('FCFS 先来先服务 first.');
    expect((await corner('dark')).corner).toEqual([0x16, 0x18, 0x1d]);
    expect((await corner('light')).corner).toEqual([255, 255, 255]);
    // Indexing the note and the runtime's bookkeeping may still be using the database afterEach closes.
    await current.idle();
  });

  it('refuses an unknown theme with THEME_NOT_FOUND before any job starts', async () => {
    const api = setup();
    const note = await api.notes.create({ title: 'n', body: 'x' });
    await expect(
      api.exports.create({
        source: { type: 'note', note_id: note.note_id },
        format: 'pdf',
        options: { theme_id: 'no-such-theme' },
      }),
    ).rejects.toMatchObject({ code: 'THEME_NOT_FOUND', details: { theme_id: 'no-such-theme' } });
    expect((await api.exports.list()).items).toEqual([]);
  });

  it('fails a queued export whose theme was uninstalled meanwhile with THEME_NOT_FOUND', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const api = setup({
      // The first job holds the queue (concurrency 1) while the theme goes away.
      html: async () => ({
        format: 'html',
        extension: 'html',
        mimeType: 'text/html',
        export: async () => {
          await gate;
          return { data: new Uint8Array([1]), warnings: [] };
        },
      }),
    });
    await installTheme(api, 'sepia', false, '.markdown-preview { letter-spacing: 0; }');
    const note = await api.notes.create({ title: 'n', body: 'x' });
    const source = { type: 'note' as const, note_id: note.note_id };
    const first = await api.exports.create({ source, format: 'html' });
    const second = await api.exports.create({ source, format: 'html', options: { theme_id: 'sepia' } });
    await api.themes.uninstall('sepia');
    release();
    await finished(first.job_id);
    const events = await finished(second.job_id);
    expect(events.at(-1)?.event).toBe('Failed');
    expect((await api.exports.get(second.job_id)).error).toMatchObject({ code: 'THEME_NOT_FOUND' });
  });
});

describe('file names', () => {
  it('are safe on every desktop system', () => {
    expect(sanitizeFileName('a/b\\c:d*e?f"g<h>i|j', 'pdf')).toBe('a b c d e f g h i j.pdf');
    expect(sanitizeFileName('  ..hidden.. ', 'html')).toBe('hidden.html');
    expect(sanitizeFileName('', 'docx')).toBe('export.docx');
    expect(sanitizeFileName('CON', 'pdf')).toBe('CON_.pdf');
    expect(sanitizeFileName('x'.repeat(500), 'pdf')).toBe(`${'x'.repeat(120)}.pdf`);
    expect(contentDisposition('复习 "1".pdf')).toBe(
      `attachment; filename="__ _1_.pdf"; filename*=UTF-8''${encodeURIComponent('复习 "1".pdf')}`,
    );
  });
});
