// Editor typing latency in Chromium: keystroke to the next frame, measured in
// the page (keydown timestamp to a task queued from the requestAnimationFrame
// after the input event, i.e. after that frame was produced), in the built app
// and in a plain <textarea> holding the same text (the floor), in the same run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { type Browser, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { localContext, serveAppInChromium } from './chromium';
import { formatMs, report, type BenchResult } from './harness';
import { formatTraceRows, summarizeTrace, TRACE_CATEGORIES, type TraceRow } from './trace-summary';

const PORT = Number(process.env.BENCH_EDITOR_PORT ?? 4499);
const ORIGIN = `http://127.0.0.1:${PORT}`;
/** A brisk typist: the preview has this long between keys, as it would in use. */
const KEY_INTERVAL_MS = 100;
const SAVE_TIMEOUT_MS = 600_000;
/** `BENCH_EDITOR_CASES=3.2`: only the cases whose name contains one of these comma-separated parts. */
const ONLY = (process.env.BENCH_EDITOR_CASES ?? '').split(',').filter((part) => part.trim() !== '');
/**
 * `BENCH_EDITOR_TRACE=dir`: typing in each case is traced in Chromium (both the
 * app and the floor); the traces go to `dir`, and where each key's main-thread
 * time went is printed under the case.
 */
const TRACE_DIR = process.env.BENCH_EDITOR_TRACE;
/** The goal: a keystroke reaches the screen at most one 60 Hz frame later than in a plain textarea. */
const GOAL_DELTA_MS = 16;

declare global {
  interface Window {
    __keyPaint?: { samples: number[]; wait: (count: number) => Promise<void>; lastKeydown: () => number };
    __catchUp?: { needle: string | null; ms: number | null; check: () => void };
  }
}

/**
 * Installed in both pages: one sample per input event. A string, so the
 * bundler's helpers (tsx names functions) never reach the page.
 */
const PROBE = `(() => {
  let keydownAt = 0;
  const samples = [];
  let waiter = null;
  document.addEventListener('keydown', (event) => { keydownAt = event.timeStamp; }, true);
  document.addEventListener('input', (event) => {
    const start = keydownAt || event.timeStamp;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        samples.push(performance.now() - start);
        if (waiter && samples.length >= waiter.count) { waiter.resolve(); waiter = null; }
      };
      channel.port2.postMessage(null);
    });
  }, true);
  window.__keyPaint = {
    samples,
    wait: (count) => samples.length >= count ? Promise.resolve() : new Promise((resolve) => { waiter = { count, resolve }; }),
    lastKeydown: () => keydownAt,
  };
})()`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The preview's pause after the last key before it follows the text (MarkdownPreview's TYPING_PAUSE_MS). */
const PREVIEW_PAUSE_MS = 300;

/**
 * Catch-up after typing stops: one more key, then the time from its keydown
 * to the frame after the preview shows it (the end of the line it ends, which
 * only that key completes), measured in the page.
 */
async function previewCatchUp(page: Page): Promise<number> {
  await page.evaluate(() => {
    const preview = document.querySelector<HTMLElement>('[data-testid="preview"]')!;
    const state: NonNullable<Window['__catchUp']> = {
      needle: null,
      ms: null,
      check: () => {
        if (state.needle === null || state.ms !== null || !preview.textContent!.includes(state.needle))
          return;
        state.ms = -1;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            state.ms = performance.now() - window.__keyPaint!.lastKeydown();
          };
          channel.port2.postMessage(null);
        });
      },
    };
    window.__catchUp = state;
    new MutationObserver(() => state.check()).observe(preview, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
  await page.keyboard.press('z');
  await page.evaluate((selector) => {
    const field = document.querySelector<HTMLTextAreaElement>(selector)!;
    // Only typed characters (x, spaces, this z): the text around them may render differently (math, markup).
    window.__catchUp!.needle = field.value.slice(0, field.selectionStart).slice(-12);
    window.__catchUp!.check();
  }, APP_BODY);
  await page.waitForFunction(() => (window.__catchUp?.ms ?? -1) >= 0);
  return page.evaluate(() => window.__catchUp!.ms!);
}

