// The stored search index of a notebook loaded in Chromium, from the browser's
// own IndexedDB (fake-indexeddb in Node reads rows at another speed
// altogether): the notebook of bench-notebook.ts (10,000 notes, 50,000 blocks
// at scale 1) is written and its index built and stored through the app's
// SearchIndexer in the page (bench/index-load-page.ts), then the app's start
// is timed: the stored pieces read and the full-text and vector indexes built,
// against the raw read of the same pieces (the floor) in the same run.
// `npx tsx bench/index-load-chromium.ts` runs it alone (BENCH_SCALE as in `npm run bench`).
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from '@playwright/test';
import { bundleEntry } from '../e2e/harness/build-harness';
import { launchChromium } from './chromium';
import { notebookDrafts, notebookWords } from './bench-notebook';
import { percentile, row } from './figures';
import { formatMs, report, type BenchResult } from './harness';
import type { StartFigures } from './index-load-page';

/**
 * A loopback origin (a secure context, as the app's: ids come from crypto.randomUUID);
 * the page is answered by a route, so nothing listens on the port.
 */
const ORIGIN = `http://127.0.0.1:${Number(process.env.BENCH_INDEX_LOAD_PORT ?? 4319)}`;
const STARTS = 3;
/** Writing and indexing 10,000 notes in the page on a busy machine takes minutes; only the starts are timed. */
const SETUP_TIMEOUT_MS = 1_500_000;

type PageBench = {
  setup(drafts: unknown[]): Promise<{ blocks: number; buildMs: number }>;
  start(): Promise<StartFigures>;
  drop(): Promise<void>;
};

/**
 * bench/index-load-page.ts and what it imports, as one ES module (vite's
 * library build, not written). `root`: another checkout's (the "before" of a
 * change, BENCH_INDEX_LOAD_BEFORE), with this page copied into its bench/.
 */
function pageScript(root = fileURLToPath(new URL('..', import.meta.url))): Promise<string> {
  return bundleEntry(`${root}/bench/index-load-page.ts`, 'es', 'page');
}

type Bench = PageBench & { probe(): Promise<Record<string, number>> };
/** Spelled out in each page.evaluate: the function is sent to the page as source, without what it closes over. */
type PageGlobal = { indexLoadBench: Bench };

/** The starts of one build of the page, in an origin (and so a storage) of its own. */
async function measure(
  browser: Browser,
  origin: string,
  script: string,
  drafts: unknown[],
): Promise<{
  setup: { blocks: number; buildMs: number };
  starts: StartFigures[];
  probe?: Record<string, number>;
}> {
  const context = await browser.newContext();
  try {
    // The page and its script are answered here; nothing goes to the network.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url === `${origin}/`) {
        return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>index load</title>' });
      }
      if (url === `${origin}/page.js`) return route.fulfill({ contentType: 'text/javascript', body: script });
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.setDefaultTimeout(SETUP_TIMEOUT_MS);
    await page.goto(`${origin}/`);
    await page.addScriptTag({ url: `${origin}/page.js`, type: 'module' });
    await page.waitForFunction(() => 'indexLoadBench' in globalThis);
    const setup = await page.evaluate(
      (notes) => (globalThis as unknown as PageGlobal).indexLoadBench.setup(notes),
      drafts,
    );
    const starts: StartFigures[] = [];
    for (let i = 0; i < STARTS; i++)
      starts.push(await page.evaluate(() => (globalThis as unknown as PageGlobal).indexLoadBench.start()));
    // BENCH_INDEX_LOAD_PROBE=1: what one stored record costs to read (see probe in the page).
    const probe = process.env.BENCH_INDEX_LOAD_PROBE
      ? await page.evaluate(() => (globalThis as unknown as PageGlobal).indexLoadBench.probe())
      : undefined;
    await page.evaluate(() => (globalThis as unknown as PageGlobal).indexLoadBench.drop());
    return { setup, starts, ...(probe && { probe }) };
  } finally {
    await context.close();
  }
}

export async function indexLoadChromiumBenchmarks(scale: number): Promise<BenchResult[]> {
  const count = Math.max(200, Math.round(10_000 * scale));
  const drafts = notebookDrafts(count, notebookWords(), '2025-01-01T00:00:00.000Z') as unknown[];
  const before = process.env.BENCH_INDEX_LOAD_BEFORE;
  const variants: Array<[string, string]> = [['', await pageScript()]];
  if (before) variants.push([` (before: ${before})`, await pageScript(before)]);
  const browser = await launchChromium();
  const results: BenchResult[] = [];
  try {
    for (const [index, [suffix, script]] of variants.entries()) {
      const origin = ORIGIN.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + index}`);
      const { setup, starts, probe } = await measure(browser, origin, script, drafts);
      const label = `${count.toLocaleString('en-US')} notes, ${setup.blocks.toLocaleString('en-US')} blocks`;
      console.log(
        `Stored search index in Chromium's IndexedDB${suffix} (${label}, hash-v1 vectors; written and built in the page in ${formatMs(setup.buildMs)}, not a figure: set-up):`,
      );
      if (probe) console.log('  record cost probe (ms):', JSON.stringify(probe));
      const last = starts.at(-1)!;
      const median = (pick: (start: StartFigures) => number) => percentile(starts.map(pick), 50);
      results.push(
        row(
          `start: stored index loaded (full text + vectors) in Chromium, ${label}${suffix} (median of ${STARTS})`,
          'raw read of the stored pieces',
          median((start) => start.startMs),
          median((start) => start.readMs),
          `runs ${starts.map((start) => start.startMs.toFixed(0)).join(' / ')} ms; ` +
            `head (meta, marks, live notes' stamps) ${formatMs(median((start) => start.headMs))}; ` +
            `${last.blocks} blocks and ${last.vectors} vectors loaded, ${last.pendingNotes} notes re-indexed; ` +
            `${(last.storedBytes / 2 ** 20).toFixed(1)} MiB stored; load average ${loadavg()[0]!.toFixed(1)}`,
        ),
      );
    }
  } finally {
    await browser.close();
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(report(await indexLoadChromiumBenchmarks(Number(process.env.BENCH_SCALE ?? 1))));
}
