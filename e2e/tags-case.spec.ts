import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importVault } from './harness/vault-import';

/**
 * Obsidian counts tags without regard to case: `#Project` in one note's text
 * and `tags: [project]` in another's front matter are one tag, in the tag
 * list, its filter and search within it. Each note keeps its own spelling.
 */

const vault = {
  'vault/Inline.md': 'Launch plan for the spring. #Project\n',
  'vault/Own.md': '---\ntags: [project]\n---\nLaunch checklist.\n',
  'vault/Unrelated.md': 'Launch of a rocket, no tags.\n',
};

const noteItem = (page: Page, title: string) => page.getByTestId('note-item').filter({ hasText: title });

test('#Project and tags: [project] are one tag: one row counting 2, its filter and search find both', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await importVault(page, vault, 3);

  const tags = page.getByTestId('tag-item');
  await expect(tags).toHaveCount(1);
  await expect(tags.locator('.label')).toHaveText(/^project$/i);
  await expect(tags.locator('.count')).toHaveText('2');

  await tags.click();
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  await expect(noteItem(page, 'Inline')).toHaveCount(1);
  await expect(noteItem(page, 'Own')).toHaveCount(1);

  // Search within the tag finds both spellings' notes, and not the untagged one.
  await page.getByTestId('search-input').fill('launch');
  const results = page.getByTestId('search-result-title');
  await expect(results).toHaveCount(2);
  await expect(results.filter({ hasText: 'Inline' })).toHaveCount(1);
  await expect(results.filter({ hasText: 'Own' })).toHaveCount(1);
  await page.getByTestId('search-input').fill('');

  // A third spelling typed in a note joins the same tag; the text stays as typed.
  await tags.click();
  await expect(page.getByTestId('note-item')).toHaveCount(3);
  await noteItem(page, 'Unrelated').click();
  const body = page.getByTestId('note-body');
  await body.fill('Launch of a rocket. #PROJECT\n');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(tags.locator('.count')).toHaveText('3');
  await expect(tags).toHaveCount(1);
  await expect(body).toHaveValue('Launch of a rocket. #PROJECT\n');
  expect(requestLog.foreign()).toEqual([]);
});

test('a note row shows its inline #tags beside its own, as the tag list counts them', async ({ page }) => {
  await openApp(page);
  await importVault(
    page,
    {
      'vault/Probability.md': '---\ntags: [math]\n---\nBayes rule, revised. #exam-week #Math\n',
      'vault/Essay.md': 'Essay plan. #english\n',
    },
    2,
  );
  // Own tags first, then the inline ones, one per spelling (#Math is the tag math).
  await expect(noteItem(page, 'Probability').locator('.tag')).toHaveText(['#math', '#exam-week']);
  await expect(noteItem(page, 'Essay').locator('.tag')).toHaveText(['#english']);
});
