import type { Page } from '@playwright/test';
import { createNote, expect, openApp, test } from './fixtures';

/** Enough paragraphs that a heading after them starts out of view. */
const filler = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} before the part that matters.`).join(
  '\n\n',
);

/** A long note "Target" and a note "Source" linking to its second heading, open in the editor. */
async function targetAndSource(page: Page): Promise<void> {
  await openApp(page);
  await createNote(
    page,
    'Target',
    `# Target\n\n${filler}\n\n## Second heading\n\nThe part the link points at.`,
  );
  await createNote(page, 'Source', 'Read [[Target#Second heading]] first.');
}

test('an Obsidian heading link opens its note at the heading, is a backlink, and follows a rename', async ({
  page,
  requestLog,
}) => {
  await targetAndSource(page);

  const preview = page.getByTestId('preview');
  const link = preview.locator('a.wikilink', { hasText: 'Target > Second heading' });
  await link.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Target');
  await expect(preview.getByRole('heading', { name: 'Second heading' })).toBeInViewport();

  const backlink = page.getByTestId('backlink').filter({ hasText: 'Source' });
  await expect(backlink).toHaveCount(1);

  // Renaming Target rewrites the link in Source, keeping the heading.
  await page.getByTestId('note-title').fill('Renamed target');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();
  await backlink.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Source');
  await expect(page.getByTestId('note-body')).toHaveValue('Read [[Renamed target#Second heading]] first.');
  await expect(preview.locator('a.wikilink', { hasText: 'Renamed target > Second heading' })).toHaveAttribute(
    'href',
    '#/wiki/Renamed%20target%23Second%20heading',
  );
  expect(requestLog.foreign()).toEqual([]);
});

test('[[#Heading]] scrolls to a heading of the same note', async ({ page }) => {
  await openApp(page);
  await createNote(
    page,
    'Long note',
    `Jump to [[#Last part|the end]].\n\n${filler}\n\n## Last part\n\nThe end.`,
  );

  const preview = page.getByTestId('preview');
  const heading = preview.getByRole('heading', { name: 'Last part' });
  await expect(heading).not.toBeInViewport();
  await preview.locator('a.wikilink', { hasText: 'the end' }).click();
  await expect(heading).toBeInViewport();
  await expect(page.getByTestId('note-title')).toHaveValue('Long note');
  await expect(page.getByTestId('confirm-accept')).toHaveCount(0);
});

test('a heading link opened as an address in a new tab lands on the heading', async ({ page, context }) => {
  await targetAndSource(page);

  const href = await page
    .getByTestId('preview')
    .locator('a.wikilink', { hasText: 'Target > Second heading' })
    .getAttribute('href');
  expect(href).not.toBeNull();

  // What "Open in new tab" or a copied link does: the href alone, in a page of its own.
  const tab = await context.newPage();
  await tab.goto(`/${href}`);
  await expect(tab.getByTestId('note-title')).toHaveValue('Target');
  await expect(tab.getByTestId('preview').getByRole('heading', { name: 'Second heading' })).toBeInViewport();
  await expect(
    tab.getByTestId('preview').getByRole('heading', { name: 'Target', exact: true }),
  ).not.toBeInViewport();
});
