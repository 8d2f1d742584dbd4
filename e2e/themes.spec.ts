import { readFile } from 'node:fs/promises';
import { zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { createNote, expect, openApp, previewNewNote, test, waitForServiceWorker } from './fixtures';

// Offline use needs the app's service worker, which other specs block (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

const encoder = new TextEncoder();
// A 1×1 PNG, for the package's preview image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const PAPER_BG = 'rgb(253, 246, 227)';
const PAPER_CSS = `/* Solarized-like paper */
:root {
  --color-bg: #fdf6e3;
  --color-text: #586e75;
  --color-code-bg: #eee8d5;
}
.markdown-preview h1 { letter-spacing: 0.02em; }
`;

function themePackage(css = PAPER_CSS, themeId = 'paper'): Buffer {
  const files = {
    'theme.yaml': encoder.encode(
      [
        `theme_id: ${themeId}`,
        'name: Paper',
        'version: 1.0.0',
        'author: E2E',
        'description: Warm paper',
        'min_app_version: 0.1.0',
        'is_dark: false',
        'css_entry: css/theme.css',
        'preview: preview.png',
      ].join('\n'),
    ),
    'css/theme.css': encoder.encode(css),
    'preview.png': new Uint8Array(PNG),
  };
  return Buffer.from(zipSync({ 'paper-theme': files }));
}

const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function openSettings(page: Page) {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  const settings = page.getByTestId('theme-settings');
  await expect(settings.getByTestId('theme-row').first()).toBeVisible();
  return settings;
}

test('a theme package: preview in isolation, enable, reload offline, uninstall', async ({
  page,
  context,
  requestLog,
}) => {
  await openApp(page);
  await waitForServiceWorker(page);
  const builtinBackground = await bodyBackground(page);
  expect(builtinBackground).not.toBe(PAPER_BG);

  const settings = await openSettings(page);
  await settings
    .getByTestId('theme-import-zip')
    .setInputFiles({ name: 'paper-theme.zip', mimeType: 'application/zip', buffer: themePackage() });

  // The preview: the candidate's CSS inside a sandboxed frame, not on this page.
  const inspection = settings.getByTestId('theme-inspection');
  await expect(inspection).toContainText('Paper');
  await expect(inspection.getByTestId('theme-compatibility')).toHaveText(
    'Works with this version of the app.',
  );
  const frameElement = inspection.getByTestId('theme-preview');
  await expect(frameElement).toHaveAttribute('sandbox', '');
  const frame = page.frameLocator('[data-testid="theme-preview"]');
  await expect(frame.locator('h1')).toHaveText('A sample note');
  await expect(frame.locator('table td').first()).toHaveText('CPU');
  await expect(frame.locator('.mermaid-block svg')).toHaveCount(1);
  await expect(frame.locator('body')).toHaveCSS('background-color', PAPER_BG);
  expect(await bodyBackground(page)).toBe(builtinBackground);
  expect(await page.evaluate(() => document.adoptedStyleSheets.length)).toBe(0);

  await inspection.getByTestId('theme-install').click();
  const paperRow = settings.locator('[data-testid="theme-row"][data-theme-id="paper"]');
  await expect(paperRow).toBeVisible();
  // Installed is not yet in use.
  expect(await bodyBackground(page)).toBe(builtinBackground);

  await expect(page.getByTestId('theme-scheme-select')).toBeEnabled();
  await paperRow.getByTestId('theme-enable').click();
  await expect(paperRow).toHaveAttribute('data-enabled', 'true');
  await expect(page.locator('body')).toHaveCSS('background-color', PAPER_BG);
  // The light-or-dark choice above says the package replaces it, instead of still offering it.
  await expect(page.getByTestId('theme-scheme-select')).toBeDisabled();
  await expect(page.getByTestId('theme-package-on')).toHaveText(
    'The theme “Paper” is on and replaces this choice. Turn it off under Themes below to choose here again.',
  );

  // Survives a reload with the network gone.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  await expect(page.locator('body')).toHaveCSS('background-color', PAPER_BG);
  await expect(page.locator('html')).toHaveAttribute('data-theme-package', 'paper');

  // The address kept Settings open on its page across the reload.
  await expect(page.getByTestId('settings')).toHaveAttribute('data-page', 'general');
  const again = page.getByTestId('theme-settings');
  await expect(again.getByTestId('theme-row').first()).toBeVisible();
  // The built-ins stay; only the package can be uninstalled.
  for (const id of ['light', 'dark']) {
    await expect(
      again.locator(`[data-testid="theme-row"][data-theme-id="${id}"]`).getByTestId('theme-uninstall'),
    ).toBeDisabled();
  }
  await again
    .locator('[data-testid="theme-row"][data-theme-id="paper"]')
    .getByTestId('theme-uninstall')
    .click();
  await expect(again.locator('[data-testid="theme-row"][data-theme-id="paper"]')).toHaveCount(0);
  await expect(page.locator('body')).toHaveCSS('background-color', builtinBackground);
  await expect(again.getByTestId('theme-package-on')).toHaveCount(0);
  await expect(page.getByTestId('theme-scheme-select')).toBeEnabled();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme-package', /.*/);

  expect(requestLog.foreign()).toEqual([]);
});

test('an unsafe theme package is refused with the line and what was found', async ({ page }) => {
  await openApp(page);
  const settings = await openSettings(page);
  await settings.getByTestId('theme-import-zip').setInputFiles({
    name: 'evil.zip',
    mimeType: 'application/zip',
    buffer: themePackage(
      ':root { --color-bg: red; }\nbody { background: u\\72l("https://evil.example/x.png"); }',
    ),
  });
  const refusal = settings.getByTestId('theme-refusal');
  await expect(refusal).toHaveAttribute('data-code', 'THEME_CSS_UNSAFE');
  await expect(refusal).toContainText('Line 2: https://evil.example/x.png');
  await expect(settings.getByTestId('theme-inspection')).toHaveCount(0);
  expect(await page.evaluate(() => document.adoptedStyleSheets.length)).toBe(0);
});

test('dark mode draws code blocks and tables dark; light mode light', async ({ page }) => {
  const preview = await previewNewNote(
    page,
    'Styled content',
    '```js\nconst answer = 42; // comment\n```\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n\n```mermaid\ngraph LR\n  A --> B\n```\n\n```function-plot\ny = x\n```\n',
  );
  const code = preview.locator('pre:has(code.hljs)');
  await expect(code).toBeVisible();

  await expect(code).toHaveCSS('background-color', 'rgb(246, 248, 250)');
  await expect(preview.locator('td').first()).toHaveCSS('border-top-color', 'rgb(208, 215, 222)');
  const diagram = preview.locator('.mermaid-block svg');
  await expect(diagram).toHaveCount(1);
  const lightDiagram = await diagram.innerHTML();
  // Plot curves take the theme's accent colour.
  const curve = preview.locator('.function-plot-chart path.line').first();
  await expect(curve).toHaveAttribute('stroke', '#2f5d8a');

  const settings = await openSettings(page);
  await settings
    .locator('[data-testid="theme-row"][data-theme-id="dark"]')
    .getByTestId('theme-enable')
    .click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');

  await expect(code).toHaveCSS('background-color', 'rgb(31, 35, 42)');
  await expect(code.locator('code')).toHaveCSS('color', 'rgb(230, 237, 243)');
  await expect(preview.locator('.hljs-keyword').first()).toHaveCSS('color', 'rgb(255, 123, 114)');
  await expect(preview.locator('td').first()).toHaveCSS('border-top-color', 'rgb(61, 68, 77)');
  await expect(preview.locator('th').first()).toHaveCSS('background-color', 'rgb(34, 38, 45)');
  // Diagrams are redrawn in the dark Mermaid theme.
  await expect.poll(() => diagram.innerHTML()).not.toBe(lightDiagram);
  // ...and plots in the dark theme's colours.
  await expect(curve).toHaveAttribute('stroke', '#7fb0e0');
});

test('an enabled theme cannot restyle the security UI', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Purge me', 'text');
  await page.getByTestId('trash-note').click();

  const settings = await openSettings(page);
  await settings.getByTestId('theme-import-zip').setInputFiles({
    name: 'sneaky.zip',
    mimeType: 'application/zip',
    buffer: themePackage(
      [
        ':root { --color-text: transparent; --color-danger: #00aa00; --font-sans: cursive; }',
        'button { opacity: 0 !important; }',
        'p { color: transparent !important; letter-spacing: 2em; }',
      ].join('\n'),
      'sneaky',
    ),
  });
  await settings.getByTestId('theme-install').click();
  const row = settings.locator('[data-testid="theme-row"][data-theme-id="sneaky"]');
  await row.getByTestId('theme-enable').click();
  await expect(row).toHaveAttribute('data-enabled', 'true');
  await page.keyboard.press('Escape');

  // Outside the security UI the theme applies...
  await expect(page.getByTestId('new-note')).toHaveCSS('opacity', '0');

  await page.getByTestId('nav-trash').click();
  await page.getByTestId('note-item').filter({ hasText: 'Purge me' }).click();
  await page.getByTestId('purge-note').click();

  // ...inside the confirmation it does not: built-in colours, visible buttons, plain text.
  const dialog = page.locator('dialog[data-secure-ui]');
  await expect(dialog).toBeVisible();
  const accept = dialog.getByTestId('confirm-accept');
  await expect(accept).toHaveCSS('opacity', '1');
  await expect(accept).toHaveCSS('background-color', 'rgb(179, 38, 30)');
  await expect(dialog.locator('p').first()).toHaveCSS('color', 'rgb(29, 33, 39)');
  await expect(dialog.locator('p').first()).toHaveCSS('letter-spacing', 'normal');
  await dialog.getByTestId('confirm-cancel').click();
});

test('an HTML export carries the enabled theme package', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(page, 'Paper export', '# Heading\n\n```js\nconst a = 1;\n```\n');
  const settings = await openSettings(page);
  await settings
    .getByTestId('theme-import-zip')
    .setInputFiles({ name: 'paper-theme.zip', mimeType: 'application/zip', buffer: themePackage() });
  await settings.getByTestId('theme-inspection').getByTestId('theme-install').click();
  const paperRow = settings.locator('[data-testid="theme-row"][data-theme-id="paper"]');
  await paperRow.getByTestId('theme-enable').click();
  await expect(page.locator('body')).toHaveCSS('background-color', PAPER_BG);
  await page.keyboard.press('Escape');

  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-html').click();
  const html = await (await download).path().then((path) => readFile(path, 'utf8'));
  expect(html.toLowerCase()).toContain('#fdf6e3');

  // Opened on its own, the file looks like the theme.
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  await expect(viewer.locator('body')).toHaveCSS('background-color', PAPER_BG);
  await expect(viewer.locator('pre').first()).toHaveCSS('background-color', 'rgb(238, 232, 213)');
  await viewer.close();
  expect(requestLog.foreign()).toEqual([]);
});
