import { existsSync } from 'node:fs';

/** A system Chromium (Debian's `chromium` here) wins over Playwright's download. */
export function findSystemChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/snap/bin/chromium',
  ].filter(Boolean);
  return candidates.find((path) => existsSync(path));
}

/** Flags that keep a test browser quiet and runnable as root: no background traffic, no sandbox. Shared by Playwright and the bench. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-unsafe-webgpu',
];
