import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import {
  CHAIN_ANSWER,
  chainScript,
  docxParts,
  exportNote,
  importMidnightTheme,
  MIDNIGHT,
  pdfImageCount,
  pdfText,
  serveTinyWhisper,
  tourShot,
  useTranscriptionModelHost,
} from './harness/chain-steps';
import { startScriptServer } from './harness/openai-script-server';
import { installAndEnableSampleGreeter } from './harness/plugin-steps';
import { createNote, expect, openApp, test, waitForServiceWorker } from './fixtures';

/**
 * The acceptance chain, end to end through the UI only: audio → transcription
 * job → transcript note → hybrid search with its audio citation → agent run on
 * a configured provider (search, read, MCP plugin tool, append a diagram and a
 * plot) → agent trace → HTML / PDF / DOCX → community theme preview, enable,
 * export again. The servers are the ones the other specs use: the tiny Whisper
 * on the model host, the scripted OpenAI-compatible endpoint, the sample
 * greeter's MCP server in the plugin worker.
 */

const MODEL_HOST = '/models/';
const MODEL_ID = 'onnx-community/whisper-tiny';
const AUDIO = join(process.cwd(), 'e2e', 'audio');
const NOTE_TITLE = '进程调度 Lecture';

async function useTinyModel(page: Page): Promise<void> {
  await useTranscriptionModelHost(page, MODEL_HOST);
  await page.getByTestId('nav-transcription').click();
}

