// Lighthouse (mobile preset, the default) against the built app served the way
// `npm start` serves it: precompressed assets, long cache headers for hashed files.
// Prints the performance, accessibility and best-practices scores and the
// transfer size of the first visit. Builds the app first when dist/ is missing.
// LIGHTHOUSE_REPORT=<file> also writes the whole report (its diagnostics: main-thread
// work, bootup time per script, long tasks) there.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import lighthouse from 'lighthouse';
import { serveAppInChromium } from './chromium';

/** The app's port here; beside the e2e suite's and the other browser benches'. */
const LIGHTHOUSE_APP_PORT = Number(process.env.BENCH_LIGHTHOUSE_PORT ?? 4330);

/** A port nothing listens on now, for Chromium's DevTools endpoint that Lighthouse drives. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export async function lighthouseScores(): Promise<Record<string, number>> {
  const debuggingPort = await freePort();
  // The shared helper's browser (system Chromium, the suite's flags), with a DevTools port:
  // Lighthouse opens its own tab in it over that port.
  const app = await serveAppInChromium(LIGHTHOUSE_APP_PORT, 'Lighthouse', [
    `--remote-debugging-port=${debuggingPort}`,
  ]);
  const url = `${app.origin}/`;
  try {
    const result = await lighthouse(url, {
      port: debuggingPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    // A failed page load still yields a report, with zero scores: say why instead.
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse could not measure the page: ${result.lhr.runtimeError.message}`);
    const reportPath = process.env.LIGHTHOUSE_REPORT;
    if (reportPath) writeFileSync(reportPath, JSON.stringify(result.lhr));
    const { categories, audits } = result.lhr;
    const scores = {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      'best-practices': Math.round((categories['best-practices']?.score ?? 0) * 100),
    };
    const transfer = Number(audits['total-byte-weight']?.numericValue ?? 0);
    const metric = (id: string) => audits[id]?.displayValue ?? '?';
    console.log(
      `Lighthouse 12.2.3, mobile preset, ${url}: performance ${scores.performance}, ` +
        `accessibility ${scores.accessibility}, best practices ${scores['best-practices']}`,
    );
    console.log(
      `  first visit transfers ${(transfer / 1024).toFixed(0)} KiB; FCP ${metric('first-contentful-paint')}, ` +
        `LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
    );
    return scores;
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await lighthouseScores();
