import type { Locator, Page } from '@playwright/test';
import { expect, openApp, test } from './fixtures';

/**
 * The benchmark report read on a phone and in Chinese: it fits the screen, a
 * case opens where it can be seen, and everything it says is in the UI's language.
 */

test.setTimeout(240_000);

const PHONE = { width: 390, height: 844 };

/** How many lines an element's text takes: a heading broken one character a line takes several. */
function lineCount(element: Locator): Promise<number> {
  return element.evaluate((node) => {
    const range = document.createRange();
    range.selectNodeContents(node);
    return new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top))).size;
  });
}

/** Sideways scroll of the page, and of the benchmarks view (the scroll container on a phone). */
function sideways(page: Page): Promise<{ page: number; view: number; width: number }> {
  return page.evaluate(() => {
    const view = document.querySelector<HTMLElement>('[data-testid="benchmarks-view"]')!;
    return {
      page: document.scrollingElement!.scrollWidth,
      view: view.scrollWidth - view.clientWidth,
      width: window.innerWidth,
    };
  });
}

/** Runs rag-core-v1 over the given modes only and waits for its report. */
async function runRag(page: Page, modes: ReadonlyArray<'fts' | 'vector' | 'hybrid'>): Promise<void> {
  await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
  for (const mode of ['fts', 'vector', 'hybrid'] as const) {
    await page.getByTestId(`bench-mode-${mode}`).setChecked(modes.includes(mode));
  }
  await page.getByTestId('bench-run').click();
  await expect(page.getByTestId('bench-report')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('bench-metric-row')).toHaveCount(modes.length);
}

test.describe('phone 390×844 in Chinese', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, locale: 'zh-CN' });

  test('the report fits the screen, a tapped case opens in view, and nothing is left in English', async ({
    page,
    requestLog,
  }) => {
    // Straight to the view: the drawer is not what this test is about.
    await page.goto('/#/benchmarks');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-view', 'benchmarks');

    // The controls: the kind as the sidebar names it, the demo model not by its stored English name.
    await expect(page.getByTestId('bench-kind').locator('option[value="agent"]')).toHaveText('智能体');
    await expect(page.getByTestId('bench-answer-model')).toContainText('演示（脚本，离线）');
    await expect(page.getByTestId('bench-answer-model')).not.toContainText('Mock (scripted demo)');
    await expect(page.getByTestId('bench-top-k').locator('..')).not.toContainText('Top k');
    // Unticked models still leave one in use: the hint says which, and what ticking does.
    await expect(page.getByTestId('bench-embeddings-hint')).toContainText('hash-v1');

    await runRag(page, ['fts', 'vector']);
    const report = page.getByTestId('bench-report');

    // Wide tables scroll in their own box; neither the page nor the view scrolls sideways.
    const scroll = await sideways(page);
    expect(scroll.page).toBeLessThanOrEqual(scroll.width);
    expect(scroll.view).toBeLessThanOrEqual(0);

    // Headings and a run's status read on one line each, not one character a line.
    const headings = report.getByTestId('bench-cases-scroll').locator('th');
    await expect(headings).toHaveText(['用例', '模式', '查询', '排名', '结果', '延迟（毫秒）']);
    for (const heading of await headings.all()) expect(await lineCount(heading)).toBe(1);
    const run = page.getByTestId('bench-run-item').first();
    await expect(run.locator('.status')).toHaveText('已完成');
    expect(await lineCount(run.locator('.status'))).toBe(1);
    // A local date, not the stored UTC instant.
    await expect(run).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:/);

    // Modes as the search box names them; metric headings translated.
    await expect(page.getByTestId('bench-metric-row').first()).toContainText('全文');
    await expect(page.getByTestId('bench-metric-row').nth(1)).toContainText('向量');
    await expect(page.getByTestId('bench-metric')).toContainText('引用');
    await expect(page.getByTestId('bench-metric')).not.toContainText(/\b(fts|vector|hybrid|citation)\b/);
    await expect(page.getByTestId('bench-filter-mode')).not.toContainText(/\b(fts|vector|hybrid)\b/);

    // A failed vector case, tapped: its detail is on screen, with its reason and retrieved notes in Chinese.
    await page.getByTestId('bench-filter-mode').selectOption('vector');
    await page.getByTestId('bench-failed-only').check();
    await page.getByTestId('bench-case-row').first().getByRole('button').tap();
    const detail = page.getByTestId('bench-case-detail');
    await expect(detail).toBeInViewport();
    await expect(detail).toBeFocused();
    await expect(detail.getByTestId('bench-case-reason')).toContainText('没有检索到期望的块');
    await expect(detail).not.toContainText('expected block not retrieved');
    await expect(detail.getByTestId('bench-retrieved-title').first()).toBeVisible();
    const after = await sideways(page);
    expect(after.page).toBeLessThanOrEqual(after.width);
    expect(after.view).toBeLessThanOrEqual(0);
    expect(requestLog.foreign()).toEqual([]);
  });
});

test('on a desktop a clicked case opens in view, and closing it goes back to its row', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  await page.getByTestId('nav-benchmarks').click();
  await runRag(page, ['fts']);
  await expect(page.getByTestId('bench-metric-row')).toContainText('Full text');
  await expect(page.getByTestId('bench-run-item').first()).not.toContainText(/\d{4}-\d{2}-\d{2}T\d{2}:/);

  const row = page.getByTestId('bench-case-row').nth(5);
  await row.getByRole('button').click();
  const detail = page.getByTestId('bench-case-detail');
  await expect(detail).toBeInViewport();
  await expect(detail).toBeFocused();
  await expect(detail.getByRole('heading')).toContainText('Full text');

  await detail.getByTestId('bench-case-close').click();
  await expect(detail).toHaveCount(0);
  await expect(row.getByRole('button')).toBeFocused();
  await expect(row).toBeInViewport();
  expect(requestLog.foreign()).toEqual([]);
});
