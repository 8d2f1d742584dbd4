import { addScriptProvider } from './harness/agent-steps';
import { heldReplies } from './harness/openai-script-server';
import { expect, openApp, test } from './fixtures';

/**
 * A run that ends before any case finished has no report of its own. The report a
 * reader had on screen stays there, and the run list says how the new run ended;
 * opening that run on purpose says it has no metrics and why.
 */

test.setTimeout(240_000);

test('a run cancelled before any case finished keeps the last report on screen', async ({
  page,
  scriptServer,
}) => {
  // The configured model never answers while the test runs: no case of its run can finish.
  const held = heldReplies();
  const server = await scriptServer({ reply: held.reply });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-benchmarks').click();
  await page.getByTestId('bench-kind').selectOption('agent');

  await page.getByTestId('bench-agent-model').selectOption({ label: 'Demo (scripted, offline)' });
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });
  const first = await report.getAttribute('data-run-id');
  await expect(page.getByTestId('bench-case-row')).toHaveCount(5);

  await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('bench-run').click();
  const running = page.locator(`[data-testid="bench-run-item"]:not([data-run-id="${first}"])`);
  await expect(running).toHaveAttribute('data-status', 'running', { timeout: 120_000 });
  // The first case is waiting on the model: nothing of this run has finished.
  await expect.poll(() => server.bodies.length, { timeout: 120_000 }).toBeGreaterThan(0);
  await running.getByRole('button', { name: 'Cancel' }).click();
  await expect(running).toHaveAttribute('data-status', 'cancelled', { timeout: 120_000 });
  await expect(running.locator('.status')).toHaveText('Cancelled');

  // The reader still has the report they were reading, not an empty one.
  await expect(report).toHaveAttribute('data-run-id', first!);
  await expect(page.getByTestId('bench-case-row')).toHaveCount(5);
  await expect(page.getByTestId('bench-report-no-metrics')).toHaveCount(0);

  // Opening the cancelled run on purpose says it ended before any metric.
  await running.locator('button.link').click();
  await expect(report).not.toHaveAttribute('data-run-id', first!);
  await expect(page.getByTestId('bench-report-no-metrics')).toContainText('Cancelled');
  await expect(page.getByTestId('bench-case-row')).toHaveCount(0);
  await expect(page.getByTestId('bench-run-item')).toHaveCount(2);
  held.release();
});
