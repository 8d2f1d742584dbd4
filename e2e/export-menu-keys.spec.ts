import { createNote, expect, openApp, test } from './fixtures';

test('the export menu works from the keyboard: Enter opens it on the first format, the arrows move, Escape returns', async ({
  page,
}) => {
  await openApp(page);
  await createNote(page, 'Handout', 'Some text');
  const button = page.getByTestId('export-note');
  await button.focus();
  await page.keyboard.press('Enter');

  const items = page.getByRole('menu').getByRole('menuitem');
  await expect(items.first()).toBeFocused();
  const count = await items.count();
  expect(count).toBeGreaterThan(1);
  await page.keyboard.press('ArrowDown');
  await expect(items.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(items.nth(count - 1)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(items.first()).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(items.nth(count - 1)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(items.first()).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
  await expect(button).toBeFocused();

  // Enter on a format exports it.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-format-html')).toBeFocused();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toBe('Handout.html');
});

test('closing the list of export warnings gives the keyboard back to the export button', async ({ page }) => {
  await openApp(page);
  // Five warnings: more than the toast names, so it offers the whole list.
  await createNote(
    page,
    'Figures',
    '![figure](https://example.com/figure.png)\n\n' +
      '```function-plot\ny = sin(x) | lable: sine | color: #12\ndomian: [0, 5]\nzoom: 2\n```\n',
  );
  const download = page.waitForEvent('download');
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  await download;
  const toast = page.getByTestId('toast').filter({ hasText: 'Figures.pdf' });
  await toast.getByRole('button', { name: 'Show all', exact: true }).click();
  const list = page.getByTestId('export-warnings');
  await expect(list).toBeFocused();

  await page.keyboard.press('Escape');
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('export-note')).toBeFocused();

  // The same after the close button.
  await page.getByTestId('export-note').click();
  await page.getByTestId('export-format-pdf').click();
  await toast.getByRole('button', { name: 'Show all', exact: true }).click();
  await list.getByRole('button', { name: 'Close' }).click();
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('export-note')).toBeFocused();
});
