// Installs what is missing before `npm start` / `npm test`: npm packages when
// node_modules is absent or older than the lock file, and (with --browser) a
// Chromium for the end-to-end tests when the system has none.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (command, args) => {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const lock = join(root, 'package-lock.json');
const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
  console.log('Installing npm packages (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

if (process.argv.includes('--browser')) {
  const { findSystemChromium } = await import('./system-chromium.mjs');
  if (!findSystemChromium()) {
    const { chromium } = await import('@playwright/test');
    if (!existsSync(chromium.executablePath())) {
      console.log('No system Chromium found; installing Playwright’s Chromium…');
      run('npx', ['playwright', 'install', 'chromium']);
    }
  }
}
