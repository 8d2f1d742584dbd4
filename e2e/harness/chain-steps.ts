import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { buildTinyWhisper } from '../../src/media/transformers/__fixtures__/tiny-whisper/tiny-whisper';
import { fulfilModelFile } from './model-host';
import { textStream, toolCallStream } from './openai-script-server';
import { closeSettings } from './close-settings';

/** What the agent appends: a Mermaid diagram and a function plot, each with words to find in the exports. */
export const CHAIN_DIAGRAM =
  '```mermaid\ngraph LR\n  A[录音 Recording] --> B[转写 Transcript] --> C[笔记 Note]\n```';
export const CHAIN_PLOT = '```function-plot\ny = sin(x) | label: 声波 wave\ndomain: -6.28, 6.28\n```';
export const CHAIN_ANSWER = 'I searched, read the lecture, greeted Ada and added a diagram and a plot.';

interface WireBody {
  messages?: Array<{ role: string; content?: string | null }>;
  tools?: Array<{ function?: { name?: string } }>;
}

/** The wire name the request gave an IR tool (dots are not allowed in OpenAI function names). */
function wireName(body: WireBody, irName: string): string {
  const wanted = irName.replace(/\./g, '__');
  return (
    body.tools?.map((tool) => tool.function?.name ?? '').find((name) => name.startsWith(wanted)) ?? wanted
  );
}

/**
 * The scripted model of the chain, playing from the tool results it was sent
 * back, as a real model would: hybrid search → read the note it found → the
 * sample plugin's MCP tool → append a diagram and a plot → answer.
 */
