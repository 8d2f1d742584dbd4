import { defineConfig } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with scripts/ensure-deps.mjs
import { CHROMIUM_ARGS, findSystemChromium } from './scripts/system-chromium.mjs';

// PW_PORT lets several checkouts run their browser tests side by side; PW_DIST serves another
// build (`vite build --outDir <dir> --emptyOutDir`) so two builds of one checkout do not collide.
const port = Number(process.env.PW_PORT ?? 4310);
const dist = process.env.PW_DIST ? ` --dir ${JSON.stringify(process.env.PW_DIST)}` : '';
const executablePath: string | undefined = findSystemChromium();

const args: string[] = CHROMIUM_ARGS;

export default defineConfig({
  testDir: 'e2e',
  // A run empties its output folder first: side-by-side runs (PW_PORT) keep theirs apart.
  outputDir: process.env.PW_PORT ? `test-results/port-${process.env.PW_PORT}` : 'test-results',
  // Hang guards, not speed limits: tests wait on the page's own state, and these only end a test
  // that will never get there. They are sized for this 2-core machine at load 20 (the three-times
  // run beside the unit suite), where the service worker's first install alone took 34 s; on an
  // idle machine a test takes a few seconds.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  // Two spec files at a time: most of a test is waiting on the page (worker start, IndexedDB,
  // rendering), so two browsers share two cores well. A run with two workers beside seven other
  // jobs (load 50) passed whole, so nothing here depends on running alone. PW_WORKERS=1 runs one.
  workers: Number(process.env.PW_WORKERS ?? 2),
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: executablePath ? { executablePath, args } : { args },
    // Recording a trace (DOM snapshots and screencast frames at every step) cost a third of the
    // suite's time, and half of a large-note or Whisper test's: measured on 2 cores, 8 specs
    // 223 s with traces against 149 s without. A failing test keeps a screenshot and the list
    // reporter's call log; PW_TRACE=1 records traces again (kept for failing tests only) to
    // debug one spec locally.
    trace: process.env.PW_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    // The app's service worker precaches the whole build (some 13 MB) while a test runs: about two
    // CPU seconds a test, and a "Ready to work offline" toast at a moment no test chose. Specs that
    // test offline use say `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
  },
  webServer: {
    command: `node scripts/serve.mjs --port ${port}${dist}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
