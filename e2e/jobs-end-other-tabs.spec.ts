import { strToU8, zipSync } from 'fflate';
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';
import { importZip, noteFile } from './harness/vault-import';

/*
 * Two tabs of one browser on one notebook: the user starts an import in tab A and goes on
 * to tab B. How it ended is said in tab B too, not only in the tab that ran it. (That each
 * tab says it once is the unit tests' to show: a toast shown again merges into the first.)
 */

/** Opens the app in a tab and waits for its first list: from then on it hears the other tabs. */
async function openTab(tab: Page): Promise<void> {
  await openApp(tab);
  await expect(tab.getByTestId('note-count')).toHaveAttribute('data-total', '0');
}

test('an import started in one tab says it finished in the other tab too', async ({
  context,
  page: tabA,
}) => {
  await openApp(tabA);
  const tabB = await context.newPage();
  await openTab(tabB);

  await tabA.bringToFront();
  const zip = zipSync({
    'vault/Scheduling.md': strToU8(noteFile('Scheduling', 'FCFS, SJF, RR.')),
    'vault/Paging.md': strToU8(noteFile('Paging', 'Pages and frames.')),
  });
  await importZip(tabA, 'course.zip', zip);
  const finished = 'Import finished: 2 new, 0 updated, 0 skipped';
  await expect(tabA.getByTestId('toast').filter({ hasText: finished })).toHaveCount(1);

  // The user has gone on to tab B: it says so there as well, beside the finished job and its notes.
  await tabB.bringToFront();
  await expect(tabB.getByTestId('toast').filter({ hasText: finished })).toHaveCount(1);
  await expect(tabB.getByTestId('job-panel').getByTestId('job-item')).toHaveAttribute(
    'data-status',
    'completed',
  );
  await expect(tabB.getByTestId('note-count')).toHaveAttribute('data-total', '2');
});

test('an import that fails in one tab says so in the other tab too', async ({ context, page: tabA }) => {
  await openApp(tabA);
  const tabB = await context.newPage();
  await openTab(tabB);

  await tabA.bringToFront();
  await importZip(tabA, 'broken.zip', strToU8('this is not a zip archive'));
  const failed = 'Import of broken.zip failed: This file is not a readable .zip archive.';
  await expect(tabA.getByTestId('toast').filter({ hasText: failed })).toHaveCount(1);

  await tabB.bringToFront();
  await expect(tabB.getByTestId('toast').filter({ hasText: failed })).toHaveCount(1);
  await expect(tabB.getByTestId('job-panel').getByTestId('job-item')).toHaveAttribute(
    'data-status',
    'failed',
  );
});