export function chainScript(raw: Record<string, unknown>): string {
  const body = raw as WireBody;
  const results = (body.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((m) => m.content ?? '');
  const noteId = results.map((text) => /note_id ([A-Za-z0-9_-]+)/.exec(text)?.[1]).find(Boolean);
  switch (results.length) {
    case 0:
      return toolCallStream(wireName(body, 'rag.search'), {
        query: 'tiny whisper',
        mode: 'hybrid',
        limit: 5,
      });
    case 1:
      return noteId
        ? toolCallStream(wireName(body, 'notes.read'), { note_id: noteId })
        : textStream('No note matches.');
    case 2:
      return toolCallStream(wireName(body, 'sample-greeter.greet'), { name: 'Ada' });
    case 3:
      return toolCallStream(wireName(body, 'notes.update'), {
        note_id: noteId,
        mode: 'append',
        text: `## Chain\n\n${results[2]}\n\n${CHAIN_DIAGRAM}\n\n${CHAIN_PLOT}\n`,
      });
    default:
      return textStream(CHAIN_ANSWER);
  }
}

/**
 * Settings → Local models: the one model host; Settings → Transcription: nothing from
 * elsewhere. Closes Settings; the caller goes on to Transcription its own way.
 */
export async function useTranscriptionModelHost(page: Page, modelHost: string): Promise<void> {
  // On a phone Settings is behind the menu, and its pages show one at a time.
  const menu = page.getByRole('button', { name: /^(Open menu|打开菜单)$/ });
  if (await menu.isVisible()) await menu.click();
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-local-models').click();
  await page.getByTestId('model-host').fill(modelHost);
  await page.getByTestId('model-host-save').click();
  await expect(page.getByTestId('model-host-saved')).toBeVisible();
  const back = page.getByTestId('settings-back');
  if (await back.isVisible()) await back.click();
  await page.getByTestId('settings-nav-transcription').click();
  await page.getByTestId('transcription-allow-remote').uncheck();
  await page.getByTestId('transcription-save-source').click();
  await expect(page.getByTestId('transcription-source-saved')).toBeVisible();
  await closeSettings(page);
}

/** The tiny Whisper-shaped model, served under the model host the app is configured with. */
export async function serveTinyWhisper(page: Page, modelHost: string, modelId: string): Promise<void> {
  const files = buildTinyWhisper();
  await page.context().route(`**${modelHost}**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const prefix = `${modelHost}${modelId}/`;
    return fulfilModelFile(route, path.startsWith(prefix) ? files[path.slice(prefix.length)] : undefined);
  });
}

// A 1×1 PNG, for the package's preview image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The community dark theme the theme checker's fixtures hold, zipped as a theme package. */
export const MIDNIGHT = { id: 'midnight', background: 'rgb(13, 17, 23)', hex: '#0d1117' } as const;
export function midnightThemePackage(): Buffer {
  const css = readFileSync(join(process.cwd(), 'src/themes/__fixtures__/benign/midnight-dark.css'));
  const text = new TextEncoder();
  const files = {
    'theme.yaml': text.encode(
      [
        `theme_id: ${MIDNIGHT.id}`,
        'name: Midnight',
        'version: 1.2.0',
        'author: Community',
        'description: A dark theme from the community',
        'min_app_version: 0.1.0',
        'is_dark: true',
        'css_entry: css/midnight.css',
        'preview: preview.png',
      ].join('\n'),
    ),
    'css/midnight.css': new Uint8Array(css),
    'preview.png': new Uint8Array(PNG),
  };
  return Buffer.from(zipSync({ 'midnight-theme': files }));
}

/** Settings → General: imports the Midnight theme package; returns the theme settings. */
export async function importMidnightTheme(page: Page): Promise<Locator> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const themes = page.getByTestId('theme-settings');
  await themes.getByTestId('theme-import-zip').setInputFiles({
    name: 'midnight-theme.zip',
    mimeType: 'application/zip',
    buffer: midnightThemePackage(),
  });
  return themes;
}

/** Exports the open note in `format` from the editor's export menu and returns the downloaded file. */
export async function exportNote(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<Download> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
  return download;
}

export function pdfText(path: string): string {
  return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
}

/** Raster images placed in the PDF (poppler's `pdfimages -list`, minus its two header lines and soft masks). */
export function pdfImageCount(path: string): number {
  const lines = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' }).trim().split('\n').slice(2);
  return lines.filter((line) => line.trim().split(/\s+/)[2] === 'image').length;
}

/** The DOCX package's parts: document text (XML), media files by name and their sizes in bytes. */
export function docxParts(path: string): {
  documentXml: string;
  media: Record<string, string>;
  mediaBytes: Record<string, number>;
} {
  const parts = unzipSync(new Uint8Array(readFileSync(path)));
  const media: Record<string, string> = {};
  const mediaBytes: Record<string, number> = {};
  for (const [name, data] of Object.entries(parts))
    if (name.startsWith('word/media/')) {
      media[name] = strFromU8(data);
      mediaBytes[name] = data.length;
    }
  return { documentXml: strFromU8(parts['word/document.xml']!), media, mediaBytes };
}

/**
 * Screenshots for docs/tour.md, taken only when TOUR_SHOTS=1 so ordinary runs
 * leave the committed images alone. This machine has no system CJK font, so
 * for the pictures the page falls back to the Noto Sans SC the app ships for
 * its PDF export (a person's machine has its own).
 */
export async function tourShot(
  page: Page,
  name: string,
  options: { target?: Locator; height?: number } = {},
): Promise<void> {
  if (process.env.TOUR_SHOTS !== '1') return;
  const font = readdirSync(join('dist', 'assets')).find((file) => /^NotoSansSC_.*\.ttf$/.test(file));
  if (font) {
    await page.evaluate(async (url) => {
      if (!document.getElementById('tour-cjk')) {
        const face = new FontFace('Tour CJK', `url('${url}')`);
        // FontFaceSet is set-like; this TypeScript DOM library leaves out its add().
        (document.fonts as unknown as Set<FontFace>).add(face);
        await face.load();
        const style = document.createElement('style');
        style.id = 'tour-cjk';
        style.textContent =
          "body, input, textarea, select, button, svg text { font-family: var(--font-sans, sans-serif), 'Tour CJK' !important; }\n" +
          "pre, code { font-family: var(--font-mono, monospace), 'Tour CJK' !important; }";
        document.head.append(style);
        // Text already shaped with the missing glyphs is shaped again.
        document.body.style.display = 'none';
        void document.body.offsetHeight;
        document.body.style.display = '';
      }
      // Two frames: the text is laid out again in the loaded font before the picture.
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    }, `/assets/${font}`);
  }
  // Notifications would cover what the picture is about.
  const toasts = page.getByTestId('toast');
  while ((await toasts.count()) > 0) await toasts.first().locator('button.dismiss').dispatchEvent('click');
  const dir = join(process.cwd(), 'docs', 'tour');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  const viewport = page.viewportSize();
  if (options.height && viewport) await page.setViewportSize({ ...viewport, height: options.height });
  if (options.target) {
    await options.target.scrollIntoViewIfNeeded();
    await options.target.screenshot({ path });
  } else await page.screenshot({ path });
  if (options.height && viewport) await page.setViewportSize(viewport);
}
