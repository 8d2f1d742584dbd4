// Lighthouse (mobile preset, the default) against the built app served the way
// `npm start` serves it: precompressed assets, long cache headers for hashed files.
// Prints the performance, accessibility and best-practices scores and the
// transfer size of the first visit. Builds the app first when dist/ is missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

function ensureBuild(): void {
  if (existsSync(`${root}dist/index.html`)) return;
  console.log('No build in dist/: building it first (vite build).');
  const built = spawnSync('npx', ['vite', 'build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('vite build failed');
}

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}scripts/serve.mjs`, '--port', '0'], { cwd: root });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/[^\s]+\/)/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Debian's Chromium where installed, else the browser Playwright downloaded. */
function chromePath(): string {
  return (findSystemChromium() as string | undefined) ?? chromium.executablePath();
}

export async function lighthouseScores(): Promise<Record<string, number>> {
  ensureBuild();
  const server = await startServer();
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: ['--headless=new', ...(CHROMIUM_ARGS as string[])],
  });
  try {
    const result = await lighthouse(server.url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('Lighthouse returned no result');
    // A failed page load still yields a report, with zero scores: say why instead.
    if (result.lhr.runtimeError)
      throw new Error(`Lighthouse could not measure the page: ${result.lhr.runtimeError.message}`);
    const { categories, audits } = result.lhr;
    const scores = {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      'best-practices': Math.round((categories['best-practices']?.score ?? 0) * 100),
    };
    const transfer = Number(audits['total-byte-weight']?.numericValue ?? 0);
    const metric = (id: string) => audits[id]?.displayValue ?? '?';
    console.log(
      `Lighthouse 12.2.3, mobile preset, ${server.url}: performance ${scores.performance}, ` +
        `accessibility ${scores.accessibility}, best practices ${scores['best-practices']}`,
    );
    console.log(
      `  first visit transfers ${(transfer / 1024).toFixed(0)} KiB; FCP ${metric('first-contentful-paint')}, ` +
        `LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`,
    );
    return scores;
  } finally {
    chrome.kill();
    server.child.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await lighthouseScores();
