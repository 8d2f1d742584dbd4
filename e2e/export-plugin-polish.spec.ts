import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Route } from '@playwright/test';
import { zipSync, type Zippable } from 'fflate';
import { installPluginPackage, pluginItem, samplePackage } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

const TITLE = 'Many diagrams in one note about process scheduling';
const BODY = '```mermaid\ngraph TD; A-->B\n```\n';

/** While an export runs, the title keeps the width it had and the status fits on the screen. */
async function expectTitleKeepsItsWidth(page: Page): Promise<void> {
  const title = page.getByTestId('note-title');
  const before = (await title.boundingBox())?.width;
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-html').click();
  const status = page.getByTestId('export-status');
  await expect(status).toHaveText('Exporting HTML…');
  await expect(status).toBeInViewport({ ratio: 1 });
  expect((await title.boundingBox())?.width).toBe(before);
  await expect(page.getByTestId('export-cancel')).toBeEnabled();
  await page.getByTestId('export-cancel').click();
  await expect(status).toHaveCount(0);
}

test('the export status leaves the note title its width, on a desktop and on a phone', async ({ page }) => {
  // Mermaid's chunk is held back, so each export stays on its diagram (its status showing) until cancelled.
  const held: Route[] = [];
  await page.route(/\/assets\/mermaid\.core-[^/]*\.js$/, (route) => void held.push(route));
  await openApp(page);
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill(TITLE);
  await page.getByTestId('note-body').fill(BODY);
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expectTitleKeepsItsWidth(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('topbar-new-note')).toBeVisible();
  await expectTitleKeepsItsWidth(page);
});

test('recent exports of one note say which format and when each was made', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('new-note').click();
  await page.getByTestId('note-title').fill('Twice');
  await page.getByTestId('note-body').fill('Some text.\n');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  for (let round = 0; round < 2; round += 1) {
    const download = page.waitForEvent('download');
    await page.getByTestId('export-note').click();
    await page.getByTestId('export-format-html').click();
    expect((await download).suggestedFilename()).toBe('Twice.html');
  }

  await page.getByTestId('export-note').click();
  const entries = page.getByTestId('export-recent-download').filter({ hasText: 'Twice.html' });
  await expect(entries).toHaveCount(2);
  const times: string[] = [];
  for (const entry of await entries.all()) {
    await expect(entry).toContainText('HTML ·');
    const time = entry.getByTestId('export-recent-time');
    // A local time to the second, as the screen reader hears it in the button's name too.
    await expect(time).toHaveText(/\d{1,2}:\d{2}:\d{2}/);
    const shown = (await time.textContent()) ?? '';
    await expect(entry).toHaveAccessibleName(`Download Twice.html again (HTML, exported ${shown})`);
    times.push((await time.getAttribute('datetime')) ?? '');
  }
  // Each entry carries its own export's time.
  expect(new Set(times).size).toBe(2);
});

/** The word counter under another id (its tool renamed with it) but the same name. */
function wordCounterCopy(): Buffer {
  const dir = join(process.cwd(), 'e2e/plugins/word-counter');
  const files: Zippable = {};
  for (const name of readdirSync(dir)) {
    const text = readFileSync(join(dir, name), 'utf8');
    files[name] = new TextEncoder().encode(
      name === 'plugin.yaml' ? text.replaceAll('word-counter', 'word-counter-copy') : text,
    );
  }
  return Buffer.from(zipSync({ plugin: files }));
}

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('plugins: same-named ones show their ids, a failed one offers only what applies, a refused try names the argument', async ({
    page,
  }) => {
    await openApp(page);
    const counter = await installPluginPackage(page, 'word-counter');
    await expect(counter).toHaveAttribute('data-state', 'installed');
    const section = page.getByTestId('plugin-settings');
    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'word-counter-copy.zip',
      mimeType: 'application/zip',
      buffer: wordCounterCopy(),
    });
    const copy = pluginItem(section, 'word-counter-copy');
    await expect(copy).toHaveAttribute('data-state', 'installed');
    // Two rows named "Word Counter": the ids tell them apart.
    await expect(counter.getByTestId('plugin-id')).toHaveText('word-counter');
    await expect(copy.getByTestId('plugin-id')).toHaveText('word-counter-copy');

    // Tried with {} the tool says which argument is missing, not only "some values are not valid".
    await counter.getByTestId('plugin-enable').click();
    await expect(counter).toHaveAttribute('data-state', 'enabled');
    const tool = counter.locator('[data-testid="plugin-tool"][data-tool="word-counter.count"]');
    // The box starts with the required arguments; emptied to {} it leaves one out.
    await tool.getByTestId('plugin-tool-arguments').fill('{}');
    await tool.getByTestId('plugin-tool-try').click();
    await expect(page.getByTestId('toast').filter({ hasText: '没有运行' })).toHaveText(
      '工具“word-counter.count”没有运行：缺少必填参数“text”。',
    );
    await expect(tool.getByTestId('plugin-tool-result')).toHaveCount(0);

    // A plugin that failed to start offers Restart and Disable, not Enable as well.
    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'broken-start.zip',
      mimeType: 'application/zip',
      buffer: samplePackage(join(process.cwd(), 'e2e/plugins/broken-start')),
    });
    const broken = pluginItem(section, 'broken-start');
    await expect(broken).toHaveAttribute('data-state', 'installed');
    await broken.getByTestId('plugin-enable').click();
    await expect(broken).toHaveAttribute('data-state', 'error');
    await expect(broken.getByTestId('plugin-restart')).toBeVisible();
    await expect(broken.getByTestId('plugin-enable')).toHaveCount(0);
    await broken.getByTestId('plugin-disable').click();
    await expect(broken).toHaveAttribute('data-state', 'disabled');
    await expect(broken.getByTestId('plugin-enable')).toBeVisible();
    await expect(broken.getByTestId('plugin-restart')).toHaveCount(0);
  });
});
