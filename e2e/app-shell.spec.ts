import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const DIST = join(process.cwd(), 'dist');

/** The scripts a first visit loads before start-up: the entry and what index.html preloads. */
async function shellScripts(): Promise<{ path: string; text: string }[]> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const paths = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  expect(paths.length).toBeGreaterThan(0);
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(DIST, path), 'utf8') })));
}

// Validation belongs to the core worker. Imported into the page, zod adds about 20 KiB to the
// first visit, and its eval probe is a CSP violation that Lighthouse reports as an issue.
test('the app shell carries no schema library: zod stays in the worker', async () => {
  const carrying = (await shellScripts())
    .filter(({ text }) => text.includes('ZodError'))
    .map(({ path }) => path);
  expect(carrying).toEqual([]);
});
