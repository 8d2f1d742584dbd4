import { execFileSync } from 'node:child_process';
import type { Download, Page } from '@playwright/test';
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { createNote, expect, openApp, test } from './fixtures';

// A flowchart whose arrow has no target (the parser's "Expecting 'AMP', 'COLON', … got 'EOF'"),
// and a plot missing its closing bracket.
const BROKEN = '```mermaid\ngraph LR\n  A -->\n```\n\n```function-plot\ny = sin(x\n```\n';

/**
 * From the keyboard, so the pointer can rest on the toasts meanwhile: that holds every toast
 * (WCAG 2.2.1), and what is on screen after the last export does not depend on how long the
 * exports took.
 */
async function exportAs(page: Page, format: 'html' | 'pdf' | 'docx'): Promise<Download> {
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').press('Enter');
  await page.getByTestId(`export-format-${format}`).press('Enter');
  return download;
}

async function docxText(file: Download): Promise<string> {
  return (await mammoth.extractRawText({ path: await file.path() })).value;
}

async function pdfText(file: Download): Promise<string> {
  return execFileSync('pdftotext', [await file.path(), '-'], { encoding: 'utf8' });
}

/** Line breaks of the page layout, as one line. */
const flat = (text: string) => text.replace(/\s+/g, ' ');

test('three exports in a row leave one toast, the newest, saying in a sentence why the diagram is kept as source', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Lecture 3', `State space.\n\n${BROKEN}`);
  const exportToasts = page.getByTestId('toast').filter({ hasText: 'Exported Lecture 3' });

  await exportAs(page, 'html');
  await exportToasts.filter({ hasText: 'Lecture 3.html' }).hover();
  const pdf = await exportAs(page, 'pdf');
  await expect(exportToasts.filter({ hasText: 'Lecture 3.pdf' })).toBeVisible();
  await expect(exportToasts).toHaveCount(1);
  const docx = await exportAs(page, 'docx');
  const toast = exportToasts.filter({ hasText: 'Lecture 3.docx' });
  await expect(toast).toBeVisible();
  await expect(exportToasts).toHaveCount(1);
  await expect(toast).toContainText(
    'is kept as its source: This diagram has a syntax error on line 2: it ends where more was expected.',
  );
  await expect(toast).not.toContainText('Expecting');

  // The files say it too, in the note's language (English here), as the HTML export does.
  for (const text of [flat(await docxText(docx)), flat(await pdfText(pdf))]) {
    expect(text).toContain('This diagram has a syntax error on line 2: it ends where more was expected.');
    expect(text).toContain('Plot could not be drawn: Expected ")" but found the end of the expression.');
    expect(text).not.toContain('Expecting');
  }
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the export toast and the DOCX and PDF files say why in Chinese, without the parser tokens', async ({
    page,
  }) => {
    await openApp(page);
    await createNote(page, '控制理论 讲义', `状态空间。\n\n${BROKEN}`);
    const exportToasts = page.getByTestId('toast').filter({ hasText: '已导出 控制理论 讲义' });

    const docx = await exportAs(page, 'docx');
    await exportToasts.filter({ hasText: '讲义.docx' }).hover();
    const pdf = await exportAs(page, 'pdf');
    const toast = exportToasts.filter({ hasText: '讲义.pdf' });
    await expect(toast).toBeVisible();
    await expect(exportToasts).toHaveCount(1);
    await expect(toast).toContainText('保留为源码：此图表第 2 行有语法错误：内容不完整，后面还应有内容。');
    await expect(toast).not.toContainText('Expecting');

    for (const text of [await docxText(docx), await pdfText(pdf)]) {
      const joined = text.replace(/\s+/g, '');
      expect(joined).toContain('此图表第2行有语法错误：内容不完整，后面还应有内容。');
      expect(joined).toContain('函数图像无法绘制：末尾缺少“)”。');
      expect(joined).not.toContain('Expecting');
      expect(joined).not.toContain('Plotcouldnotbedrawn');
    }
  });

  test('the theme preview names its diagram in the UI language', async ({ page }) => {
    await openApp(page);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-nav-general').click();
    const settings = page.getByTestId('theme-settings');
    await settings.getByTestId('theme-import-zip').setInputFiles({
      name: 'paper-theme.zip',
      mimeType: 'application/zip',
      buffer: themePackage(),
    });
    const frame = page.frameLocator('[data-testid="theme-preview"]');
    await expect(frame.locator('.mermaid-block svg')).toHaveCount(1);
    await expect(frame.getByRole('group', { name: '图表', exact: true })).toHaveCount(1);
    await expect(frame.getByRole('group', { name: 'Diagram' })).toHaveCount(0);
  });
});

function themePackage(): Buffer {
  const encoder = new TextEncoder();
  const files = {
    'theme.yaml': encoder.encode(
      [
        'theme_id: paper',
        'name: Paper',
        'version: 1.0.0',
        'author: E2E',
        'description: Warm paper',
        'min_app_version: 0.1.0',
        'is_dark: false',
        'css_entry: css/theme.css',
      ].join('\n'),
    ),
    'css/theme.css': encoder.encode(':root { --color-bg: #fdf6e3; }\n'),
  };
  return Buffer.from(zipSync({ 'paper-theme': files }));
}
