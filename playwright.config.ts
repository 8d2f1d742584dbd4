import { defineConfig } from '@playwright/test';
// @ts-expect-error plain ESM helper shared with scripts/ensure-deps.mjs
import { findSystemChromium } from './scripts/system-chromium.mjs';

// PW_PORT lets several checkouts run their browser tests side by side.
const port = Number(process.env.PW_PORT ?? 4310);
const executablePath: string | undefined = findSystemChromium();

// Flags measured in ../shared/NOTES.md: no background traffic, no sandbox as root.
const args = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-webgpu',
];

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: executablePath ? { executablePath, args } : { args },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: `node scripts/serve.mjs --port ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
