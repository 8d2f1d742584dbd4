// The browser benches' Chromium and app server, set up as the e2e suite sets
// them up (playwright.config.ts): the system Chromium where installed, else
// Playwright's own, with the shared flags; the built app served by
// scripts/serve.mjs on a port of the bench's own, so it can run beside the
// e2e suite; no request leaves that origin.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with playwright.config.ts
import { CHROMIUM_ARGS, findSystemChromium } from '../scripts/system-chromium.mjs';

/**
 * Debian's Chromium with the shared flags (scripts/system-chromium.mjs) where installed, else the
 * browser Playwright downloaded; `extraArgs` after them (Lighthouse's bench adds a debugging port).
 */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  const executablePath: string | undefined = findSystemChromium();
  return chromium.launch({
    ...(executablePath && { executablePath }),
    args: [...(CHROMIUM_ARGS as string[]), ...extraArgs],
  });
}

/** A bench measures the built app: builds it once when dist/ has none. */
export function ensureBuilt(label: string): void {
  if (existsSync('dist/index.html')) return;
  console.log(`${label}: building the app first (vite build).`);
  const built = spawnSync('npx', ['vite', 'build'], { stdio: 'ignore' });
  if (built.status !== 0) throw new Error('vite build failed');
}

async function waitForServer(origin: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(origin)).ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`the app server on ${origin} did not start`);
}

export interface ServedApp {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly browser: Browser;
  /** Closes the browser, then stops the server. */
  close(): Promise<void>;
}

/** The built app (built first if need be) served on `port`, and a browser to open it in. */
export async function serveAppInChromium(
  port: number,
  label: string,
  browserArgs: readonly string[] = [],
): Promise<ServedApp> {
  ensureBuilt(label);
  const origin = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['scripts/serve.mjs', '--port', String(port)], { stdio: 'ignore' });
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(browserArgs);
    await waitForServer(origin);
  } catch (error) {
    await browser?.close();
    server.kill();
    throw error;
  }
  const opened = browser;
  return {
    origin,
    browser: opened,
    close: async () => {
      try {
        await opened.close();
      } finally {
        server.kill();
      }
    },
  };
}

/**
 * A context whose requests stay on `origin` (others are aborted, as in the
 * e2e specs), with the helper that tsx gives named functions defined in the
 * page, which lacks it.
 */
export async function localContext(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.route('**/*', (route) =>
    route.request().url().startsWith(origin) ? route.continue() : route.abort('blockedbyclient'),
  );
  await context.addInitScript('globalThis.__name = (target) => target;');
  return context;
}
