import { addScriptProvider } from './harness/agent-steps';
import { expect, openApp, test } from './fixtures';

test.setTimeout(240_000);

test('runs the agent benchmark on the demo and on a configured model, opens a failed case trace, and compares the models', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  const server = await scriptServer();
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-benchmarks').click();
  await page.getByTestId('bench-kind').selectOption('agent');
  await expect(page.getByTestId('bench-dataset')).toHaveValue('agent-core-v1');

  // First run: the offline demo, through the real agent runtime in the run's own database.
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Demo (scripted, offline)' });
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });
  const first = await report.getAttribute('data-run-id');
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(1);
  await expect(page.getByTestId('bench-metric-row')).toHaveAttribute('data-model', 'mock/mock-1');
  await expect(page.getByTestId('bench-chart')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('bench-case-row')).toHaveCount(5);

  // The failed cases, each with its reason; one opens its trace.
  await page.getByTestId('bench-failed-only').check();
  const failed = page.getByTestId('bench-case-row');
  await expect(failed).toHaveCount(4);
  await failed.filter({ hasText: 'agent-math-001' }).click();
  const detail = page.getByTestId('bench-case-detail');
  await expect(detail).toContainText('expected tools not called: math.evaluate');
  const events = detail.getByTestId('bench-trace-event');
  await expect(events.first()).toHaveAttribute('data-event', 'RunStarted');
  await expect(events.last()).toHaveAttribute('data-event', 'RunCompleted');
  await page.getByTestId('bench-failed-only').uncheck();

  // Second run: the configured OpenAI-compatible model.
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('bench-run').click();
  await expect(report).not.toHaveAttribute('data-run-id', first!, { timeout: 120_000 });
  await expect(page.getByTestId('bench-metric-row')).toHaveAttribute('data-model', 'custom/script-model');
  expect(server.bodies.length).toBeGreaterThan(0);

  // Both models side by side, charted, and compared case by case.
  await expect(page.getByTestId('bench-side-row')).toHaveCount(2);
  expect(
    await page.getByTestId('bench-side-row').evaluateAll((rows) => rows.map((row) => row.dataset.model)),
  ).toEqual(['mock/mock-1', 'custom/script-model']);
  await expect(page.getByTestId('bench-chart')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('bench-compare').selectOption(first!);
  await expect(page.getByTestId('bench-compare-summary')).toBeVisible();
  const changes = await page
    .getByTestId('bench-compare-row')
    .evaluateAll((rows) =>
      rows.map((row) => `${row.getAttribute('data-case')} ${row.getAttribute('data-change')}`),
    );
  // The configured model searches where the demo only answers: the search case now passes.
  expect(changes).toEqual(['agent-os-search-001 better']);
  await expect(page.getByTestId('bench-run-item')).toHaveCount(2);
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});
