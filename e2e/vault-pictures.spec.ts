import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVaultZip, importZip, pngOf } from './harness/vault-import';
import { shownWidth } from './picture-drops';

// A vault's pictures go with its notes: an Obsidian vault's `![[板书.png]]` comes in as a
// stored picture, a backup writes each picture beside the notes with a relative link any
// Markdown app follows, and that backup restores the notes with their pictures elsewhere.

/** Imports an export in a new browser profile (nothing stored yet) and waits for its one note. */
async function restoreElsewhere(
  browser: Browser,
  exported: Uint8Array,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await openApp(page);
  await importZip(page, 'notesagent-export.zip', exported);
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Import finished: 1 new, 0 updated, 0 skipped' }),
  ).toBeVisible();
  return { context, page };
}

test("an Obsidian vault's pictures come in with its notes, go out beside them in a backup, and come back from it", async ({
  page,
  browser,
}) => {
  await openApp(page);
  const board = await pngOf(page, 3, 2);
  const unused = await pngOf(page, 5, 1);
  await importVaultZip(page, {
    'vault/课程/第一讲.md': '板书如下：\n\n![[板书.png]]\n\n![照片](../assets/photo%20one.png)\n',
    'vault/assets/板书.png': board,
    'vault/assets/photo one.png': board,
    'vault/assets/unused.png': unused,
  });
  await expect(
    page.getByTestId('toast').filter({ hasText: '1 picture linked in the notes came with them.' }),
  ).toBeVisible();
  // The picture nothing links is still said to be left out, by name.
  // Nothing runs any more: the job panel is folded to its header until opened.
  await page.getByTestId('job-panel-toggle').click();
  const report = page.getByTestId('import-report');
  await report.locator('summary').click();
  await expect(report.getByTestId('import-report-entry')).toHaveText([/vault\/assets\/unused\.png/]);

  await page.getByTestId('note-item').filter({ hasText: '第一讲' }).click();
  const body = page.getByTestId('note-body');
  await expect(body).toHaveValue(
    /^板书如下：\n\n!\[板书\]\(attachment:(attachment_[0-9a-f]+)\)\n\n!\[照片\]\(attachment:\1\)\n$/,
  );
  await expect.poll(() => shownWidth(page, '板书')).toBe(3);
  await expect.poll(() => shownWidth(page, '照片')).toBe(3);

  // The backup: the picture once, beside the notes, under the name it came with (the
  // vault's two files are one picture, stored under the first name), linked by a relative path.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-all').click();
  const exported = new Uint8Array(await readFile(await (await download).path()));
  const files = unzipSync(exported);
  const pictures = Object.keys(files).filter((path) => path.startsWith('NotesAgent/attachments/'));
  expect(pictures).toEqual(['NotesAgent/attachments/板书.png']);
  expect([...files['NotesAgent/attachments/板书.png']!]).toEqual([...board]);
  const note = new TextDecoder().decode(files['NotesAgent/课程/第一讲.md']);
  expect(note).toContain(
    '板书如下：\n\n![板书](../attachments/板书.png)\n\n![照片](../attachments/板书.png)\n',
  );

  // Restored in another browser profile: the notes with their pictures.
  const { context: other, page: restored } = await restoreElsewhere(browser, exported);
  await restored.getByTestId('note-item').filter({ hasText: '第一讲' }).click();
  await expect(restored.getByTestId('note-body')).toHaveValue(
    /^板书如下：\n\n!\[板书\]\(attachment:(attachment_[0-9a-f]+)\)\n\n!\[照片\]\(attachment:\1\)\n/,
  );
  await expect.poll(() => shownWidth(restored, '板书')).toBe(3);
  await other.close();
});

test('a backup names pictures as they came, numbering a name another picture took, and restores each', async ({
  page,
  browser,
}) => {
  await openApp(page);
  await importVaultZip(page, {
    'vault/Trip.md': '![one](a/diagram.png)\n\n![two](b/Diagram.png)\n\n![[my shot.png|three]]\n',
    'vault/a/diagram.png': await pngOf(page, 2, 1),
    'vault/b/Diagram.png': await pngOf(page, 4, 1),
    'vault/c/my shot.png': await pngOf(page, 6, 1),
  });
  await expect(
    page.getByTestId('toast').filter({ hasText: '3 pictures linked in the notes came with them.' }),
  ).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('export-all').click();
  const exported = new Uint8Array(await readFile(await (await download).path()));
  const files = unzipSync(exported);
  // macOS and Windows take diagram.png and Diagram.png for one file: the second is numbered.
  expect(Object.keys(files).filter((path) => path.startsWith('NotesAgent/attachments/'))).toEqual([
    'NotesAgent/attachments/diagram.png',
    'NotesAgent/attachments/Diagram (2).png',
    'NotesAgent/attachments/my shot.png',
  ]);
  expect(new TextDecoder().decode(files['NotesAgent/Trip.md'])).toContain(
    '![one](attachments/diagram.png)\n\n![two](attachments/Diagram%20%282%29.png)\n\n![three](attachments/my%20shot.png)\n',
  );

  const { context: other, page: restored } = await restoreElsewhere(browser, exported);
  await restored.getByTestId('note-item').filter({ hasText: 'Trip' }).click();
  await expect.poll(() => shownWidth(restored, 'one')).toBe(2);
  await expect.poll(() => shownWidth(restored, 'two')).toBe(4);
  await expect.poll(() => shownWidth(restored, 'three')).toBe(6);
  await other.close();
});

test('"Import folder" brings the pictures the notes link, as a picked vault folder', async ({
  page,
}, testInfo) => {
  await openApp(page);
  const vault = testInfo.outputPath('我的库');
  await mkdir(join(vault, '课程'), { recursive: true });
  await mkdir(join(vault, 'assets'), { recursive: true });
  await writeFile(join(vault, '课程', '第二讲.md'), '![[图 1.png|流程图]]\n\n正文\n');
  await writeFile(join(vault, 'assets', '图 1.png'), await pngOf(page, 4, 3));
  await writeFile(join(vault, 'assets', 'other.png'), await pngOf(page, 1, 1));
  await page.getByTestId('import-folder-input').setInputFiles(vault);
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-start').click();
  await expect(
    page.getByTestId('toast').filter({ hasText: '1 picture linked in the notes came with them.' }),
  ).toBeVisible();
  await page.getByTestId('note-item').filter({ hasText: '第二讲' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    /^!\[流程图\]\(attachment:attachment_[0-9a-f]+\)\n\n正文\n$/,
  );
  await expect.poll(() => shownWidth(page, '流程图')).toBe(4);
});
