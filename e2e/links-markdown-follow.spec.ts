import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * Markdown links to notes (`[text](Old%20title.md)`, as Obsidian writes them
 * with wikilinks off) keep opening their note after it is renamed or moved,
 * written as they were: escaped, in angle brackets, with their folders and `#place`.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const item = (page: Page, text: string) => page.getByTestId('note-item').filter({ hasText: text });
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

const VAULT = {
  'Vault/Courses/Old title.md': '# Part\n\nRound robin gives each process a time slice.',
  'Vault/Archive/Kept.md': 'Kept for the archive.',
  'Vault/Index.md':
    'See [by name](Old%20title.md), [by path](Courses/Old%20title.md#Part "tip") and [angled](<Courses/Old title.md>).',
};

/** Opens Index and follows its link `label`: not missing, and opening the note about round robin. */
async function followLink(page: Page, label: string): Promise<void> {
  await item(page, 'Index').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Index');
  const link = page.getByTestId('preview').locator('a', { hasText: label });
  await expect(link).not.toHaveAttribute('data-missing');
  await link.click();
  await expect(page.getByTestId('note-body')).toHaveValue(/Round robin/);
  await expect(page.getByTestId('confirm-accept')).toBeHidden();
}

test('a renamed note’s Markdown links in other notes follow the new name', async ({ page, requestLog }) => {
  await openApp(page);
  await importVault(page, VAULT, 3);

  await item(page, 'Round robin').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Old title');
  await page.getByTestId('note-title').fill('New title');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();

  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    'See [by name](New%20title.md), [by path](Courses/New%20title.md#Part "tip") and [angled](<Courses/New title.md>).',
  );
  for (const label of ['by name', 'by path', 'angled']) {
    await followLink(page, label);
    await expect(page.getByTestId('note-title')).toHaveValue('New title');
  }
  await expect(page.getByTestId('backlink').filter({ hasText: 'Index' })).toHaveCount(1);
  expect(requestLog.foreign()).toEqual([]);
});

test('a moved note’s Markdown path links follow it to its new folder', async ({ page, requestLog }) => {
  await openApp(page);
  await importVault(page, VAULT, 3);

  const moved = item(page, 'Round robin');
  await moved.focus();
  await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
  await page.getByTestId('note-move-select').selectOption('Archive');
  await expect(folder(page, 'Archive')).toContainText('2');
  await expect(folder(page, 'Courses')).toHaveCount(0);

  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    'See [by name](Old%20title.md), [by path](Archive/Old%20title.md#Part "tip") and [angled](<Archive/Old title.md>).',
  );
  for (const label of ['by name', 'by path', 'angled']) {
    await followLink(page, label);
    await expect(page.getByTestId('note-folder')).toHaveValue('Archive');
  }
  expect(requestLog.foreign()).toEqual([]);
});
