import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { pdfFillColours } from '../src/export/pdf/testing/fill-colours';
import { createNote, expect, openApp, test } from './fixtures';

const NOTE_BODY = `# 递归

\`\`\`python
def fib(n):
    return "base" if n < 2 else fib(n - 1) + fib(n - 2)  # 斐波那契
\`\`\`
`;

async function exportFile(page: Page, format: 'html' | 'pdf', codeTheme?: string): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  if (codeTheme) {
    // The code colours are chosen in the options dialog, which exports with them.
    await page.getByTestId('export-options-open').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('export-code-theme').selectOption(codeTheme);
    await dialog.getByTestId('export-dialog-format').selectOption(format);
    await dialog.getByTestId('export-dialog-run').click();
  } else {
    await page.getByTestId(`export-format-${format}`).click();
  }
  const file = await download;
  return file.path();
}

test('an exported HTML file colours code as the preview does, light and then dark', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Fibonacci', NOTE_BODY);
  // The preview shows the keyword coloured: the file should too.
  await expect(page.getByTestId('preview').locator('.hljs-keyword').first()).toHaveText('def');

  const light = await readFile(await exportFile(page, 'html'), 'utf8');
  // github-light: keyword #d73a49, string #032f62, on #f6f8fa.
  expect(light).toContain('<span style="color:#d73a49">def</span>');
  expect(light).toContain('<span style="color:#032f62">&quot;base&quot;</span>');
  expect(light).toContain('<pre class="code-theme-github-light">');
  await expect(page.getByText('Exported Fibonacci.html')).toBeVisible();

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page
    .getByTestId('theme-settings')
    .locator('[data-testid="theme-row"][data-theme-id="dark"]')
    .getByTestId('theme-enable')
    .click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');

  const dark = await readFile(await exportFile(page, 'html'), 'utf8');
  // github-dark: keyword #ff7b72, matching the dark app.
  expect(dark).toContain('<span style="color:#ff7b72">def</span>');
  expect(dark).not.toContain('#d73a49');

  // The file shows the colour when opened on its own.
  const viewer = await page.context().newPage();
  await viewer.setContent(dark);
  await expect(viewer.locator('pre span', { hasText: /^def$/ }).first()).toHaveCSS(
    'color',
    'rgb(255, 123, 114)',
  );
  // ...on the dark theme's code background, as in the preview.
  await expect(viewer.locator('pre').first()).toHaveCSS('background-color', 'rgb(31, 35, 42)');
  await viewer.close();

  // Chosen in the menu, plain code it is, whatever the theme.
  const plain = await readFile(await exportFile(page, 'html', 'none'), 'utf8');
  expect(plain).toContain('<code class="language-python">def fib(n):');
  expect(plain).not.toContain('<span style="color:');
  expect(requestLog.foreign()).toEqual([]);
});

test('an exported PDF draws code in colour and keeps it as text', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(page, 'Fibonacci', NOTE_BODY);
  const path = await exportFile(page, 'pdf');
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(text).toContain('def fib(n):');
  expect(text).toContain('return "base" if n < 2 else fib(n - 1) + fib(n - 2)');
  expect(text).toContain('斐波那契');
  const colours = pdfFillColours(await readFile(path));
  expect([...colours]).toEqual(expect.arrayContaining(['#d73a49', '#032f62']));
  expect(requestLog.foreign()).toEqual([]);
});
