// A notebook of 10,000 notes in the built app, in Chromium: generated here,
// imported once through the app's own import, then measured in the page:
// - start: navigation to a note list that can be used (the shell no longer
//   busy, rows shown), after a reload, so the stored notes and search index are
//   loaded, not built; beside the same start with an empty notebook (the floor,
//   in a second browser context of the same run);
// - opening a note: the click to the frame showing its text;
// - switching folders: the click to the frame showing that folder's list;
// - search as you type, right after a start: each keystroke to the frame after
//   the answer to the text typed so far is shown (the UI waits 150 ms after a
//   key before it asks, so that is included); an answer from an index still
//   loading counts, and the time to the complete answer is printed beside it.
// 10,000 notes at BENCH_SCALE=1 (BENCH_NOTEBOOK_NOTES overrides); `npm run
// bench:notebook` runs it alone, as does BENCH_ONLY=notebook with `npm run bench`.
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { localContext, serveAppInChromium } from './chromium';
import { percentile, row } from './figures';
import { formatMs, report, type BenchResult } from './harness';

const PORT = Number(process.env.BENCH_NOTEBOOK_PORT ?? 4312);
const ORIGIN = `http://127.0.0.1:${PORT}`;
const FOLDERS = 20;
/** Importing and indexing 10,000 notes on a busy machine takes minutes; only the figures below are timed. */
const IMPORT_TIMEOUT_MS = 1_500_000;
const STARTS = 3;
/** Typed one key at a time, each after the previous key's results are shown. */
const TYPED = ['quetzal', 'scheduling', 'memory'];

const title = (i: number) => `Note ${String(i).padStart(5, '0')}`;
const WORDS = ['process', 'thread', 'memory', 'scheduling', 'kernel', 'paging', 'deadlock', 'cache', 'disk'];

/** One Markdown file per note, in 20 folders; note 7321 of 10,000 alone holds "quetzalcoatl". */
function notebookZip(count: number): Buffer {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    const word = i === Math.floor(count * 0.7321) ? 'quetzalcoatl' : `topic${i % 50}`;
    const words = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${WORDS[(i * 13) % WORDS.length]}`;
    files[`vault/folder-${String(i % FOLDERS).padStart(2, '0')}/n-${i}.md`] = strToU8(
      `---\ntitle: ${title(i)}\n---\n# ${title(i)}\n\nA short note about ${word} and ${words}.\n\n- ${words}\n- item ${i}\n`,
    );
  }
  return Buffer.from(zipSync(files, { level: 0 }));
}

function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * Installed before the app's scripts: records when the list first becomes
 * usable (the shell no longer busy and a row, or the empty list's zero count,
 * shown), then the frame after. A string, so tsx's helpers stay out of it.
 */
const START_PROBE = `(() => {
  const ready = () =>
    document.querySelector('[data-testid="shell"][aria-busy="false"]') !== null &&
    (document.querySelector('[data-testid="note-item"]') !== null ||
      document.querySelector('[data-testid="note-count"][data-total="0"]') !== null);
  const observer = new MutationObserver(() => {
    if (!ready()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { window.__listReadyAt = performance.now(); }, 0));
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})()`;

/** Reloads; ms from the navigation's start to the frame showing a usable list. */
async function startToList(page: Page): Promise<number> {
  await page.reload({ waitUntil: 'commit' });
  await page.waitForFunction(() => (window as { __listReadyAt?: number }).__listReadyAt !== undefined);
  return page.evaluate(() => (window as { __listReadyAt?: number }).__listReadyAt!);
}

type Shown = { title: string } | { folder: string; total: number };

