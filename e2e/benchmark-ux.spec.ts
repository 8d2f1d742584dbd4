import { expect, openApp, test } from './fixtures';

/**
 * The Benchmarks page as a reader meets it after an agent run: one page heading,
 * no search mode or embedding model where an agent run has none, a failed case
 * that says it failed (its run completed, its check did not pass), and case
 * buttons that point at the detail only while there is one.
 */

test.setTimeout(240_000);

test('an agent report shows only what applies, and a failed case says it failed', async ({ page }) => {
  await openApp(page);
  await page.getByTestId('nav-benchmarks').click();
  const view = page.getByTestId('benchmarks-view');
  await expect(view).toHaveAttribute('data-ready', 'true');
  await expect(view.getByRole('heading', { level: 1 })).toHaveText('Benchmarks');

  await page.getByTestId('bench-kind').selectOption('agent');
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Demo (scripted, offline)' });
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });
  await expect(page.getByTestId('bench-case-row')).toHaveCount(5);

  // An agent run searches no index: no mode column, no embedding model.
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(1);
  expect(await page.getByTestId('bench-metric').locator('th').allTextContents()).not.toContain('Mode');
  await expect(page.getByTestId('bench-config-concurrency')).not.toContainText('embeddings');

  // No case button points at a detail that is not there.
  const pointing = page.locator('[data-testid="bench-case-row"] button[aria-controls]');
  await expect(pointing).toHaveCount(0);

  await page.getByTestId('bench-case-row').filter({ hasText: 'agent-math-001' }).click();
  const detail = page.getByTestId('bench-case-detail');
  await expect(detail.getByRole('heading', { level: 3 })).toHaveText(
    'agent-math-001 · Failed: the run completed, but its check did not pass',
  );
  await expect(detail).toContainText('expected tools not called: math.evaluate');
  // Now there is a detail, every case button controls it.
  await expect(pointing).toHaveCount(5);
  await expect(page.locator('#bench-case-detail')).toHaveCount(1);
});