/** The app's body field: a textarea, or the large-note editor (CodeMirror) for notes large when opened. */
const APP_BODY = '[data-testid="note-body"]';
const LARGE_BODY = '[data-testid="note-body-large"]';

/** Puts the caret in the middle of the large-note editor: scrolled halfway, a click on a line in view. */
async function caretInLargeEditor(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const scroller = document.querySelector<HTMLElement>('.cm-scroller')!;
    scroller.scrollTop = scroller.scrollHeight / 2;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  const lines = page.locator('.cm-line');
  await lines.nth(Math.floor((await lines.count()) / 2)).click();
}

/**
 * Types `keys` characters at the caret placed at `caret` (null: already placed), one key per
 * interval; returns the latencies. `from` is how many keys of the case came before (every
 * eighth is a space).
 */
async function typeAndMeasure(
  page: Page,
  selector: string,
  caret: number | null,
  keys: number,
  from = 0,
): Promise<number[]> {
  if (caret !== null) {
    await page.evaluate(
      ([sel, at]) => {
        const field = document.querySelector<HTMLTextAreaElement>(sel as string)!;
        field.focus();
        field.setSelectionRange(at as number, at as number);
      },
      [selector, caret] as const,
    );
  }
  const before = await page.evaluate(() => window.__keyPaint!.samples.length);
  for (let index = 0; index < keys; index += 1) {
    await page.keyboard.press((from + index) % 8 === 7 ? 'Space' : 'x');
    await page.evaluate((count) => window.__keyPaint!.wait(count), before + index + 1);
    await sleep(KEY_INTERVAL_MS);
  }
  return page.evaluate((from) => window.__keyPaint!.samples.slice(from), before);
}

/** `run` traced when BENCH_EDITOR_TRACE is set: its result and the per-key summary. */
async function traced<T>(
  browser: Browser,
  page: Page,
  file: string,
  keys: number,
  run: () => Promise<T>,
): Promise<{ result: T; rows: TraceRow[] }> {
  if (!TRACE_DIR) return { result: await run(), rows: [] };
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  let result: T;
  let rows: TraceRow[];
  try {
    result = await run();
  } finally {
    const buffer = await browser.stopTracing();
    mkdirSync(TRACE_DIR, { recursive: true });
    writeFileSync(join(TRACE_DIR, file), buffer);
    rows = summarizeTrace(buffer.toString('utf8'), keys);
  }
  return { result, rows };
}

/**
 * Keys per turn when the app and the floor take turns. On this shared 2-core machine a busy
 * spell of a few seconds lifts every key typed in it: typed all in one side's turn, it
 * decided which side's p95 looked worse (the p95 delta swung from +4 to +45 ms between runs
 * of one build). In turns of this many keys such a spell falls on both sides alike.
 */
const TURN_KEYS = 10;

/** The app's keys and the floor's, typed in turns of `TURN_KEYS`; carets are placed on each side's first turn. */
async function typeInTurns(
  app: { page: Page; selector: string; caret: number | null },
  floor: { page: Page; selector: string; caret: number | null },
  keys: number,
): Promise<{ ours: number[]; base: number[] }> {
  const ours: number[] = [];
  const base: number[] = [];
  for (let done = 0; done < keys; done += TURN_KEYS) {
    const count = Math.min(TURN_KEYS, keys - done);
    const first = done === 0;
    ours.push(...(await typeAndMeasure(app.page, app.selector, first ? app.caret : null, count, done)));
    base.push(...(await typeAndMeasure(floor.page, floor.selector, first ? floor.caret : null, count, done)));
  }
  return { ours, base };
}

async function floorPage(page: Page, text: string): Promise<void> {
  await page.setContent('<!doctype html><textarea id="floor" style="width:50vw;height:90vh"></textarea>');
  await page.evaluate((value) => {
    (document.getElementById('floor') as HTMLTextAreaElement).value = value;
  }, text);
  await page.evaluate(PROBE);
}

