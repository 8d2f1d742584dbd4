import { open } from 'node:fs/promises';
import { Zip, ZipDeflate, strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { noteFile } from './harness/vault-import';

/**
 * An Obsidian-like vault as a Chinese-speaking user imports it on a phone:
 * every message in Chinese, every renamed or repaired file named, focus kept.
 */

/**
 * A zip that may hold two entries of one name (an object of paths cannot), as
 * zips made by hand or by merging folders do. Helper local to this spec.
 */
function zipOf(entries: ReadonlyArray<readonly [string, Uint8Array]>): Buffer {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  for (const [path, data] of entries) {
    const file = new ZipDeflate(path);
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

/** Picks a zip and starts its import with the default choice (skip). Helper local to this spec. */
async function pickZip(page: Page, name: string, buffer: Buffer): Promise<void> {
  await page.getByTestId('import-zip-input').setInputFiles({ name, mimeType: 'application/zip', buffer });
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-start').click();
  await expect(dialog).toBeHidden();
}

const notUtf8 = new Uint8Array([...strToU8(noteFile('乱码笔记', '正文 ')), 0xff, 0xfe, 0x0a]);

const vault = zipOf([
  ['我的库/日记/2026-01-01 新年.md', strToU8('---\ntitle: 新年计划\nauthor: 张三\n---\n# 新年\n')],
  ['我的库/读书/重复.md', strToU8('# 第一份\n')],
  ['我的库/读书/重复.md', strToU8('# 第二份\n')],
  ['我的库/../逃逸.md', strToU8('# 逃逸\n')],
  ['我的库/读书/乱码.md', notUtf8],
]);

/** Latin words of three or more letters: English left in the Chinese interface. */
const ENGLISH_WORDS = /\b(?!zip\b|md\b|MiB\b|Obsidian\b|Markdown\b|UTF\b)[A-Za-z]{3,}\b/;

test.describe('vault import in Chinese on a phone', () => {
  test.use({ locale: 'zh-CN', viewport: { width: 390, height: 844 } });

  test('the import report lists every renamed or repaired file in Chinese, and the toast points to it', async ({
    page,
  }) => {
    await openApp(page);
    await page
      .getByTestId('import-zip-input')
      .setInputFiles({ name: '我的库.zip', mimeType: 'application/zip', buffer: vault });
    const dialog = page.getByTestId('import-dialog');
    // What will not come across is said before the import starts.
    await expect(dialog).toContainText(
      '导入 Markdown（.md）笔记及其中引用的图片（PNG、JPEG、GIF、WebP）；PDF、未被笔记引用的图片和其他文件不会导入。',
    );
    await dialog.getByTestId('import-start').click();
    await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', '5');
    await expect(
      page.getByTestId('toast').filter({
        hasText:
          '导入完成：新增 5 篇，更新 0 篇，跳过 0 篇。有 3 个文件被重命名、修复或未导入：详见“后台任务”中的导入报告。',
      }),
    ).toBeVisible();

    const job = page.getByTestId('job-item').filter({ hasText: '我的库.zip' });
    await expect(job).toHaveAttribute('data-status', 'completed');
    // Nothing runs any more: the job panel is folded to its header until opened.
    await page.getByTestId('job-panel-toggle').click();
    const report = job.getByTestId('import-report');
    await report.locator('summary').click();
    await expect(report.locator('summary')).toHaveText('导入报告（3 项）');
    await expect(report.getByTestId('import-report-entry')).toHaveText([
      '我的库/读书/重复.md → 我的库/读书/重复 (2).md 与另一个文件同名，已重命名',
      '我的库/../逃逸.md → 我的库/逃逸.md 路径指向压缩包之外（“..”），已移入压缩包内',
      '我的库/读书/乱码.md 不是 UTF-8 文本，无法识别的字符已替换为 �',
    ]);
    // Long Chinese paths wrap inside the phone's width.
    const overflow = await report.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('pictures and PDFs left out are named in the report; the vault app’s own settings are not', async ({
    page,
  }) => {
    await openApp(page);
    const withPictures = zipOf([
      ['课程/操作系统.md', strToU8('# 操作系统\n\n![[images/调度.png]]\n')],
      ['课程/images/调度.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47])],
      ['课程/讲义.pdf', strToU8('%PDF-1.4')],
      ['课程/.obsidian/app.json', strToU8('{}')],
    ]);
    await pickZip(page, '课程.zip', withPictures);
    await expect(
      page.getByTestId('toast').filter({
        hasText:
          '导入完成：新增 1 篇，更新 0 篇，跳过 0 篇。有 2 个文件被重命名、修复或未导入：详见“后台任务”中的导入报告。',
      }),
    ).toBeVisible();
    await page.getByTestId('job-panel-toggle').click();
    const report = page.getByTestId('job-item').filter({ hasText: '课程.zip' }).getByTestId('import-report');
    await report.locator('summary').click();
    await expect(report.getByTestId('import-report-entry')).toHaveText([
      '课程/images/调度.png 不是 Markdown 笔记（图片或其他附件），未导入',
      '课程/讲义.pdf 不是 Markdown 笔记（图片或其他附件），未导入',
    ]);
  });

  test('a refused archive says why in Chinese, names the entry and says what to do, in the toast and the job', async ({
    page,
  }) => {
    await openApp(page);
    // 30 MiB of one letter packs to about 30 KiB: over the 1000:1 ratio, as zip bombs are.
    const bomb = Buffer.from(
      zipSync({ 'b/炸弹.md': new Uint8Array(30 * 1024 * 1024).fill(97) }, { level: 9 }),
    );
    await pickZip(page, '炸弹.zip', bomb);
    const job = page.getByTestId('job-item').filter({ hasText: '炸弹.zip' });
    await expect(job).toHaveAttribute('data-status', 'failed');
    const message = job.getByTestId('job-message');
    await expect(message).toHaveAttribute('data-error-code', 'PAYLOAD_TOO_LARGE');
    await expect(message).toContainText('“b/炸弹.md”解压后超过压缩大小的 1000 倍');
    await expect(job.getByTestId('job-next')).toHaveText(
      '如果这是正常的笔记，请不用“最大压缩”重新压缩后再导入。',
    );
    await expect(
      page
        .getByTestId('toast')
        .filter({ hasText: '导入 炸弹.zip 失败：“b/炸弹.md”解压后超过压缩大小的 1000 倍' }),
    ).toBeVisible();

    await pickZip(page, '不是压缩包.zip', Buffer.from('这不是 zip 文件'));
    const notZip = page.getByTestId('job-item').filter({ hasText: '不是压缩包.zip' });
    await expect(notZip).toHaveAttribute('data-status', 'failed');
    await expect(notZip.getByTestId('job-message')).toContainText('该文件不是可读取的 .zip 压缩包。');
    await expect(notZip.getByTestId('job-next')).toContainText('导入文件夹');

    // A real zip holding only images is not "no zip": it has no notes.
    await pickZip(page, '图片.zip', Buffer.from(zipSync({ '库/封面.png': new Uint8Array([0x89, 0x50]) })));
    const images = page.getByTestId('job-item').filter({ hasText: '图片.zip' });
    await expect(images).toHaveAttribute('data-status', 'failed');
    await expect(images.getByTestId('job-message')).toContainText('压缩包中没有 Markdown（.md）笔记。');

    // No English from the core, no leftover byte counter, nothing cut off on the phone.
    const panel = page.getByTestId('job-panel');
    await expect(panel).not.toContainText(/B \/ \d/);
    for (const text of await panel.getByTestId('job-message').allInnerTexts()) {
      expect(text).not.toMatch(ENGLISH_WORDS);
    }
    for (const cut of await panel
      .getByTestId('job-message')
      .evaluateAll((elements) => elements.map((element) => element.scrollWidth - element.clientWidth))) {
      expect(cut).toBeLessThanOrEqual(0);
    }
  });

  test('a zip over the size limit is refused naming the file, its size and the limit, in Chinese', async ({
    page,
  }, testInfo) => {
    await openApp(page);
    // A sparse file: 513 MiB on paper, nothing on disk; the size alone refuses it.
    const path = testInfo.outputPath('超大库.zip');
    const handle = await open(path, 'w');
    await handle.truncate(513 * 1024 * 1024);
    await handle.close();
    await page.getByTestId('import-zip-input').setInputFiles(path);
    await page.getByTestId('import-dialog').getByTestId('import-start').click();
    const toast = page.getByTestId('toast').filter({ hasText: '超大库.zip' });
    await expect(toast).toHaveText(
      '导入 超大库.zip 失败：该文件有 513 MiB，超过了压缩包 512 MiB 的上限。请把库分成几个较小的压缩包，逐个导入。',
    );
    await expect(toast).toHaveAttribute('data-code', 'PAYLOAD_TOO_LARGE');
  });

  test('starting an import keeps the focus on the button that opened it', async ({ page }) => {
    await openApp(page);
    const menu = page.getByRole('button', { name: '打开菜单' });
    if ((await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
    const button = page.getByRole('button', { name: '导入 .zip' });
    const chooser = page.waitForEvent('filechooser');
    await button.click();
    await (await chooser).setFiles({ name: '我的库.zip', mimeType: 'application/zip', buffer: vault });
    const dialog = page.getByTestId('import-dialog');
    await dialog.getByTestId('import-start').click();
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
    await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', '5');
    await expect(button).toBeFocused();
  });

  test('the import’s toast sits above the job panel, not over its buttons', async ({ page }) => {
    await openApp(page);
    await pickZip(page, '我的库.zip', vault);
    const toast = page.getByTestId('toast').filter({ hasText: '导入完成' });
    await expect(toast).toBeVisible();
    const panel = page.getByTestId('job-panel');
    await expect(panel.getByTestId('job-item')).toHaveAttribute('data-status', 'completed');
    const toastBox = await toast.boundingBox();
    const panelBox = await panel.boundingBox();
    expect(toastBox).not.toBeNull();
    expect(panelBox).not.toBeNull();
    expect(toastBox!.y + toastBox!.height).toBeLessThanOrEqual(panelBox!.y);
  });

  test('a cancelled import says in Chinese that nothing was imported', async ({ page }) => {
    await openApp(page);
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 500; i++) {
      files[`大库/文件夹${i % 7}/笔记${i}.md`] = strToU8(noteFile(`大库 ${i}`, '内容 '.repeat(400)));
    }
    await pickZip(page, '大库.zip', Buffer.from(zipSync(files)));
    const job = page.getByTestId('job-item').filter({ hasText: '大库.zip' });
    await expect(job.getByTestId('job-progress')).toHaveAttribute('data-percent', /^(?!0$)\d/, {
      timeout: 60_000,
    });
    await job.getByTestId('job-cancel').click();
    await expect(job).toHaveAttribute('data-status', 'cancelled');
    await expect(
      page.getByTestId('toast').filter({ hasText: '已取消导入 大库.zip，没有导入任何内容。' }),
    ).toBeVisible();
    await expect(page.getByTestId('note-count')).toHaveAttribute('data-total', '0');
  });
});
