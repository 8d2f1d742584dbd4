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
