import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * Markdown links to notes (`[text](Old%20title.md)`, as Obsidian writes them
 * with wikilinks off) keep opening their note after it is renamed or moved,
 * written as they were: escaped, in angle brackets, with their folders and `#place`,
 * and so do reference definitions (`[old]: <Old title.md> "title"`); a link in code
 * (here a callout's code fence) is no link, stays as written and is no backlink.
 */
test.use({ viewport: { width: 1280, height: 800 } });

const item = (page: Page, text: string) => page.getByTestId('note-item').filter({ hasText: text });
const folder = (page: Page, path: string) =>
  page.locator(`[data-testid="folder-item"][data-folder="${path}"]`);

/** Index's text, its links naming the note `title` in `folder`, a reference definition among them. */
function indexBody(folder: string, title: string): string {
  const escaped = title.replaceAll(' ', '%20');
  return [
    `See [by name](${escaped}.md), [by path](${folder}/${escaped}.md#Part "tip") and [angled](<${folder}/${title}.md>).`,
    '',
    'Also [the reference][old].',
    '',
    `[old]: <${folder}/${title}.md> "The note"`,
  ].join('\n');
}
// Links in a callout's code fence are an example of the syntax: no links, and left as written.
const SNIPPETS = '> [!example] Link syntax\n> ```md\n> [by name](Old%20title.md) or [[Old title]]\n> ```';

const VAULT = {
  'Vault/Courses/Old title.md': '# Part\n\nRound robin gives each process a time slice.',
  'Vault/Archive/Kept.md': 'Kept for the archive.',
  'Vault/Index.md': indexBody('Courses', 'Old title'),
  'Vault/Snippets.md': SNIPPETS,
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
  await importVault(page, VAULT, 4);

  await item(page, 'Round robin').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Old title');
  await page.getByTestId('note-title').fill('New title');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();

  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(indexBody('Courses', 'New title'));
  await item(page, 'Snippets').click();
  await expect(page.getByTestId('note-body')).toHaveValue(SNIPPETS);
  for (const label of ['by name', 'by path', 'angled', 'the reference']) {
    await followLink(page, label);
    await expect(page.getByTestId('note-title')).toHaveValue('New title');
  }
  // Index links to the note; the snippets in code do not.
  await expect(page.getByTestId('backlink')).toHaveCount(1);
  await expect(page.getByTestId('backlink').filter({ hasText: 'Index' })).toHaveCount(1);
  expect(requestLog.foreign()).toEqual([]);
});

test('a moved note’s Markdown path links follow it to its new folder', async ({ page, requestLog }) => {
  await openApp(page);
  await importVault(page, VAULT, 4);

  const moved = item(page, 'Round robin');
  await moved.focus();
  await page.locator('.note-entry').filter({ has: moved }).getByTestId('note-move').click();
  await page.getByTestId('note-move-select').selectOption('Archive');
  await expect(folder(page, 'Archive')).toContainText('2');
  await expect(folder(page, 'Courses')).toHaveCount(0);

  await item(page, 'Index').click();
  await expect(page.getByTestId('note-body')).toHaveValue(indexBody('Archive', 'Old title'));
  for (const label of ['by name', 'by path', 'angled', 'the reference']) {
    await followLink(page, label);
    await expect(page.getByTestId('note-folder')).toHaveValue('Archive');
  }
  expect(requestLog.foreign()).toEqual([]);
});
