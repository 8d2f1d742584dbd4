import { expect, openApp, test } from './fixtures';
import { importNotes } from './harness/vault-import';

test.use({ viewport: { width: 1280, height: 800 } });

test('arrow keys move from the search box through the results, Enter opens one, Escape goes back to the box', async ({
  page,
}) => {
  await openApp(page);
  await importNotes(page, [
    ['集群 运维', 'We run the cluster on Kubernetes.'],
    ['Deploy guide', 'Kubernetes rollouts go one zone at a time.'],
    ['Groceries', 'Buy rice and cucumbers.'],
    ['Kubernetes glossary', 'Pods, nodes and services.'],
  ]);
  const box = page.getByTestId('search-input');
  await box.fill('kubernetes');
  const results = page.getByTestId('search-result');
  await expect(results).toHaveCount(3);
  const titles = await results.getByTestId('search-result-title').allInnerTexts();

  await box.press('ArrowDown');
  await expect(results.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(results.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(results.nth(2)).toBeFocused();
  // Past the last result the focus stays on it.
  await page.keyboard.press('ArrowDown');
  await expect(results.nth(2)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(results.nth(0)).toBeFocused();
  // Up from the first result is the box again, with the query as typed.
  await page.keyboard.press('ArrowUp');
  await expect(box).toBeFocused();
  await expect(box).toHaveValue('kubernetes');

  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(results.nth(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('note-title')).toHaveValue(titles[1]!);
  await expect(results.nth(1)).toHaveAttribute('aria-current', 'true');
  // The opened note's preview scrolls to the hit and takes the focus there, once it has rendered:
  // wait for that before going back to the results, or the reveal would take the focus from them.
  await expect(page.locator('[data-search-reveal]')).toBeFocused();

  // Escape on a result returns to the box and keeps the results; Escape in the box clears them.
  await results.nth(1).focus();
  await page.keyboard.press('Escape');
  await expect(box).toBeFocused();
  await expect(results).toHaveCount(3);
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('');
  await expect(page.getByTestId('note-item')).toHaveCount(4);
});

test('the next page of results is shown from its start, its first result focused', async ({ page }) => {
  await openApp(page);
  await importNotes(
    page,
    Array.from({ length: 45 }, (_, i): [string, string] => [
      `Service ${i}`,
      `Deploying service ${i} on kubernetes.`,
    ]),
  );
  await page.getByTestId('search-input').fill('kubernetes');
  await expect(page.getByTestId('search-page')).toHaveText('Page 1 of 3');
  const groups = page.getByTestId('search-group');
  await expect(groups).toHaveCount(20);
  const firstOfPage1 = await groups.first().getAttribute('data-note-id');

  // The pager is below twenty results: pressing Next scrolls the list down to it.
  await page.getByTestId('search-next').click();
  await expect(page.getByTestId('search-page')).toHaveText('Page 2 of 3');
  await expect(groups.first()).not.toHaveAttribute('data-note-id', firstOfPage1!);
  const first = page.getByTestId('search-result').first();
  await expect(first).toBeFocused();
  await expect(first).toBeInViewport();
  await expect(page.getByTestId('search-total')).toBeInViewport();
  // The page shown is said at the top too, not only in the pager below.
  await expect(page.getByTestId('search-page-top')).toHaveText('· Page 2 of 3');
  await expect(page.getByTestId('search-page-top')).toBeInViewport();

  // By keyboard to the last page: its Next button is disabled, and the focus is not lost with it.
  await page.getByTestId('search-next').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('search-page')).toHaveText('Page 3 of 3');
  await expect(groups).toHaveCount(5);
  await expect(page.getByTestId('search-next')).toBeDisabled();
  await expect(page.getByTestId('search-result').first()).toBeFocused();
  await expect(page.getByTestId('search-result').first()).toBeInViewport();
});
