import { createNote, expect, openApp, test } from './fixtures';
import { createMyNotesDataset } from './harness/benchmark-steps';

test.setTimeout(240_000);

test('runs a RAG benchmark from the report page, shows charts and cases, opens a failure and compares two runs', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await page.getByTestId('nav-benchmarks').click();
  await expect(page.getByTestId('bench-dataset')).toHaveValue('rag-core-v1');

  // First run: every mode, top 10.
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toBeVisible({ timeout: 120_000 });
  // A screen reader hears how the run ended, not only the progress bar vanishing.
  await expect(page.getByTestId('bench-announcement')).toHaveText('Benchmark run completed.');
  const first = await report.getAttribute('data-run-id');
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(3);
  await expect(page.getByTestId('bench-chart')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('bench-case-row')).toHaveCount(279 * 3);

  // The failed cases, filtered, and one opened.
  await page.getByTestId('bench-filter-mode').selectOption('vector');
  await page.getByTestId('bench-failed-only').check();
  const failed = page.getByTestId('bench-case-row');
  expect(await failed.count()).toBeGreaterThan(0);
  for (const passed of await failed.evaluateAll((rows) =>
    rows.map((row) => row.getAttribute('data-passed')),
  )) {
    expect(passed).toBe('false');
  }
  await failed.first().click();
  await expect(page.getByTestId('bench-case-detail')).toContainText('expected block not retrieved');

  // Second run with top 3: cases found at ranks 4 to 10 become misses.
  await page.getByTestId('bench-top-k').fill('3');
  await page.getByTestId('bench-run').click();
  await expect(report).not.toHaveAttribute('data-run-id', first!, { timeout: 120_000 });
  await expect(page.getByTestId('bench-chart')).toHaveAttribute('data-ready', 'true');
  // Both runs side by side, per mode.
  await expect(page.getByTestId('bench-side-row')).toHaveCount(6);
  await page.getByTestId('bench-compare').selectOption(first!);
  await expect(page.getByTestId('bench-compare-summary')).toBeVisible();
  const changes = await page
    .getByTestId('bench-compare-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-change')));
  expect(changes.length).toBeGreaterThan(0);
  expect(new Set(changes)).toEqual(new Set(['worse']));

  // Both runs are listed as completed, and the report exports.
  await expect(page.getByTestId('bench-run-item')).toHaveCount(2);
  const download = page.waitForEvent('download');
  await page.getByTestId('bench-export-csv').click();
  expect((await download).suggestedFilename()).toMatch(/^rag-core-v1-.*\.csv$/);
  expect(requestLog.foreign()).toEqual([]);
});

test('builds a two-case dataset from my own notes and compares the modes on it', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await createNote(
    page,
    'Deadlock notes',
    '# Deadlock\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n\nThe banker algorithm checks for a safe state before granting.\n',
  );
  await createNote(page, 'Paging notes', '# Paging\n\nA TLB caches recent page table entries.\n');

  await createMyNotesDataset(page, [
    {
      title: 'Deadlock notes',
      block: 'The banker algorithm checks for a safe state before granting.',
      question: 'banker algorithm safe state',
    },
    {
      title: 'Paging notes',
      block: 'A TLB caches recent page table entries.',
      question: 'what caches page table entries',
    },
  ]);

  await page.getByTestId('bench-run').click();
  await expect(page.getByTestId('bench-report')).toBeVisible();
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(3);
  await expect(page.getByTestId('bench-case-row')).toHaveCount(6);
  await page.getByTestId('bench-filter-mode').selectOption('fts');
  const fts = await page
    .getByTestId('bench-case-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-passed')));
  expect(fts).toEqual(['true', 'true']);

  // The notebook still holds exactly the two notes.
  await page.getByTestId('nav-all').click();
  await expect(page.getByTestId('note-item')).toHaveCount(2);
  expect(requestLog.foreign()).toEqual([]);
});
