import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * An Obsidian vault's own Markdown after an import: comments stay private (not in the
 * preview, not in an HTML export), Markdown links to `.md` notes open the note in the
 * app, callouts are boxes, highlights are marked, block ids are hidden and a note
 * embed is a card, not "!" and a link.
 */

const vault = {
  'vault/Guide.md': [
    'Intro %%inline secret%% text with ==bright words== here ^blk10',
    '',
    '%%',
    'block secret line',
    '',
    'second block secret',
    '%%',
    '',
    'Code keeps `%%not a comment%%` as typed.',
    '',
    'See [md link](Note%2010.md) and [deep](Folder/Deep.md#Part%20Two).',
    '',
    '> [!note] Plain title',
    '> Callout body',
    '',
    '> [!warning]- Folded title',
    '> Folded body',
    '',
    '![[Note 10]]',
    '',
  ].join('\n'),
  'vault/Note 10.md': 'Ten.\n',
  'vault/Folder/Deep.md': '# Part One\n\nOne.\n\n# Part Two\n\nTwo.\n',
};

const noteItem = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

test('Obsidian comments, .md links, callouts, highlights, block ids and embeds read as in Obsidian', async ({
  page,
}) => {
  await openApp(page);
  await importVault(page, vault, 3);
  await noteItem(page, 'Guide').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Guide');
  const preview = page.getByTestId('preview');

  await expect(preview).toContainText('Intro');
  await expect(preview).not.toContainText('secret');
  await expect(preview.locator('code', { hasText: '%%not a comment%%' })).toHaveCount(1);
  await expect(preview.locator('mark')).toHaveText('bright words');
  await expect(preview).not.toContainText('^blk10');
  await expect(preview.locator('[data-block-id="blk10"]')).toHaveCount(1);

  const plain = preview.locator('.callout[data-callout="note"]');
  await expect(plain.locator('.callout-title')).toHaveText('Plain title');
  await expect(plain).toContainText('Callout body');
  const folded = preview.locator('details.callout[data-callout="warning"]');
  await expect(folded.locator('summary')).toHaveText('Folded title');
  await expect(folded).not.toHaveAttribute('open');
  await expect(folded.getByText('Folded body')).toBeHidden();
  await folded.locator('summary').click();
  await expect(folded.getByText('Folded body')).toBeVisible();
  await expect(preview).not.toContainText('[!');

  const embed = preview.locator('.note-embed a.wikilink');
  await expect(embed).toHaveText('Note 10');
  await expect(preview).not.toContainText('![[');
  await expect(preview).not.toContainText('!Note 10');

  // The HTML export has no comment either.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-html').click();
  const html = await readFile(await (await download).path(), 'utf8');
  expect(html).toContain('Intro');
  expect(html).not.toContain('secret');
  expect(html).toContain('%%not a comment%%');
  expect(html).not.toContain('[!note]');
  expect(html).not.toContain('^blk10');

  // A Markdown link to a note opens it in the app, not as a file from the server.
  const origin = new URL(page.url()).origin;
  await preview.locator('a', { hasText: 'md link' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Note 10');
  expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(`${origin}/`);

  await noteItem(page, 'Guide').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Guide');
  await preview.locator('a', { hasText: 'deep' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Deep');
  await expect(page.getByTestId('confirm-accept')).toHaveCount(0);
});
