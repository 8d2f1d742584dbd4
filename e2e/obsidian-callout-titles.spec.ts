import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { switchLanguage } from './harness/language-steps';
import { createNote, expect, openApp, test } from './fixtures';

// A callout written without a title reads, as in Obsidian, by its kind; in the Chinese app a
// kind Obsidian knows reads in Chinese, in the preview and in the exports alike, and a kind of
// the writer's own keeps its name.

const BODY = '> [!tip]\n> 先复习第一章。\n\n> [!warning]- 自己写的标题\n> 正文\n\n> [!recipe]\n> 步骤\n';

async function exported(page: Page, format: 'pdf' | 'docx'): Promise<Buffer> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId(`export-format-${format}`).click();
  const bytes = await readFile(await (await download).path());
  await expect(page.getByTestId('export-status')).toHaveCount(0);
  return bytes;
}

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('untitled callouts read in Chinese in the preview, the PDF and the DOCX, and in English after a switch', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, '复习提纲', BODY);
    const titles = page.getByTestId('preview').locator('.callout-title');
    await expect(titles).toHaveText(['提示', '自己写的标题', 'Recipe']);

    const text = execFileSync('pdftotext', ['-', '-'], {
      input: await exported(page, 'pdf'),
      encoding: 'utf8',
    });
    expect(text).toMatch(/提示[\s\S]*先复习第一章。[\s\S]*自己写的标题[\s\S]*Recipe[\s\S]*步骤/);
    expect(text).not.toContain('Tip');

    const docx = new TextDecoder().decode(
      unzipSync(new Uint8Array(await exported(page, 'docx')))['word/document.xml'],
    );
    expect(docx).toContain('>提示<');
    expect(docx).toContain('>Recipe<');
    expect(docx).not.toContain('>Tip<');

    // The note stays open while the language changes: its untitled callouts follow at once.
    await switchLanguage(page, 'en');
    await expect(titles).toHaveText(['Tip', '自己写的标题', 'Recipe']);
  });
});
