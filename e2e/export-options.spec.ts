import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { createNote, expect, openApp, test } from './fixtures';

const HANDOUT = `---
author: 李雷
course: OS-101
---
进程调度的要点。

\`\`\`python
def fib(n):
    return n
\`\`\`
`;

async function exportFile(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<string> {
  const download = page.waitForEvent('download');
  await page.getByTestId(`export-format-${format}`).click();
  return (await download).path();
}

async function useDarkTheme(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-general').click();
  await page
    .getByTestId('theme-settings')
    .locator('[data-testid="theme-row"][data-theme-id="dark"]')
    .getByTestId('theme-enable')
    .click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');
}

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
const pdfInfo = (path: string) => execFileSync('pdfinfo', [path], { encoding: 'utf8' });

test('from a dark app, a light Letter handout without its title but with its metadata, remembered on this device', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '调度讲义', HANDOUT);
  await useDarkTheme(page);

  await page.getByTestId('export-note').click();
  const options = page.getByTestId('export-options');
  await expect(options.getByTestId('export-theme')).toHaveValue('current');
  await options.getByTestId('export-theme').selectOption('light');
  await options.getByTestId('export-page-size').selectOption('Letter');
  await options.getByTestId('export-include-title').uncheck();
  await options.getByTestId('export-include-metadata').check();
  const pdf = await exportFile(page, 'pdf');
  expect(pdfInfo(pdf)).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
  const text = pdfText(pdf);
  expect(text).toContain('进程调度的要点。');
  expect(text).toContain('author: 李雷');
  expect(text).toContain('course: OS-101');
  expect(text).not.toContain('调度讲义');

  // The next export uses the same choices without asking again.
  await page.getByTestId('export-note').click();
  const html = await readFile(await exportFile(page, 'html'), 'utf8');
  expect(html).not.toContain('<h1 class="title">');
  expect(html).toContain('<dt>author</dt><dd>李雷</dd>');
  // Printed from a browser, it asks for the same paper.
  expect(html).toContain('@page{size:letter}');
  // Light page and light code colours, though the app is dark.
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  await expect(viewer.locator('body')).toHaveCSS('background-color', 'rgb(255, 255, 255)');
  await expect(viewer.locator('pre span', { hasText: /^def$/ }).first()).toHaveCSS(
    'color',
    'rgb(215, 58, 73)',
  );
  await viewer.close();

  // After a reload the menu shows what was chosen, and a DOCX is on Letter paper too.
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  await page.getByTestId('note-list').getByText('调度讲义').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('export-note').click();
  await expect(options.getByTestId('export-theme')).toHaveValue('light');
  await expect(options.getByTestId('export-page-size')).toHaveValue('Letter');
  await expect(options.getByTestId('export-include-title')).not.toBeChecked();
  await expect(options.getByTestId('export-include-metadata')).toBeChecked();
  const docx = unzipSync(await readFile(await exportFile(page, 'docx')));
  const documentXml = new TextDecoder().decode(docx['word/document.xml']);
  expect(documentXml).toMatch(/<w:pgSz w:w="12240" w:h="15840"/);
  expect(documentXml).toContain('李雷');
  expect(documentXml).not.toContain('调度讲义');
  expect(requestLog.foreign()).toEqual([]);
});

test('the options are reached and changed from the keyboard, and Escape gives the keyboard back', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  const button = page.getByTestId('export-note');
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu').getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('Tab');
  const theme = page.getByRole('combobox', { name: 'Theme' });
  await expect(theme).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Paper (PDF, DOCX, printing)' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Code colours' })).toBeFocused();
  await page.keyboard.press('Tab');
  const title = page.getByRole('checkbox', { name: 'Title' });
  await expect(title).toBeFocused();
  await page.keyboard.press('Space');
  await expect(title).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(button).toBeFocused();

  await page.keyboard.press('Enter');
  await expect(page.getByRole('checkbox', { name: 'Title' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Metadata (front matter)' })).not.toBeChecked();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-format-pdf').press('Enter');
  const text = pdfText(await (await download).path());
  expect(text).toContain('Some text');
  expect(text).not.toContain('Handout');
});

test('a list of footnote definitions leaves no empty bullets in the HTML, PDF and DOCX', async ({ page }) => {
  await openApp(page);
  await createNote(
    page,
    'Reading list',
    'Scheduling[^a] and paging[^b].\n\n- a real point\n\nSources:\n\n- [^a]: Tanenbaum, chapter 2.\n- [^b]: Silberschatz, chapter 9.\n',
  );
  await page.getByTestId('export-note').click();
  const html = await readFile(await exportFile(page, 'html'), 'utf8');
  const viewer = await page.context().newPage();
  await viewer.setContent(html);
  // One bullet, the real point; the notes are at the end.
  await expect(viewer.locator('article > ul > li')).toHaveText(['a real point']);
  await expect(viewer.locator('section.footnotes li')).toHaveCount(2);
  await viewer.close();

  await page.getByTestId('export-note').click();
  const text = pdfText(await exportFile(page, 'pdf'));
  expect(text.match(/•/g)).toHaveLength(1);
  expect(text).toContain('Silberschatz, chapter 9.');

  await page.getByTestId('export-note').click();
  const docx = unzipSync(await readFile(await exportFile(page, 'docx')));
  const documentXml = new TextDecoder().decode(docx['word/document.xml']);
  expect(documentXml.match(/<w:numPr>/g)).toHaveLength(1);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the export options are labelled in Chinese', async ({ page }) => {
    await openApp(page);
    await createNote(page, '讲义', '正文');
    await page.getByTestId('export-note').click();
    const options = page.getByRole('group', { name: '导出选项' });
    await expect(options.getByRole('combobox', { name: '主题' })).toBeVisible();
    await expect(options.getByTestId('export-theme').locator('option[value="light"]')).toHaveText(
      '浅色（适合打印）',
    );
    await expect(options.getByRole('combobox', { name: '纸张（PDF、DOCX、打印）' })).toBeVisible();
    await expect(options.getByRole('checkbox', { name: '标题' })).toBeChecked();
    await expect(options.getByRole('checkbox', { name: '元数据（Front Matter）' })).not.toBeChecked();
  });
});
