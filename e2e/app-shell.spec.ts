import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, test as plainTest, type Page } from '@playwright/test';
import { DIST_DIR, openApp, test, waitForServiceWorker } from './fixtures';

// Offline use needs the app's service worker, which other specs block (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const DIST = resolve(DIST_DIR);

/** The scripts a first visit loads before start-up: the entry and what index.html preloads. */
async function shellScripts(): Promise<{ path: string; text: string }[]> {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const paths = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
  expect(paths.length).toBeGreaterThan(0);
  return Promise.all(paths.map(async (path) => ({ path, text: await readFile(join(DIST, path), 'utf8') })));
}

// Validation belongs to the core worker. Imported into the page, zod adds about 20 KiB to the
// first visit, and its eval probe is a CSP violation that Lighthouse reports as an issue.
plainTest('the app shell carries no schema library: zod stays in the worker', async () => {
  const carrying = (await shellScripts())
    .filter(({ text }) => text.includes('ZodError'))
    .map(({ path }) => path);
  expect(carrying).toEqual([]);
});

// markdown-it and yaml (some 200 KB) come with the preview and the core worker. The editor's [[
// completion reads what is typed with a light module; reaching for wikilinks.ts, which finds
// code through markdown-it, once put both in the first visit's download.
plainTest('the app shell carries no Markdown or YAML parser', async () => {
  const carrying = (await shellScripts())
    .filter(({ text }) => text.includes('Wrong `markdown-it` preset') || text.includes('YAMLParseError'))
    .map(({ path }) => path);
  expect(carrying).toEqual([]);
});

// The note editor's panels that typing does not need load on their own (src/ui/editor/lazy-panels.ts,
// the export menu's list): each marker is a string only that panel's code carries. The typing path
// (the body's textarea, drafts, autosave) must stay in the shell, so a key typed at once lands.
const ON_DEMAND_PANELS: Readonly<Record<string, string>> = {
  'the Markdown preview': 'data-testid="preview"',
  'the version history': 'history-version',
  "the export menu's list": 'export-recent-download',
  'the context menu': 'editor-context-menu-item',
  'the [[ completion (textarea-caret)': 'mozInnerScreenX',
  'the backlinks list': 'backlinks-scan-cap',
  'the audio citations': 'note-audio-citations',
  'the audio player': 'audio-player',
  "an agent's undo": 'agent-undo',
};

plainTest(
  "the app shell has the note's textarea and leaves the editor's other panels for later",
  async () => {
    const scripts = await shellScripts();
    const carries = (marker: string) => scripts.some(({ text }) => text.includes(marker));
    expect(carries('data-testid="note-body"')).toBe(true);
    const carried = Object.entries(ON_DEMAND_PANELS)
      .filter(([, marker]) => carries(marker))
      .map(([panel]) => panel);
    expect(carried).toEqual([]);
  },
);

// English is in the shell as every language's fallback; the Chinese table (about 15 KiB
// compressed) is fetched only where it is spoken.
const CHINESE_TABLE = /\/assets\/zh-cn-[\w-]+\.js$/;

/**
 * The Chinese table's downloads by the page itself. The page's log, not the context's: the
 * service worker precaches every language in the background on a first visit, and the context
 * may or may not have seen that copy (the offline cache, not the page's download) by the time
 * a test looks.
 */
function pageChineseTableRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => {
    if (CHINESE_TABLE.test(request.url())) urls.push(request.url());
  });
  return urls;
}

plainTest('the app shell does not carry the Chinese messages', async () => {
  const carrying = (await shellScripts())
    .filter(({ text }) => text.includes('新建笔记'))
    .map(({ path }) => path);
  expect(carrying).toEqual([]);
});

test('an English browser gets the English app without downloading the Chinese table', async ({ page }) => {
  const downloads = pageChineseTableRequests(page);
  await openApp(page);
  await expect(page.getByTestId('new-note')).toContainText('New note');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
  expect(downloads).toEqual([]);
});

test.describe('a Chinese browser', () => {
  test.use({ locale: 'zh-CN' });

  test('paints the app in Chinese from the first view', async ({ page }) => {
    const downloads = pageChineseTableRequests(page);
    await page.goto('/');
    // The first paint already speaks Chinese: no English text shows before start-up settles.
    await expect(page.getByTestId('new-note')).toContainText('新建笔记');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');
    expect(downloads).toHaveLength(1);
  });

  test('names the built-in themes, the built-in embedder and the agent tools in Chinese, and the chat header fits them', async ({
    page,
  }) => {
    await openApp(page);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-nav-general').click();
    const theme = (id: string) =>
      page.locator(`[data-testid="theme-row"][data-theme-id="${id}"] .theme-name`);
    await expect(theme('light')).toHaveText('浅色');
    await expect(theme('dark')).toHaveText('深色');
    await page.getByTestId('settings-nav-search').click();
    await expect(page.getByTestId('embedding-model').locator('option[value="hash-v1"]')).toHaveText(
      'hash-v1（内置，无需下载）',
    );
    await page.keyboard.press('Escape');

    await page.getByTestId('nav-agent').click();
    await page.getByTestId('agent-capabilities').locator('summary').click();
    await expect(page.locator('[data-testid="agent-tool"][data-tool="notes.search"]')).toContainText(
      '按标题或正文中的词语查找笔记。',
    );
    await expect(page.locator('[data-testid="agent-tool"][data-tool="tasks.create"]')).not.toContainText(
      'Add tasks',
    );

    // The chat's header keeps its labels on one line beside the model's long name.
    await page.getByTestId('nav-chat').click();
    // Lines a label's text takes: the distinct tops of its text's boxes.
    const lines = (selector: string) =>
      page.locator(selector).evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        return new Set(Array.from(range.getClientRects(), (box) => Math.round(box.top))).size;
      });
    await expect(page.getByTestId('chat-model')).toBeVisible();
    expect(await lines('[data-testid="chat-system-prompt"] summary')).toBe(1);
    expect(await lines('.thread-header .memory-toggle span')).toBe(1);
  });
});

test('switching the language in settings works offline and is remembered for the next start', async ({
  page,
  context,
  requestLog,
}) => {
  // The service worker precaches the whole build (about 13 MB) before it takes over.
  test.setTimeout(360_000);
  await openApp(page);
  await waitForServiceWorker(page);
  // A page the service worker controls (the first one is not): the Chinese table then comes
  // from its precache.
  await page.reload();
  await expect(page.getByTestId('new-note')).toContainText('New note');
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await context.setOffline(true);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page.getByTestId('locale-select').selectOption('zh-CN');
  await expect(page.getByTestId('settings-nav-general')).toHaveText('通用');
  await expect(page.getByTestId('new-note')).toContainText('新建笔记');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  // Settings load after the first paint; the choice is in effect before it.
  await page.reload();
  await expect(page.getByTestId('new-note')).toContainText('新建笔记');
  await expect(page.getByTestId('shell')).toHaveAttribute('aria-busy', 'false');

  // Back to the browser's language, on the Settings page by its address: the reload reopens the
  // page the address names once its code loads, and a click on the gear would meet that dialog.
  await page.evaluate(() => {
    location.hash = '#/settings/general';
  });
  await expect(page.getByTestId('settings-nav-general')).toBeVisible();
  await page.getByTestId('locale-select').selectOption('');
  await expect(page.getByTestId('new-note')).toContainText('New note');
  await page.reload();
  await expect(page.getByTestId('new-note')).toContainText('New note');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(requestLog.foreign()).toEqual([]);
});
