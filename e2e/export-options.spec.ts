import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
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

/** Opens the options dialog from the export menu: the menu must be open. */
async function openOptions(page: Page): Promise<Locator> {
  await page.getByTestId('export-options-open').click();
  const dialog = page.getByRole('dialog', { name: 'Export with options' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Exports from the open options dialog with what it shows. */
async function exportFromDialog(dialog: Locator, format: 'html' | 'pdf' | 'docx'): Promise<string> {
  const download = dialog.page().waitForEvent('download');
  await dialog.getByTestId('export-dialog-format').selectOption(format);
  await dialog.getByTestId('export-dialog-run').click();
  await expect(dialog).toBeHidden();
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
  let options = await openOptions(page);
  await expect(options.getByTestId('export-theme')).toHaveValue('current');
  await options.getByTestId('export-theme').selectOption('light');
  await options.getByTestId('export-page-size').selectOption('Letter');
  await options.getByTestId('export-include-title').uncheck();
  await options.getByTestId('export-include-metadata').check();
  const pdf = await exportFromDialog(options, 'pdf');
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
  options = await openOptions(page);
  await expect(options.getByTestId('export-theme')).toHaveValue('light');
  await expect(options.getByTestId('export-page-size')).toHaveValue('Letter');
  await expect(options.getByTestId('export-include-title')).not.toBeChecked();
  await expect(options.getByTestId('export-include-metadata')).toBeChecked();
  const docx = unzipSync(await readFile(await exportFromDialog(options, 'docx')));
  const documentXml = new TextDecoder().decode(docx['word/document.xml']);
  expect(documentXml).toMatch(/<w:pgSz w:w="12240" w:h="15840"/);
  expect(documentXml).toContain('李雷');
  expect(documentXml).not.toContain('调度讲义');
  expect(requestLog.foreign()).toEqual([]);
});

test('the options dialog is used from the keyboard: focus goes in, Escape cancels and gives the keyboard back', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  const button = page.getByTestId('export-note');
  await button.focus();
  await page.keyboard.press('Enter');
  const opener = page.getByRole('menuitem', { name: 'Export with options…' });
  await expect(page.getByRole('menu').getByRole('menuitem').first()).toBeFocused();
  // Last in the menu while there are no recent files: after the formats, set apart from them.
  await page.keyboard.press('End');
  await expect(opener).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Export with options' });
  await expect(page.getByRole('menu')).toHaveCount(0);
  // The keyboard is in the dialog, on its first field, and Tab goes through the options.
  await expect(dialog.getByRole('combobox', { name: 'Format' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox', { name: 'Theme' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox', { name: 'Paper (PDF, DOCX, printing)' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('combobox', { name: 'Code colours' })).toBeFocused();
  await page.keyboard.press('Tab');
  const title = dialog.getByRole('checkbox', { name: 'Title' });
  await expect(title).toBeFocused();
  await page.keyboard.press('Space');
  await expect(title).not.toBeChecked();

  // Escape cancels: the dialog goes, the keyboard is back on the export button, nothing is kept.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Export with options…' }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Title' })).toBeChecked();

  // This time the title is left out and the PDF exported with Enter on Export.
  await dialog.getByRole('checkbox', { name: 'Title' }).uncheck();
  await dialog.getByRole('combobox', { name: 'Format' }).selectOption('pdf');
  const download = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Export', exact: true }).press('Enter');
  const text = pdfText(await (await download).path());
  expect(text).toContain('Some text');
  expect(text).not.toContain('Handout');
  await expect(dialog).toHaveCount(0);
  // Remembered for the formats the menu exports at once.
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem('notesagent.export-options')))
    .toContain('"include_title":false');
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`the options dialog fits the ${viewport.name} screen, and Cancel closes it without exporting`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await openApp(page);
    if (viewport.name === 'phone') {
      // A phone's bar has its own new-note button; the sidebar's is hidden.
      await page.getByTestId('topbar-new-note').click();
      await page.getByTestId('note-title').fill('Handout');
      await page.getByTestId('note-body').fill('Some text');
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
    } else {
      await createNote(page, 'Handout', 'Some text');
    }
    const button = page.getByTestId('export-note');
    await button.click();
    const dialog = await openOptions(page);
    // A modal dialog: the page behind is inert while it is open.
    await expect(dialog).toHaveJSProperty('open', true);
    expect(await dialog.evaluate((element) => element.matches(':modal'))).toBe(true);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    for (const control of [
      dialog.getByTestId('export-dialog-format'),
      dialog.getByTestId('export-theme'),
      dialog.getByTestId('export-page-size'),
      dialog.getByTestId('export-code-theme'),
      dialog.getByTestId('export-dialog-cancel'),
      dialog.getByTestId('export-dialog-run'),
    ]) {
      await expect(control).toBeInViewport({ ratio: 1 });
    }
    await dialog.getByTestId('export-page-size').selectOption('A5');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(button).toBeFocused();
    await expect(page.getByTestId('export-status')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('notesagent.export-options'))).toBeNull();
  });
}

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
    await page.getByRole('menuitem', { name: '按选项导出…' }).click();
    const dialog = page.getByRole('dialog', { name: '按选项导出' });
    await expect(dialog.getByRole('combobox', { name: '格式' })).toBeFocused();
    const options = dialog.getByRole('group', { name: '导出选项' });
    await expect(options.getByRole('combobox', { name: '主题' })).toBeVisible();
    await expect(options.getByTestId('export-theme').locator('option[value="light"]')).toHaveText(
      '浅色（适合打印）',
    );
    await expect(options.getByRole('combobox', { name: '纸张（PDF、DOCX、打印）' })).toBeVisible();
    await expect(options.getByRole('checkbox', { name: '标题' })).toBeChecked();
    await expect(options.getByRole('checkbox', { name: '元数据（Front Matter）' })).not.toBeChecked();
  });
});
