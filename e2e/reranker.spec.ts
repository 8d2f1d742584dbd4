import type { Page } from '@playwright/test';
import { buildTinyCrossEncoder, vocabularyFromTexts } from '../src/retrieval/__fixtures__/tiny-model';
import { createNote, expect, openApp, test } from './fixtures';
import { MODEL_HOST, routeModelHost, serveTinyModel, useModelHost } from './harness/model-host';

/**
 * Turning the cross-encoder reranker on in the app, through the real loading
 * code: the embed worker's transformers.js downloads it from the configured
 * model host (answered here by a tiny cross-encoder the test generates, under
 * the catalog id of MS MARCO MiniLM) and reranks search results with it.
 */

const MODEL_ID = 'Xenova/ms-marco-MiniLM-L-6-v2';

// Full-text search puts "Pools" first for the query (the one block with the rare
// "thread"); the tiny cross-encoder prefers "Locks", whose words are nearly all
// query words.
const NOTES = [
  { title: 'Pools', body: 'thread: green tea wants water below boiling' },
  { title: 'Locks', body: 'wait cycle' },
  { title: 'Seasons', body: 'the cycle of seasons and green tea' },
  { title: 'Rain', body: 'the water cycle below the clouds' },
];
const QUERY = 'thread cycle';

const files = buildTinyCrossEncoder({
  vocabulary: vocabularyFromTexts(NOTES.map((note) => `${note.title} ${note.body}`)),
});

const serveModel = serveTinyModel(MODEL_ID, files);

async function searchFor(page: Page, query: string): Promise<void> {
  await page.getByTestId('search-mode').selectOption('fts');
  await page.getByTestId('search-input').fill('');
  await page.getByTestId('search-input').fill(query);
}

test('choosing a reranker downloads it with progress, and search results are then reranked by it', async ({
  page,
  context,
  requestLog,
}) => {
  // A model download and a reload that loads it again from the cache.
  test.setTimeout(180_000);
  const { requests: modelRequests } = await routeModelHost(context, serveModel);

  await openApp(page);
  for (const note of NOTES) await createNote(page, note.title, note.body);

  // Off by default: full-text order, no marker.
  await searchFor(page, QUERY);
  const results = page.getByTestId('search-result');
  await expect(results.first()).toContainText('Pools');
  await expect(results).toHaveCount(4);
  await expect(page.getByTestId('search-reranked')).toHaveCount(0);

  await page.getByTestId('open-settings').click();
  await useModelHost(page, MODEL_HOST);
  const settings = page.getByTestId('settings-page-search');
  const picker = settings.getByTestId('reranker-settings');
  await expect(picker.getByTestId('reranker-model')).toHaveValue('');
  await expect(picker.getByTestId('reranker-use')).toBeDisabled();
  await picker.getByTestId('reranker-model').selectOption(MODEL_ID);
  await expect(picker.getByTestId('reranker-model')).toContainText('about 23 MB');
  await picker.getByTestId('reranker-use').click();

  const download = picker.getByTestId('reranker-download-job').getByTestId('job-item');
  await expect(download).toHaveAttribute('data-status', 'completed', { timeout: 45_000 });
  await expect(download.getByTestId('job-progress')).toHaveAttribute('data-percent', '100');
  await expect(picker.getByTestId('reranker-use')).toHaveAttribute('data-in-use', MODEL_ID);
  await expect(picker.getByTestId('reranker-use')).toBeDisabled();
  await page.keyboard.press('Escape');

  // The same query now comes back in the cross-encoder's order, and says so.
  await searchFor(page, QUERY);
  await expect(page.getByTestId('search-reranked')).toHaveAttribute('data-model', MODEL_ID);
  await expect(results.first()).toContainText('Locks');
  await expect(results).toHaveCount(4);

  // After a reload, with the model host unreachable, the reranker answers from the browser's cache.
  const served = modelRequests.length;
  await context.unroute(`${MODEL_HOST}**`);
  await page.reload();
  await expect(page.getByTestId('note-list')).toBeVisible();
  await searchFor(page, QUERY);
  await expect(page.getByTestId('search-reranked')).toHaveAttribute('data-model', MODEL_ID, {
    timeout: 60_000,
  });
  await expect(results.first()).toContainText('Locks');
  expect(modelRequests).toHaveLength(served);

  // Turning it off goes back to the full-text order at once.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-search').click();
  await expect(picker.getByTestId('reranker-model')).toHaveValue(MODEL_ID);
  await picker.getByTestId('reranker-model').selectOption('');
  await picker.getByTestId('reranker-use').click();
  await expect(picker.getByTestId('reranker-use')).toHaveAttribute('data-in-use', '');
  await page.keyboard.press('Escape');
  await searchFor(page, QUERY);
  await expect(results.first()).toContainText('Pools');
  await expect(page.getByTestId('search-reranked')).toHaveCount(0);

  expect(modelRequests.some((url) => /\/onnx\/model(_quantized)?\.onnx$/.test(url))).toBe(true);
  expect(requestLog.foreign().filter((url) => !url.startsWith(MODEL_HOST))).toEqual([]);
});

test('a reranker download can be cancelled, and reranking stays off', async ({ page, context }) => {
  test.setTimeout(120_000);
  // The weights never arrive: a slow download to cancel.
  const { held } = await routeModelHost(context, serveModel, () => true);
  await openApp(page);
  await createNote(page, NOTES[0]!.title, NOTES[0]!.body);
  await page.getByTestId('open-settings').click();
  await useModelHost(page, MODEL_HOST);
  const settings = page.getByTestId('settings-page-search');
  const picker = settings.getByTestId('reranker-settings');
  await picker.getByTestId('reranker-model').selectOption(MODEL_ID);
  await picker.getByTestId('reranker-use').click();
  const job = picker.getByTestId('reranker-download-job').getByTestId('job-item');
  await expect(job).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  await expect(picker.getByTestId('reranker-model')).toBeDisabled();
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
  await job.getByTestId('job-cancel').click();
  await expect(job).toHaveAttribute('data-status', 'cancelled');
  await expect(picker.getByTestId('reranker-use')).toHaveAttribute('data-in-use', '');
  await expect(picker.getByTestId('reranker-use')).toBeEnabled();
  await page.keyboard.press('Escape');
  await searchFor(page, 'thread');
  await expect(page.getByTestId('search-result').first()).toContainText('Pools');
  await expect(page.getByTestId('search-reranked')).toHaveCount(0);
});