/**
 * Makes a note and waits until the editor shows it: the body is set as a value
 * (no key events), which during the switch would still reach the note left.
 */
async function newNoteShown(page: Page): Promise<void> {
  await page.getByTestId('new-note').click();
  await page.waitForFunction(() => {
    const title = document.querySelector<HTMLInputElement>('[data-testid="note-title"]');
    const body = document.querySelector<HTMLTextAreaElement>('[data-testid="note-body"]');
    return title?.value === '' && body?.value === '';
  });
}

/** Puts the note into the app: typed into a new note, or imported in an archive when over the 5 MiB an edit may save. */
async function addNote(page: Page, title: string, body: string): Promise<string> {
  if (body.length > 5 * 1024 * 1024) {
    const archive = zipSync({ [`bench/${title}.md`]: [strToU8(body), { level: 0 }] });
    await page.getByTestId('import-zip-input').setInputFiles({
      name: 'bench.zip',
      mimeType: 'application/zip',
      buffer: Buffer.from(archive),
    });
    await page.getByTestId('import-dialog').getByTestId('import-start').click();
    const item = page.getByTestId('note-item').filter({ hasText: title });
    await item.first().waitFor({ timeout: SAVE_TIMEOUT_MS });
    return (await item.first().getAttribute('data-note-id'))!;
  }
  await newNoteShown(page);
  await page.getByTestId('note-title').fill(title);
  // One input event with the whole text (Playwright's fill is slow for long text).
  await page.evaluate((text) => {
    const field = document.querySelector<HTMLTextAreaElement>('[data-testid="note-body"]')!;
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }, body);
  // Storing megabytes on a busy machine takes long; the figure is the typing, not this.
  await page
    .getByTestId('save-status')
    .and(page.locator('[data-state="saved"]'))
    .waitFor({ timeout: SAVE_TIMEOUT_MS });
  const selected = page.locator('[data-testid="note-item"][aria-current="true"]').filter({ hasText: title });
  return (await selected.first().getAttribute('data-note-id'))!;
}

/** Creates the note in the app, then opens it afresh (size decides the editor at open). */
async function openInApp(page: Page, title: string, body: string): Promise<{ openMs: number }> {
  const noteId = await addNote(page, title, body);
  await newNoteShown(page);
  await page.getByTestId('note-title').fill(`${title} (other)`);
  await page.getByTestId('save-status').and(page.locator('[data-state="saved"]')).waitFor();
  // Opening: from the click to the frame after the note's text is in the editor.
  const openMs = await page.evaluate(
    async ([id, length]) => {
      const item = document.querySelector<HTMLElement>(`[data-testid="note-item"][data-note-id="${id}"]`)!;
      const start = performance.now();
      const shown = new Promise<void>((resolve) => {
        let done = false;
        const check = () => {
          const body = document.querySelector<HTMLTextAreaElement>('[data-testid="note-body"]');
          const large = document.querySelector<HTMLElement>('[data-testid="note-body-large"]');
          const shownLength = body ? body.value.length : Number(large?.dataset.length ?? -1);
          // The large editor shows its first lines once mounted with the whole text.
          const shown = body !== null || large?.querySelector('.cm-line') != null;
          if (!done && shown && shownLength === length) {
            done = true;
            resolve();
          }
        };
        // A value set as a property mutates no attribute: frames are checked too.
        new MutationObserver(check).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
        });
        const everyFrame = () => {
          check();
          if (!done) requestAnimationFrame(everyFrame);
        };
        requestAnimationFrame(everyFrame);
      });
      item.click();
      await shown;
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    [noteId, body.length] as const,
  );
  return { openMs };
}

async function openPlainTextarea(page: Page, body: string): Promise<number> {
  return page.evaluate(async (value) => {
    const start = performance.now();
    const field = document.createElement('textarea');
    field.value = value;
    document.body.append(field);
    await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    const ms = performance.now() - start;
    field.remove();
    return ms;
  }, body);
}

