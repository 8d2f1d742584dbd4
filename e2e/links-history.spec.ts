import { createNote, expect, openApp, test } from './fixtures';

test('wikilinks: complete with [[, open the note, backlinks, rename follows, missing note is created', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, 'Alpha', 'The first note.');
  await createNote(page, 'Beta', 'See ');

  const body = page.getByTestId('note-body');
  await body.press('End');
  await body.pressSequentially('[[Alp');
  const option = page.getByTestId('wikilink-option').filter({ hasText: 'Alpha' });
  await expect(option).toHaveCount(1);
  await body.press('Enter');
  await expect(body).toHaveValue('See [[Alpha]]');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');

  // The preview's link opens the linked note, which lists Beta among its backlinks.
  await page.getByTestId('preview').locator('a.wikilink', { hasText: 'Alpha' }).click();
  await expect(page.getByTestId('note-title')).toHaveValue('Alpha');
  const backlink = page.getByTestId('backlink').filter({ hasText: 'Beta' });
  await expect(backlink).toHaveCount(1);

  // Renaming Alpha rewrites the link in Beta.
  await page.getByTestId('note-title').fill('Alpha Prime');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await page.getByTestId('note-title').blur();
  await backlink.click();
  await expect(page.getByTestId('note-title')).toHaveValue('Beta');
  await expect(body).toHaveValue('See [[Alpha Prime]]');

  // The rewrite is in Beta's history as its own origin.
  await page.getByTestId('history-open').click();
  await expect(page.getByTestId('history-version').first()).toHaveAttribute('data-origin', 'rename');
  await page
    .getByTestId('history-dialog')
    .getByRole('button', { name: /close|关闭/i })
    .click();

  // A link to a note that does not exist offers to create it.
  await body.fill('See [[Alpha Prime]] and [[Gamma]]');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  // It looks missing before the click, and says what a click does; the other link does not.
  const gamma = page.getByTestId('preview').locator('a.wikilink', { hasText: 'Gamma' });
  await expect(gamma).toHaveAttribute('data-missing', '');
  await expect(gamma).toHaveAttribute(
    'title',
    'No note is called “Gamma” yet: follow the link (Enter) to create it.',
  );
  await expect(
    page.getByTestId('preview').locator('a.wikilink', { hasText: 'Alpha Prime' }),
  ).not.toHaveAttribute('data-missing');
  await gamma.click();
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Gamma');
  await expect(page.getByTestId('backlink').filter({ hasText: 'Beta' })).toHaveCount(1);
  // Alpha Prime, Beta and the new Gamma.
  await expect(page.getByTestId('note-item')).toHaveCount(3);
  expect(requestLog.foreign()).toEqual([]);
});

test('a wikilink opened as an address (a new tab, a bookmark) opens its note; an unknown title offers to create it', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(page, '中文笔记', 'See [[Math and diagrams]].');
  await createNote(page, 'Math and diagrams', 'The second note.');
  const chinese = page.getByTestId('note-item').filter({ hasText: '中文笔记' });
  const chineseId = await chinese.getAttribute('data-note-id');

  // Where the preview's link points, opened afresh (the last note open was another one).
  await chinese.click();
  const link = page.getByTestId('preview').locator('a.wikilink', { hasText: 'Math and diagrams' });
  const address = (await link.getAttribute('href'))!;
  expect(address).toBe('#/wiki/Math%20and%20diagrams');
  await page.goto(`/${address}`);
  await expect(page.getByTestId('note-title')).toHaveValue('Math and diagrams');
  const mathId = await page
    .locator('[data-testid="note-item"][aria-current="true"]')
    .getAttribute('data-note-id');
  // The lookup's address is replaced by the note's own.
  await expect(page).toHaveURL(new RegExp(`#/notes/${mathId}$`));

  // Typed into the address bar of the open app: the hash changes, the note opens.
  await page.evaluate(() => (location.hash = `#/wiki/${encodeURIComponent('中文笔记')}`));
  await expect(page.getByTestId('note-title')).toHaveValue('中文笔记');
  await expect(page).toHaveURL(new RegExp(`#/notes/${chineseId}$`));
  // Back goes to the note before, not to the lookup.
  await page.goBack();
  await expect(page.getByTestId('note-title')).toHaveValue('Math and diagrams');

  // A title no note has: the same offer a click on such a link makes.
  await page.goto(`/#/wiki/${encodeURIComponent('Missing topic')}`);
  await expect(page.getByRole('dialog').filter({ hasText: 'Missing topic' })).toBeVisible();
  await page.getByTestId('confirm-accept').click();
  await expect(page.getByTestId('note-title')).toHaveValue('Missing topic');
  await expect(page).toHaveURL(/#\/notes\/[^/?]+$/);
  await expect(page.getByTestId('note-item')).toHaveCount(3);
  expect(requestLog.foreign()).toEqual([]);
});

test('history: versions with origin, the diff, restore, and undoing the restore', async ({ page }) => {
  await openApp(page);
  await createNote(page, 'Journal', 'first line');
  const body = page.getByTestId('note-body');
  for (const text of ['second line', 'third line']) {
    await body.fill(text);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  }

  await page.getByTestId('history-open').click();
  const dialog = page.getByTestId('history-dialog');
  // Typing within a few minutes is one version: the note as it was before that
  // burst of edits, here the new, empty note.
  const versions = dialog.getByTestId('history-version');
  await expect(versions).toHaveCount(1);
  await expect(versions.first()).toHaveAttribute('data-origin', 'user');
  await versions.first().click();
  await expect(dialog.getByTestId('history-diff')).toContainText('+third line');
  await dialog.getByTestId('history-restore').click();
  await expect(body).toHaveValue('');
  await expect(page.getByTestId('note-title')).toHaveValue('');
  // The list shows the restored note, not the one it replaced.
  const row = page.locator('[data-testid="note-item"][aria-current="true"]');
  await expect(row).not.toContainText('Journal');

  // The restore is a version of its own, so it can be undone the same way.
  await expect(versions).toHaveCount(2);
  await expect(versions.first()).toHaveAttribute('data-origin', 'restore');
  await versions.first().click();
  await expect(dialog.getByTestId('history-diff')).toContainText('-third line');
  await dialog.getByTestId('history-restore').click();
  await expect(body).toHaveValue('third line');
  await expect(page.getByTestId('note-title')).toHaveValue('Journal');
  await expect(versions).toHaveCount(3);
  await expect(row).toContainText('Journal');
  await expect(row).toContainText('third line');
});