/** Ms from a click on `selector` to the frame after the page shows `shown`. */
async function clickToFrame(page: Page, selector: string, shown: Shown): Promise<number> {
  return page.evaluate(
    async ([sel, want]) => {
      const done = () => {
        if ('title' in want) {
          return document.querySelector<HTMLInputElement>('[data-testid="note-title"]')?.value === want.title;
        }
        return (
          document.querySelector(
            `[data-testid="folder-item"][data-folder="${want.folder}"][aria-current="true"]`,
          ) !== null &&
          document.querySelector('[data-testid="note-count"]')?.getAttribute('data-total') ===
            String(want.total) &&
          document.querySelector(
            '[data-testid="note-list"][aria-busy="true"], [data-testid="note-list"] [aria-busy="true"]',
          ) === null &&
          document.querySelector('[data-testid="note-item"]') !== null
        );
      };
      const target = document.querySelector<HTMLElement>(sel)!;
      const start = performance.now();
      const visible = new Promise<void>((resolve) => {
        let finished = false;
        const check = () => {
          if (!finished && done()) {
            finished = true;
            observer.disconnect();
            resolve();
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        // A value set as a property changes no attribute: frames are checked too.
        const everyFrame = () => {
          check();
          if (!finished) requestAnimationFrame(everyFrame);
        };
        requestAnimationFrame(everyFrame);
      });
      target.click();
      await visible;
      await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - start;
    },
    [selector, shown] as const,
  );
}

interface Keystroke {
  /** Keydown to the frame after the answer to the query typed so far is shown. */
  ms: number;
  /** That answer came from a search index still loading (shown as such); `completeMs`: to the complete answer. */
  partial: boolean;
  completeMs: number;
}

/**
 * Types `word` one key at a time; each sample is the keydown to the frame
 * after the results list shows the answer to the text typed so far (its
 * `data-query`, no longer busy). The keydown listener is installed, and
 * confirmed, before the key is sent: sent together, the key could arrive
 * first and the sample became the time since the page loaded.
 */
async function typeAndMeasure(page: Page, word: string): Promise<Keystroke[]> {
  const samples: Keystroke[] = [];
  const input = page.getByTestId('search-input');
  await input.fill('');
  await input.focus();
  for (let i = 0; i < word.length; i++) {
    await page.evaluate(() => {
      const probe = window as { __keydownAt?: number };
      delete probe.__keydownAt;
      document.addEventListener('keydown', (event) => (probe.__keydownAt = event.timeStamp), {
        capture: true,
        once: true,
      });
    });
    await page.keyboard.press(word[i]!);
    samples.push(
      await page.evaluate(
        (query) =>
          new Promise<Keystroke>((resolve) => {
            const keydownAt = (window as { __keydownAt?: number }).__keydownAt!;
            let first: { ms: number; partial: boolean } | null = null;
            let measuring = false;
            let completing = false;
            const frameAfter = (then: (ms: number) => void) =>
              requestAnimationFrame(() => setTimeout(() => then(performance.now() - keydownAt), 0));
            const check = () => {
              const results = document.querySelector('[data-testid="search-results"]');
              if (
                results?.getAttribute('aria-busy') !== 'false' ||
                results.getAttribute('data-query') !== query
              )
                return;
              const partial = results.getAttribute('data-index-loading') === 'true';
              if (first === null) {
                if (measuring) return;
                measuring = true;
                frameAfter((ms) => {
                  first = { ms, partial };
                  if (partial) check();
                  else finish(ms, false, ms);
                });
              } else if (first.partial && !partial && !completing) {
                completing = true;
                const shown = first.ms;
                frameAfter((ms) => finish(shown, true, ms));
              }
            };
            const observer = new MutationObserver(check);
            const finish = (ms: number, partial: boolean, completeMs: number) => {
              observer.disconnect();
              resolve({ ms, partial, completeMs });
            };
            observer.observe(document.body, { subtree: true, childList: true, attributes: true });
            check();
          }),
        word.slice(0, i + 1),
      ),
    );
  }
  return samples;
}

async function appContext(browser: Browser): Promise<BrowserContext> {
  const context = await localContext(browser, ORIGIN, {
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'block',
  });
  await context.addInitScript(START_PROBE);
  return context;
}

export async function notebookChromiumBenchmarks(scale: number): Promise<BenchResult[]> {
  const count = Number(
    process.env.BENCH_NOTEBOOK_NOTES ?? Math.max(500, Math.round(10_000 * Math.min(1, scale))),
  );
  const served = await serveAppInChromium(PORT, 'Notebook in Chromium');
  const { browser } = served;
  const results: BenchResult[] = [];
  try {
    // The floor: the same app starting with no notes, in its own storage.
    const empty = await (await appContext(browser)).newPage();
    await empty.goto(ORIGIN);
    await empty.getByTestId('note-list').waitFor();
    const emptyStarts: number[] = [];
    for (let i = 0; i < STARTS; i++) emptyStarts.push(await startToList(empty));
    await empty.context().close();

    const context = await appContext(browser);
    const page = await context.newPage();
    page.setDefaultTimeout(IMPORT_TIMEOUT_MS);
    await page.goto(ORIGIN);
    await page.getByTestId('note-list').waitFor();
    const importStart = performance.now();
    await page
      .getByTestId('import-zip-input')
      .setInputFiles({ name: 'notebook.zip', mimeType: 'application/zip', buffer: notebookZip(count) });
    await page.getByTestId('import-dialog').getByTestId('import-start').click();
    await page.locator(`[data-testid="note-count"][data-total="${count}"]`).waitFor();
    // Searched once, so the index has taken every imported note before the starts are timed.
    await page.getByTestId('search-input').fill('quetzalcoatl');
    await page.getByTestId('search-result').first().waitFor();
    await page.getByTestId('search-input').fill('');
    const importMs = performance.now() - importStart;
    console.log(
      `Notebook in Chromium: ${count.toLocaleString('en-US')} notes in ${FOLDERS} folders, imported and indexed in ${formatMs(importMs)} (not a figure: set-up).`,
    );

    const starts: number[] = [];
    for (let i = 0; i < STARTS; i++) starts.push(await startToList(page));
    results.push(
      row(
        `app start → interactive note list, ${count.toLocaleString('en-US')} notes (median of ${STARTS})`,
        'same start, empty notebook',
        median(starts),
        median(emptyStarts),
        `runs ${starts.map((ms) => ms.toFixed(0)).join(' / ')} ms`,
      ),
    );

    // Search as you type over the whole notebook, right after that start: the
    // first keys a user types may come while the stored index is still loading.
    const keystrokes: Keystroke[] = [];
    for (const word of TYPED) keystrokes.push(...(await typeAndMeasure(page, word)));
    await page.getByTestId('search-input').fill('');
    const shown = keystrokes.map((key) => key.ms);
    const partial = keystrokes.filter((key) => key.partial);

    // Opening: a row near the top, then others; each to the frame with its title in the editor.
    const opens: number[] = [];
    const rows = await page
      .getByTestId('note-item')
      .evaluateAll((items) =>
        items.map((item) => [
          item.getAttribute('data-note-id'),
          item.querySelector('.title')?.textContent?.trim(),
        ]),
      );
    for (const [id, wanted] of rows.slice(1, 6)) {
      opens.push(
        await clickToFrame(page, `[data-testid="note-item"][data-note-id="${id}"]`, { title: wanted ?? '' }),
      );
    }

    // Folders: each click to the frame where the list shows that folder's count.
    const switches: number[] = [];
    const perFolder = Math.round(count / FOLDERS);
    for (let i = 0; i < 6; i++) {
      const folder = `folder-${String((i * 3) % FOLDERS).padStart(2, '0')}`;
      switches.push(
        await clickToFrame(page, `[data-testid="folder-item"][data-folder="${folder}"]`, {
          folder,
          total: perFolder,
        }),
      );
    }
    const frame = 1000 / 60;
    results.push(
      row(
        `open a note (click → text shown), ${count.toLocaleString('en-US')} notes, p95`,
        'one 60 Hz frame',
        percentile(opens, 95),
        frame,
        `p50 ${formatMs(percentile(opens, 50))}; ${opens.length} opens`,
      ),
      row(
        `switch folders (click → that folder's list shown), ${count.toLocaleString('en-US')} notes, p95`,
        'one 60 Hz frame',
        percentile(switches, 95),
        frame,
        `p50 ${formatMs(percentile(switches, 50))}; ${switches.length} switches, ${perFolder} notes each`,
      ),
      row(
        `search as you type (key → results shown, 150 ms debounce included), ${count.toLocaleString('en-US')} notes, p95`,
        'the 150 ms debounce',
        percentile(shown, 95),
        150,
        `p50 ${formatMs(percentile(shown, 50))}; ${keystrokes.length} keystrokes, typed right after a start` +
          (partial.length > 0
            ? `; ${partial.length} answered while the index loaded (complete after ${partial.map((key) => formatMs(key.completeMs)).join(', ')})`
            : ''),
      ),
    );
    await context.close();
  } finally {
    await served.close();
  }
  return results;
}

// `npx tsx bench/notebook-chromium.ts` (or `npm run bench:notebook`): this group alone.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(report(await notebookChromiumBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));
}
