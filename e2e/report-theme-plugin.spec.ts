import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { openPluginSettings, pluginItem } from './harness/plugin-steps';
import { createNote, expect, openApp, test } from './fixtures';

/**
 * What a teacher met writing a theme, reading an agent benchmark and trying a
 * plugin tool: a report whose aggregates count the failed cases, a refused
 * theme that says why, an example theme that styles the app and its exports
 * alike, and a Try box that names the tool's arguments and drops a stale result.
 */

test.setTimeout(180_000);

async function openThemes(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const settings = page.getByTestId('theme-settings');
  await expect(settings.getByTestId('theme-row').first()).toBeVisible();
  return settings;
}

const encoder = new TextEncoder();

function themeZip(manifest: string[]) {
  const files = {
    'theme.yaml': encoder.encode(manifest.join('\n')),
    'theme.css': encoder.encode(':root { --color-bg: #fdf6e3; }'),
  };
  return { name: 'mine.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ mine: files })) };
}

const MANIFEST = [
  'name: Mine',
  'version: 1.0.0',
  'author: E2E',
  'min_app_version: 0.1.0',
  'is_dark: false',
  'css_entry: theme.css',
];

test('the agent report charts rates over every case, and a case that called no tool counts against Arguments', async ({
  page,
}) => {
  await openApp(page);
  await page.getByTestId('nav-benchmarks').click();
  await page.getByTestId('bench-kind').selectOption('agent');
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Demo (scripted, offline)' });
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });
  await expect(page.getByTestId('bench-case-row')).toHaveCount(5);

  const table = page.getByTestId('bench-metric');
  const headings = await table.locator('thead th').allTextContents();
  const cell = (heading: string) =>
    table.getByTestId('bench-metric-row').locator('td').nth(headings.indexOf(heading));
  await expect(cell('Success')).toHaveText('0.200');
  // Four of five cases called none of their tools: Arguments is not the one passing case's 1.000.
  await expect(cell('Arguments')).toHaveText('0.200');
  // An agent run has no modes: the chart says what its bars are.
  await expect(report.locator('h2', { hasText: 'Metrics by mode' })).toHaveCount(0);
  await expect(report.locator('h2', { hasText: 'Agent metrics, each a rate over all cases' })).toBeVisible();
  await expect(report.getByText('4 of 5 cases failed.')).toBeVisible();
});

test('a refused theme says why: a built-in id, and the line a YAML error is on', async ({ page }) => {
  await openApp(page);
  const settings = await openThemes(page);
  await settings.getByTestId('theme-import-zip').setInputFiles(themeZip(['theme_id: light', ...MANIFEST]));
  const refusal = settings.getByTestId('theme-refusal');
  await expect(refusal.getByTestId('theme-refusal-reason')).toHaveText(
    'theme.yaml: theme_id “light” is reserved for a built-in theme; choose another id.',
  );
  await expect(refusal.getByTestId('theme-refusal-fields')).toHaveCount(0);

  // The bracket left open is on line 2, where the author has to close it.
  await settings
    .getByTestId('theme-import-zip')
    .setInputFiles(themeZip(['theme_id: mine', 'name: [Mine', ...MANIFEST.slice(1)]));
  await expect(refusal.getByTestId('theme-refusal-reason')).toHaveText(
    'theme.yaml could not be parsed: syntax error at line 2, column 12.',
  );
});

test('the documented example theme installs, and its heading rule styles the app and the HTML export', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Lecture 3', '# Fourier series\n\nA periodic signal.\n');
  const settings = await openThemes(page);

  const example = settings.getByRole('button', { name: 'Download an example theme' });
  await expect(example).toBeVisible();
  const download = page.waitForEvent('download');
  await example.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('notesagent-example-theme.zip');
  const path = await file.path();
  // What downloads is what README prints.
  const readme = await readFile('README.md', 'utf8');
  const entries = unzipSync(new Uint8Array(await readFile(path)));
  for (const name of ['theme.yaml', 'theme.css']) {
    const text = strFromU8(entries[`example-projector-theme/${name}`]!);
    const indented = text
      .trimEnd()
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n');
    expect(readme).toContain(indented);
  }

  await settings.getByTestId('theme-import-zip').setInputFiles(path);
  const inspection = settings.getByTestId('theme-inspection');
  await expect(inspection.getByTestId('theme-compatibility')).toHaveText(
    'Works with this version of the app.',
  );
  await inspection.getByTestId('theme-install').click();
  const row = settings.locator('[data-testid="theme-row"][data-theme-id="example-projector"]');
  await row.getByTestId('theme-enable').click();
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(255, 253, 245)');
  await page.keyboard.press('Escape');

  const heading = page.getByTestId('preview').locator('h1');
  await expect(heading).toHaveText('Fourier series');
  await expect(heading).toHaveCSS('color', 'rgb(0, 43, 128)');

  const exported = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-html').click();
  const html = await readFile(await (await exported).path(), 'utf8');
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  await expect(viewer.locator('h1').filter({ hasText: 'Fourier series' })).toHaveCSS(
    'color',
    'rgb(0, 43, 128)',
  );
  await viewer.close();
  expect(requestLog.foreign()).toEqual([]);
});

test('the Try box starts with the tool’s arguments, and a failed try replaces the last result', async ({
  page,
}) => {
  await openApp(page);
  const section = await openPluginSettings(page);
  const download = page.waitForEvent('download');
  await section.getByTestId('plugin-example').click();
  await section.getByTestId('plugin-install-input').setInputFiles(await (await download).path());
  const plugin = pluginItem(section, 'example-word-count');
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');

  const tool = plugin.locator('[data-testid="plugin-tool"][data-tool="example-word-count.count"]');
  const args = tool.getByTestId('plugin-tool-arguments');
  await expect(args).toHaveValue('{"text":""}');
  await args.fill('{"text":"信号与系统 Signals and Systems"}');
  await tool.getByTestId('plugin-tool-try').click();
  await expect(tool.getByTestId('plugin-tool-result')).toHaveText('8 words');

  await args.fill('信号');
  await tool.getByTestId('plugin-tool-try').click();
  await expect(tool.getByTestId('plugin-tool-failed')).toHaveText(
    'Not run: The arguments must be a JSON object.',
  );
  await expect(tool.getByTestId('plugin-tool-result')).toHaveCount(0);
});
