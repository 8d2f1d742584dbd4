import { createNote, expect, openApp, test } from './fixtures';

test('[[ completion offers a note by its alias and writes [[Title|alias]], a link that opens the note', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Start page', '---\naliases: [Home, 首页]\n---\nWelcome.');
  await createNote(page, 'Reading list', 'Back to ');

  const body = page.getByTestId('note-body');
  await body.press('Control+End');
  await body.pressSequentially('[[Ho');
  const option = page.getByTestId('wikilink-suggest').getByRole('option', {
    name: 'Home, another name for “Start page”',
  });
  await expect(option).toHaveText('Home → Start page');
  await option.click();
  await expect(body).toHaveValue('Back to [[Start page|Home]]');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // The link reads as the alias and resolves: not marked missing, and it opens the note.
  const link = page.getByTestId('preview').locator('a.wikilink', { hasText: 'Home' });
  await expect(link).toHaveAttribute('data-wikilink', 'Start page');
  await expect(link).not.toHaveAttribute('data-missing');
  await link.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Start page');
  await expect(page.getByTestId('confirm-accept')).toHaveCount(0);

  // The Chinese alias is offered too, by what is typed of it.
  await page.getByTestId('note-list').getByText('Reading list').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Reading list');
  await body.press('Control+End');
  await body.pressSequentially(' [[首');
  await expect(page.getByTestId('wikilink-option')).toHaveText(['首页 → Start page']);
  await body.press('Enter');
  await expect(body).toHaveValue('Back to [[Start page|Home]] [[Start page|首页]]');
  expect(requestLog.foreign()).toEqual([]);
});
