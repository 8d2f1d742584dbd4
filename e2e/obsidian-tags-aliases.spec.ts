import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * An Obsidian vault whose notes tag themselves in their text (`#tag`) and
 * name their other names in `aliases:`: after the import the tag list shows
 * those tags, and `[[Alias]]` opens the note that has it.
 */

const vault = {
  'vault/Start page.md': '---\naliases: [Home, 首页]\n---\nWelcome. #project/alpha\n',
  'vault/Reading.md': [
    '---',
    'tags: [books]',
    '---',
    'Some text #project/alpha and #读书笔记',
    '',
    '# Heading is not a tag',
    '',
    'Code is not either: `#incode`',
    '',
    '```',
    '#infence',
    '```',
    '',
    'Back to [[Home]].',
    '',
  ].join('\n'),
  'vault/Other.md': 'Just #读书笔记 here. #draft\n',
};

const tag = (page: Page, name: string) => page.locator(`[data-testid="tag-item"][data-tag="${name}"]`);
const noteItem = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

test('inline #tags fill the tag list and its filter, and [[Alias]] opens the note with that alias', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(page, vault, 3);

  // Inline tags beside the front matter's, with their note counts; code and headings hold none.
  await expect(tag(page, 'project/alpha').locator('.count')).toHaveText('2');
  await expect(tag(page, '读书笔记').locator('.count')).toHaveText('2');
  await expect(tag(page, 'books').locator('.count')).toHaveText('1');
  await expect(tag(page, 'draft').locator('.count')).toHaveText('1');
  await expect(page.getByTestId('tag-item')).toHaveCount(4);

  // A tag filters the list to the notes that carry it in their text.
  await tag(page, '读书笔记').click();
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  await expect(noteItem(page, 'Reading')).toHaveCount(1);
  await expect(noteItem(page, 'Other')).toHaveCount(1);
  // Search within the tag: Start page also says "project", but has no #读书笔记.
  await page.getByTestId('search-input').fill('project');
  await expect(page.getByTestId('search-result-title')).toHaveText(['Reading']);
  await page.getByTestId('search-input').fill('');
  await tag(page, '读书笔记').click();
  await expect(page.getByTestId('note-item')).toHaveCount(3);

  // [[Home]] is Start page's alias: a resolved link that opens it, and a backlink there.
  await noteItem(page, 'Reading').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Reading');
  const home = page.getByTestId('preview').locator('a.wikilink', { hasText: 'Home' });
  await expect(home).toHaveAttribute('href', '#/wiki/Home');
  await expect(home).not.toHaveAttribute('data-missing');
  await home.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Start page');
  await expect(page.getByTestId('backlink').filter({ hasText: 'Reading' })).toHaveCount(1);
  await expect(page.getByTestId('confirm-accept')).toHaveCount(0);

  // The Chinese alias as an address opens the same note.
  await noteItem(page, 'Other').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Other');
  await page.goto(`/#/wiki/${encodeURIComponent('首页')}`);
  await expect(page.getByTestId('note-title')).toHaveValue('Start page');
  await expect(page.getByTestId('confirm-accept')).toHaveCount(0);

  // Taking a tag out of the text takes it out of the list once saved; the text is the user's.
  await noteItem(page, 'Other').click();
  const body = page.getByTestId('note-body');
  await expect(body).toHaveValue('Just #读书笔记 here. #draft\n');
  await body.fill('Just #读书笔记 here.\n');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(tag(page, 'draft')).toHaveCount(0);
  await expect(tag(page, '读书笔记').locator('.count')).toHaveText('2');
  await expect(page.getByTestId('tag-item')).toHaveCount(3);
  expect(requestLog.foreign()).toEqual([]);
});
