import { createNote, expect, openApp, test, waitForServiceWorker } from './fixtures';

// Offline use needs the app's service worker, which other specs block (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

test('offline: the app opens from the service worker and notes can be edited and saved', async ({
  page,
  context,
  requestLog,
}) => {
  await openApp(page);
  await waitForServiceWorker(page);
  await createNote(page, 'Before offline', 'online text');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
  expect(controlled).toBe(true);

  await page.getByTestId('note-item').filter({ hasText: 'Before offline' }).click();
  await page.getByTestId('note-body').fill('edited while offline');
  await page.getByTestId('note-body').press('Control+s');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await createNote(page, 'Written offline', '离线也能写');

  await page.reload();
  await page.getByTestId('note-item').filter({ hasText: 'Before offline' }).click();
  await expect(page.getByTestId('note-body')).toHaveValue('edited while offline');
  await expect(page.getByTestId('note-item').filter({ hasText: 'Written offline' })).toHaveCount(1);

  // At start and while editing, nothing left for another origin.
  expect(requestLog.foreign()).toEqual([]);
  expect(requestLog.urls.length).toBeGreaterThan(0);
});