function formulaNote(): string {
  const parts = ['# Formulas and diagrams'];
  for (let i = 0; i < 100; i += 1) {
    parts.push(
      `Paragraph ${i} with a formula $\\sum_{k=0}^{${i}} k^2 = \\frac{n(n+1)(2n+1)}{6}$ and some words.`,
    );
    if (i % 10 === 0) {
      parts.push(
        `\`\`\`mermaid\ngraph TD\n  A${i}[Start] --> B${i}{Choice}\n  B${i} --> C${i}[One]\n  B${i} --> D${i}[Two]\n\`\`\``,
      );
    }
  }
  return parts.join('\n\n');
}

function proseNote(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i += 1) {
    const part =
      i % 12 === 0
        ? `## Section ${i}`
        : i % 7 === 0
          ? `- item ${i} about scheduling\n- item ${i} about memory\n- item ${i} with $x_${i}$`
          : `Paragraph ${i}: processes, threads and 调度 in an operating system, with \`code\` and **bold** text.`;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, chars);
}

/** One case, printed as soon as it is measured: a long run cut short still leaves its figures. */
function printCase(result: BenchResult): void {
  const note = result.note ? `; ${result.note}` : '';
  console.log(
    `  ${result.name}: ${formatMs(result.ms)} vs ${formatMs(result.baselineMs)} (${result.baseline}), ` +
      `${result.ratio.toFixed(2)}×${note}`,
  );
}

