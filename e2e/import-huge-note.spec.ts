import { writeFile } from 'node:fs/promises';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { TestInfo } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { hugeNote, importZipFile, MIB } from './huge-notes';

const NORMAL_NOTES: Record<string, string> = {
  'vault/plans/Kernel.md':
    '---\ntitle: Kernel\n---\n# Kernel\n\nThe scheduler picks the next runnable thread.\n',
  'vault/Groceries.md': '---\ntitle: Groceries\n---\nOat milk, rice, and pork belly.\n',
  'vault/Reading.md': '---\ntitle: Reading\n---\nA history of the printing press.\n',
};

/** Written to a file: Playwright passes files over 50 MB by path only. */
async function vaultWithHugeNote(testInfo: TestInfo, mib: number): Promise<string> {
  const files: Zippable = { 'vault/Huge.md': [hugeNote(mib), { level: 0 }] };
  for (const [path, text] of Object.entries(NORMAL_NOTES)) files[path] = strToU8(text);
  const path = testInfo.outputPath('huge-vault.zip');
  await writeFile(path, zipSync(files));
  return path;
}

test('an archive with a 100 MB note is refused with PAYLOAD_TOO_LARGE naming the note and the limit; the notebook stays whole and searchable', async ({
  page,
  requestLog,
}, testInfo) => {
  test.setTimeout(360_000);
  await openApp(page);
  // The notebook already holds notes; the refused import must leave them as they are.
  await page.getByTestId('import-zip-input').setInputFiles({
    name: 'before.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(
      zipSync({
        'before/Kernel.md': strToU8(NORMAL_NOTES['vault/plans/Kernel.md']!),
      }),
    ),
  });
  await page.getByTestId('import-dialog').getByTestId('import-start').click();
  await expect(page.getByTestId('note-item')).toHaveCount(1);

  await importZipFile(page, await vaultWithHugeNote(testInfo, 100));
  const failed = page.getByTestId('job-item').filter({ hasText: 'vault/Huge.md is larger than 64 MiB' });
  await expect(failed).toHaveAttribute('data-status', 'failed', { timeout: 60_000 });
  await expect(failed.getByTestId('job-message')).toHaveAttribute('data-error-code', 'PAYLOAD_TOO_LARGE');

  // All or nothing: none of the archive's normal notes came in either, and a reload finds the notebook as it was.
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  await expect(page.getByTestId('note-item')).toHaveCount(1);
  await expect(page.getByTestId('note-item')).toContainText('Kernel');
  await page.getByTestId('search-input').fill('scheduler');
  await expect(page.getByTestId('search-result').first()).toContainText('Kernel');
  // The 100 MB upload is not kept as an invisible attachment.
  await page.goto('/#/settings/storage');
  await expect(page.locator('[data-testid="storage-kind"][data-kind="attachments"]')).toHaveAttribute(
    'data-count',
    '0',
  );
  expect(requestLog.foreign()).toEqual([]);
});

/**
 * A 16 MiB note: past the large-note threshold (256 Ki characters) and the
 * indexer's 2 MiB cap, well inside the import limit. It opens in the
 * large-note editor, which lays out only the lines in view.
 */
test('a 16 MB note imports with normal ones, the app reopens and lists them, the note opens in the large-note editor, search still finds a normal note', async ({
  page,
  requestLog,
}, testInfo) => {
  test.setTimeout(300_000);
  await openApp(page);
  await importZipFile(page, await vaultWithHugeNote(testInfo, 16));
  await expect(page.getByTestId('job-item').first()).toHaveAttribute('data-status', 'completed', {
    timeout: 120_000,
  });
  await expect(page.getByTestId('note-item')).toHaveCount(4);

  await page.reload();
  await expect(page.getByTestId('note-item')).toHaveCount(4, { timeout: 60_000 });
  await page.getByTestId('note-item').filter({ hasText: 'Huge' }).click();
  await expect(page.getByTestId('preview-off')).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('note-title')).toHaveValue('Huge');
  await expect(page.getByTestId('note-body-large')).toHaveAttribute('data-length', String(16 * MIB));

  await page.getByTestId('search-input').fill('scheduler');
  await expect(page.getByTestId('search-result').first()).toContainText('Kernel', { timeout: 60_000 });
  expect(requestLog.foreign()).toEqual([]);
});
