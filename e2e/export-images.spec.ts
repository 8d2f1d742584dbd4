import { execFileSync } from 'node:child_process';
import { expect, openApp, createNote, test } from './fixtures';

// 8 × 4 pixels of one red, as a note holds a pasted picture: a data: URL.
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAIAAAA8r+mnAAAAEUlEQVR4nGM4o6SEFTFQTwIAuf4iAWrHAc4AAAAASUVORK5CYII=';

test('a PDF shows the pictures the note holds instead of their alt text', async ({ page, requestLog }) => {
  await openApp(page);
  await createNote(
    page,
    '调度 figures',
    `# 调度图 Scheduling\n\n![甘特图 Gantt](${PNG})\n\nSee the chart above 见上图.\n`,
  );
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  const path = await (await download).path();
  // A clean export: no warning that the picture was left out.
  await expect(page.getByText('Exported 调度 figures.pdf', { exact: true })).toBeVisible();
  const images = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /^\s*1\s+\d+\s+image\s+8\s+4\s+rgb/.test(line));
  expect(images).toHaveLength(1);
  const text = execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' });
  expect(text).not.toContain('[甘特图 Gantt]');
  expect(text).toContain('See the chart above 见上图.');
  expect(requestLog.foreign()).toEqual([]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the warning about a picture from the web is in Chinese too', async ({ page }) => {
    await openApp(page);
    await createNote(page, '远程图片', '![示意图](https://example.com/figure.png)\n\n正文 text.\n');
    const download = page.waitForEvent('download');
    await page.getByTestId('export-note').click();
    await page.getByTestId('export-format-pdf').click();
    await download;
    await expect(
      page.getByText(
        '已导出 远程图片.pdf，有 1 条警告：PDF：链接到网络的图片以替代文字显示（导出不会下载图片）。',
        { exact: true },
      ),
    ).toBeVisible();
  });
});