/** Uploads a committed sample in `language` and waits for its job to complete. */
async function transcribe(page: Page, file: string, language: 'en' | 'zh'): Promise<void> {
  await page.getByTestId('transcription-language').selectOption(language);
  await page.getByTestId('audio-file-input').setInputFiles(join(AUDIO, file));
  const job = page.getByTestId('transcription-job').filter({ hasText: file });
  await expect(job).toHaveCount(1);
  // The new job is the one the detail shows.
  await expect(job).toHaveClass(/\bselected\b/);
  const detail = page.getByTestId('transcription-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(job).toHaveAttribute('data-status', 'completed');
  await expect(detail.getByTestId('segment').first()).toContainText('hello tiny whisper.');
}

test('the acceptance chain: recording → transcript note → search → agent with MCP tool → trace → exports → community theme', async ({
  page,
  context,
  requestLog,
}) => {
  test.setTimeout(480_000);
  const server = await startScriptServer({ reply: chainScript });
  await context.route(`${server.url}/**`, (route) => route.continue());
  await serveTinyWhisper(page, MODEL_HOST, MODEL_ID);
  try {
    await openApp(page);

    // --- Audio attachment → transcription job (English, then Chinese) ---
    await useTinyModel(page);
    await transcribe(page, 'tone-1khz.wav', 'en');
    await transcribe(page, 'tone-1khz.ogg', 'zh');
    await tourShot(page, '01-transcription');

    // --- Transcript → note, every block citing its audio ---
    const english = page.getByTestId('transcription-job').filter({ hasText: 'tone-1khz.wav' });
    await english.click();
    await expect(english).toHaveClass(/\bselected\b/);
    await expect(page.getByTestId('transcription-detail')).toHaveAttribute('data-status', 'completed');
    await page.getByTestId('transcript-note-title').fill(NOTE_TITLE);
    await page.getByTestId('transcript-note-folder').fill('Courses/OS');
    await page.getByTestId('transcript-create-note').click();
    await expect(page.getByTestId('note-title')).toHaveValue(NOTE_TITLE);
    await expect(page.getByTestId('note-body')).toHaveValue(/hello tiny whisper\./);
    const citations = page.getByTestId('audio-citation');
    await expect(citations.first()).toBeVisible();
    await tourShot(page, '02-transcript-note');

    // --- Index / RAG: hybrid search finds the transcript block, which cites its audio ---
    await page.getByTestId('search-input').fill('tiny whisper');
    await page.getByTestId('search-mode').selectOption('hybrid');
    const hit = page.getByTestId('search-result').first();
    await expect(hit).toContainText(NOTE_TITLE);
    await expect(hit.locator('mark').first()).toHaveText(/tiny|whisper/i);
    await expect(page.getByTestId('search-fallback')).toHaveCount(0);
    const blockId = await hit.getAttribute('data-block-id');
    expect(blockId).toBeTruthy();
    await tourShot(page, '03-search');
    await hit.click();
    await expect(page.getByTestId('note-title')).toHaveValue(NOTE_TITLE);
    await expect(page.getByTestId('preview').locator('[data-search-reveal]')).toContainText(
      'hello tiny whisper.',
    );
    const cited = page.locator(`[data-testid="audio-citation"][data-block-id="${blockId}"]`);
    await expect(cited).toHaveCount(1);
    await cited.click();
    const player = page.getByTestId('note-audio-citations').getByTestId('audio-element');
    await expect(player).toBeAttached();
    await page.getByTestId('search-input').fill('');

    // --- Agent run on a configured provider, with the sample plugin's MCP tool ---
    await installAndEnableSampleGreeter(page);
    await page.keyboard.press('Escape');
    await addScriptProvider(page, server.url);
    await pickScriptModel(page);
    await expect(page.locator('[data-testid="agent-tool"][data-tool="sample-greeter.greet"]')).toBeVisible();
    await page
      .getByTestId('agent-input')
      .fill('Find my tiny whisper lecture, greet Ada with the greeter plugin, and add a diagram and a plot');
    await page.getByTestId('agent-run').click();

    const permission = page.getByTestId('agent-permission');
    await expect(permission).toContainText('“greet” from the plugin “Sample Greeter” asks for permission');
    await expect(permission.getByTestId('permission-arguments')).toContainText('Ada');
    await permission.getByTestId('permission-allow-once').click();
    await expect(permission.getByTestId('permission-summary')).toHaveText(`Append to “${NOTE_TITLE}”.`);
    await expect(permission.getByTestId('permission-diff')).toContainText('+```mermaid');
    await expect(permission.getByTestId('permission-diff')).toContainText('+```function-plot');
    await tourShot(page, '04-agent-permission', { target: permission, height: 1500 });
    await permission.getByTestId('permission-allow-once').click();
    const run = page.getByTestId('agent-run-item').first();
    await expect(run).toHaveAttribute('data-status', 'completed');
    const runId = await run.getAttribute('data-run-id');
    await expect(page.getByTestId('agent-timeline').locator('[data-event="RunCompleted"]')).toBeVisible();
    await tourShot(page, '05-agent-trace', { height: 1500 });

    // --- Agent trace: stored, reopened after a reload, every step's events ---
    await page.reload();
    await expect(page.getByTestId('note-list')).toBeVisible();
    await page.getByTestId('nav-agent').click();
    await page.locator(`[data-testid="agent-run-item"][data-run-id="${runId}"]`).click();
    const timeline = page.getByTestId('agent-timeline');
    await expect(timeline).toHaveAttribute('data-run-id', runId!);
    await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText(CHAIN_ANSWER);
    const events = await timeline
      .getByTestId('agent-event')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-event')));
    expect(events[0]).toBe('RunStarted');
    expect(events.at(-1)).toBe('RunCompleted');
    // Five model calls: four that call a tool, one that answers.
    expect(events.filter((event) => event === 'ModelCallStarted')).toHaveLength(5);
    expect(events.filter((event) => event === 'PermissionRequired')).toHaveLength(2);
    expect(events.filter((event) => event === 'PermissionResolved')).toHaveLength(2);
    const calls = timeline.locator('[data-testid="agent-event"][data-event="ToolCall"]');
    const names = await calls.evaluateAll((items) =>
      items.map((item) => item.querySelector('strong')?.getAttribute('data-tool')),
    );
    expect(names).toEqual(['rag.search', 'notes.read', 'sample-greeter.greet', 'notes.update']);
    for (let index = 0; index < 4; index++)
      await expect(calls.nth(index).locator('[data-status]').first()).toHaveAttribute('data-status', 'ok');
    await expect(calls.nth(0).getByTestId('agent-tool-result')).toContainText(NOTE_TITLE);
    await expect(timeline.locator('[data-event="Citation"]').first()).toContainText(NOTE_TITLE);
    await expect(calls.nth(1).getByTestId('agent-tool-result')).toContainText('hello tiny whisper.');
    await expect(calls.nth(2).getByTestId('agent-tool-result')).toContainText('Hello, Ada!');
    await expect(calls.nth(3).getByTestId('agent-tool-result')).toContainText('+```mermaid');
    await expect(timeline.locator('[data-event="ModelCallStarted"]').first()).toContainText(
      'Script · script-model',
    );

    // --- Markdown with Mermaid and a function plot, rendered in the note ---
    await page.getByTestId('nav-all').click();
    await page.getByTestId('note-item').filter({ hasText: NOTE_TITLE }).click();
    const body = page.getByTestId('note-body');
    await expect(body).toHaveValue(/```mermaid\ngraph LR/);
    await expect(body).toHaveValue(/```function-plot\ny = sin\(x\)/);
    await expect(body).toHaveValue(/Hello, Ada!/);
    const preview = page.getByTestId('preview');
    await expect(preview.locator('.mermaid-block svg')).toContainText('转写 Transcript');
    await expect(preview.locator('.function-plot-chart path.line').first()).toBeAttached();
    await tourShot(page, '06-note-with-visuals');

    // --- HTML / PDF / DOCX ---
    const htmlFile = await exportNote(page, 'html');
    const html = await readFile((await htmlFile.path())!, 'utf8');
    expect(html).toContain('hello tiny whisper.');
    expect(html).toMatch(/<figure class="mermaid"><svg[^>]*>.*>转写<.*> Transcript</s);
    expect(html).toMatch(
      /<figure class="function-plot"><svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*声波 wave/s,
    );
    expect(html).not.toMatch(/<script|javascript:|<foreignObject/i);

    const pdfFile = await exportNote(page, 'pdf');
    const pdf = pdfText((await pdfFile.path())!);
    expect(pdf).toContain('hello tiny whisper.');
    expect(pdf).toContain('Hello, Ada!');
    // The diagram is a picture drawn by the page; the plot stays vector paths with a selectable label.
    expect(pdf).not.toContain('graph LR');
    expect(pdf).toContain('声波 wave');
    expect(pdfImageCount((await pdfFile.path())!)).toBe(1);

    const docxFile = await exportNote(page, 'docx');
    const docx = docxParts((await docxFile.path())!);
    expect(docx.documentXml).toContain('hello tiny whisper.');
    // The DOCX carries the diagram and the plot as SVG, each with a PNG the page drew for older readers.
    expect(docx.documentXml).toContain('descr="Diagram"');
    expect(docx.documentXml).toContain('descr="Function plot"');
    const svgs = Object.entries(docx.media).filter(([name]) => name.endsWith('.svg'));
    expect(svgs.some(([, svg]) => svg.includes('转写'))).toBe(true);
    expect(svgs.some(([, svg]) => svg.includes('声波 wave'))).toBe(true);
    const pngs = Object.entries(docx.mediaBytes).filter(([name]) => name.endsWith('.png'));
    expect(pngs).toHaveLength(2);
    for (const [, bytes] of pngs) expect(bytes).toBeGreaterThan(2048);

    // --- Community theme: import, preview in isolation, enable, export again ---
    const themes = await importMidnightTheme(page);
    const inspection = themes.getByTestId('theme-inspection');
    await expect(inspection).toContainText('Midnight');
    await expect(inspection.getByTestId('theme-compatibility')).toHaveText(
      'Works with this version of the app.',
    );
    const frame = page.frameLocator('[data-testid="theme-preview"]');
    await expect(frame.locator('body')).toHaveCSS('background-color', MIDNIGHT.background);
    await expect(frame.locator('.mermaid-block svg')).toHaveCount(1);
    await expect(page.locator('body')).not.toHaveCSS('background-color', MIDNIGHT.background);
    await inspection.scrollIntoViewIfNeeded();
    await tourShot(page, '07-theme-preview', { target: inspection });
    await inspection.getByTestId('theme-install').click();
    const row = themes.locator(`[data-testid="theme-row"][data-theme-id="${MIDNIGHT.id}"]`);
    await row.getByTestId('theme-enable').click();
    await expect(row).toHaveAttribute('data-enabled', 'true');
    await expect(page.locator('html')).toHaveAttribute('data-theme-package', MIDNIGHT.id);
    await expect(page.locator('body')).toHaveCSS('background-color', MIDNIGHT.background);
    await page.keyboard.press('Escape');
    await tourShot(page, '08-theme-enabled');

    const themedFile = await exportNote(page, 'html');
    const themed = await readFile((await themedFile.path())!, 'utf8');
    expect(themed.toLowerCase()).toContain(MIDNIGHT.hex);
    expect(themed).toContain('hello tiny whisper.');
    expect(themed).toMatch(/<figure class="mermaid"><svg/);
    const viewer = await context.newPage();
    await viewer.setContent(themed);
    await expect(viewer.locator('body')).toHaveCSS('background-color', MIDNIGHT.background);
    await expect(viewer.locator('figure.function-plot svg path').first()).toBeAttached();
    await viewer.close();

    expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
  } finally {
    await server.close();
  }
});

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('offline after the first visit: write, search, agent trace, HTML export and theme preview need no server', async ({
    page,
    context,
    requestLog,
  }) => {
    test.setTimeout(360_000);
    await openApp(page);
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByTestId('note-list')).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await createNote(
      page,
      NOTE_TITLE,
      'hello tiny whisper. world again,\n\n```mermaid\ngraph LR\n  A[录音] --> B[转写]\n```\n\n```function-plot\ny = sin(x) | label: 声波\n```\n',
    );
    await page.getByTestId('search-input').fill('tiny whisper');
    await page.getByTestId('search-mode').selectOption('hybrid');
    await expect(page.getByTestId('search-result').first()).toContainText(NOTE_TITLE);
    await expect(page.getByTestId('search-fallback')).toHaveCount(0);
    await page.getByTestId('search-input').fill('');

    // The offline demo model runs the agent; its trace is stored and reopens.
    await page.getByTestId('nav-agent').click();
    await expect(page.getByTestId('agent-model')).toHaveValue('mock|mock-1');
    await page.getByTestId('agent-input').fill('What is in my lecture?');
    await page.getByTestId('agent-run').click();
    const run = page.getByTestId('agent-run-item').first();
    await expect(run).toHaveAttribute('data-status', 'completed');
    await page.reload();
    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-run-item').first().click();
    const timeline = page.getByTestId('agent-timeline');
    await expect(timeline.getByTestId('agent-event').first()).toHaveAttribute('data-event', 'RunStarted');
    await expect(timeline.locator('[data-event="RunCompleted"]')).toHaveCount(1);

    await page.getByTestId('nav-all').click();
    await page.getByTestId('note-item').filter({ hasText: NOTE_TITLE }).click();
    const html = await readFile((await (await exportNote(page, 'html')).path())!, 'utf8');
    expect(html).toContain('hello tiny whisper.');
    expect(html).toMatch(/<figure class="mermaid"><svg[^>]*>.*转写/s);
    expect(html).toMatch(/<figure class="function-plot"><svg[^>]*>.*声波/s);

    await importMidnightTheme(page);
    const frame = page.frameLocator('[data-testid="theme-preview"]');
    await expect(frame.locator('body')).toHaveCSS('background-color', MIDNIGHT.background);
    await expect(frame.locator('.mermaid-block svg')).toHaveCount(1);
    expect(requestLog.foreign()).toEqual([]);
  });
});