export async function editorBenchmarks(scale: number): Promise<BenchResult[]> {
  const keys = Math.max(20, Math.round(100 * Math.min(1, scale)));
  const turns = TRACE_DIR ? 'each side in one turn (traced)' : `the two taking turns of ${TURN_KEYS} keys`;
  console.log(
    `Editor typing: ${keys} keys per case, one every ${KEY_INTERVAL_MS} ms, keydown to the frame after the input event ` +
      `(measured in the page), in the built app and in a plain textarea with the same text (the floor), ${turns}. ` +
      'Rows show p95; notes give p50 and the p95 delta (goal: within 16 ms of the floor).',
  );
  const served = await serveAppInChromium(PORT, 'Editor benchmarks');
  const { browser } = served;
  const results: BenchResult[] = [];
  try {
    const context = await localContext(browser, ORIGIN, { viewport: { width: 1280, height: 800 } });
    const app = await context.newPage();
    // Creating a multi-megabyte note (saving it, rendering its preview) is slow on a busy machine; only typing is timed.
    app.setDefaultTimeout(SAVE_TIMEOUT_MS);
    await app.goto(ORIGIN);
    await app.getByTestId('note-list').waitFor();
    await app.evaluate(PROBE);
    // Its own context and no app: a second tab of the app would share its storage and worker.
    const floorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await floorContext.addInitScript('globalThis.__name = (target) => target;');
    const floor = await floorContext.newPage();

    const cases: Array<{ name: string; body: string; keys?: number }> = [
      { name: '100 formulas + 10 diagrams', body: formulaNote() },
      { name: '80,000 characters', body: proseNote(80_000) },
      { name: '0.4 MB', body: proseNote(400_000) },
      { name: '1.6 MB', body: proseNote(1_600_000) },
      { name: '3.2 MB', body: proseNote(3_200_000) },
      // The floor takes seconds a key here: fewer keys keep the run in minutes.
      { name: '16 MiB', body: proseNote(16 * 1024 * 1024), keys: 20 },
    ];
    let opened = false;
    for (const { name, body, keys: caseKeys } of cases.filter(
      (entry) => ONLY.length === 0 || ONLY.some((part) => entry.name.includes(part)),
    )) {
      const keyCount = Math.min(keys, caseKeys ?? keys);
      const { openMs } = await openInApp(app, name, body);
      // The preview (when shown) finishes its first pass, and its diagrams are
      // drawn, before typing starts: the figure is typing in the finished note.
      // (An empty preview has no fallback blocks either: it is busy until a pass has shown all the text.)
      await app.waitForFunction(
        () =>
          !document.querySelector('[data-testid="preview"][aria-busy="true"]') &&
          !document.querySelector('.preview-block .preview-fallback') &&
          !document.querySelector('.mermaid-block:not([data-mermaid-state])'),
      );
      const large = (await app.locator(LARGE_BODY).count()) > 0;
      const caret = body.indexOf('\n\n', Math.floor(body.length / 2));
      if (large) await caretInLargeEditor(app);
      const slug = name.replace(/[^\w]+/g, '-');
      await floorPage(floor, body);
      const appSide = { page: app, selector: large ? LARGE_BODY : APP_BODY, caret: large ? null : caret };
      const floorSide = { page: floor, selector: '#floor', caret };
      let ours: number[];
      let base: number[];
      let ourTrace: TraceRow[] = [];
      let floorTrace: TraceRow[] = [];
      if (TRACE_DIR) {
        // A trace records one page's keys without a break: each side types all of its keys in one turn.
        ({ result: ours, rows: ourTrace } = await traced(browser, app, `${slug}-app.json`, keyCount, () =>
          typeAndMeasure(appSide.page, appSide.selector, appSide.caret, keyCount),
        ));
        ({ result: base, rows: floorTrace } = await traced(
          browser,
          floor,
          `${slug}-floor.json`,
          keyCount,
          () => typeAndMeasure(floorSide.page, floorSide.selector, floorSide.caret, keyCount),
        ));
      } else {
        ({ ours, base } = await typeInTurns(appSide, floorSide, keyCount));
      }
      const editorName = large ? 'large-note editor' : 'textarea';
      const previewMode = (await app.getByTestId('preview-off').count()) > 0 ? 'no preview' : 'live preview';
      const mode = `${editorName}, ${previewMode}`;
      const p95 = percentile(ours, 95);
      const p95Floor = percentile(base, 95);
      const delta = p95 - p95Floor;
      const typed: BenchResult = {
        name: `type in a ${name} note (${mode}), keystroke to frame p95`,
        baseline: 'plain textarea, same text',
        ms: p95,
        baselineMs: p95Floor,
        ratio: p95 / p95Floor,
        note:
          `p50 ${percentile(ours, 50).toFixed(1)} vs ${percentile(base, 50).toFixed(1)} ms; ` +
          `p95 delta ${delta.toFixed(1)} ms (goal ≤ ${GOAL_DELTA_MS} ms: ${delta <= GOAL_DELTA_MS ? 'met' : 'missed'})`,
      };
      results.push(typed);
      printCase(typed);
      if (TRACE_DIR) console.log(formatTraceRows(ourTrace, floorTrace));
      if (!large && previewMode === 'live preview') {
        const catchUpMs = await previewCatchUp(app);
        const catchUp: BenchResult = {
          name: `preview catch-up after typing stops in a ${name} note (last key to the frame showing it)`,
          baseline: `the preview's typing pause (${PREVIEW_PAUSE_MS} ms), its least`,
          ms: catchUpMs,
          baselineMs: PREVIEW_PAUSE_MS,
          ratio: catchUpMs / PREVIEW_PAUSE_MS,
          note: `${(catchUpMs - PREVIEW_PAUSE_MS).toFixed(1)} ms after the pause`,
        };
        results.push(catchUp);
        printCase(catchUp);
      }
      if ((!opened && name === '80,000 characters') || large) {
        opened ||= name === '80,000 characters';
        const plainMs = await openPlainTextarea(floor, body);
        const open: BenchResult = {
          name: `open a ${name} note (click to first frame)`,
          baseline: 'a textarea given the same text',
          ms: openMs,
          baselineMs: plainMs,
          ratio: openMs / plainMs,
        };
        results.push(open);
        printCase(open);
      }
    }
    await context.close();
    await floorContext.close();
  } finally {
    await served.close();
  }
  return results;
}

// `npx tsx bench/editor.ts` (or `npm run bench:editor`): this group alone; BENCH_SCALE applies.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(report(await editorBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));
}
