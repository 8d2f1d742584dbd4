import type { Page } from '@playwright/test';
import { agentScriptStream } from '../src/services/__fixtures__/openai-agent-script';
import { addScriptProvider } from './harness/agent-steps';
import { expect, openApp, test } from './fixtures';

/**
 * The benchmark page as a Chinese-speaking user meets it: the datasets and metrics say what
 * their numbers are, the chart can be read on a dark page, a provider that goes away mid-run
 * is named in Chinese with what to do next, and cancelling a run keeps the keyboard's place.
 */

test.setTimeout(240_000);
test.use({ locale: 'zh-CN' });

const PHONE = { width: 390, height: 844 };

/** Whether the chart's canvas has drawn pixels in the page's text colour (its labels and legend). */
function chartUsesTextColour(page: Page): Promise<boolean> {
  return page.getByTestId('bench-chart').evaluate((canvas: HTMLCanvasElement) => {
    const probe = document.createElement('span');
    probe.style.color = 'var(--color-text)';
    canvas.parentElement!.append(probe);
    const [r, g, b] = getComputedStyle(probe).color.match(/\d+/g)!.map(Number) as [number, number, number];
    probe.remove();
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let matching = 0;
    for (let index = 0; index < data.length; index += 4) {
      const close =
        Math.abs(data[index]! - r) < 24 &&
        Math.abs(data[index + 1]! - g) < 24 &&
        Math.abs(data[index + 2]! - b) < 24;
      if (close && data[index + 3]! > 200) matching += 1;
    }
    return matching > 20;
  });
}

test.describe('desktop 1280×800, dark', () => {
  test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });

  test('the datasets count their cases, the metrics are explained and the chart reads on a dark page', async ({
    page,
    requestLog,
  }) => {
    await page.goto('/#/benchmarks');
    const view = page.getByTestId('benchmarks-view');
    await expect(view).toHaveAttribute('data-ready', 'true');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

    // "(20)" alone does not say 20 of what.
    const dataset = page.getByTestId('bench-dataset');
    await expect(dataset.locator('option[value="rag-core-v1"]')).toHaveText(/^中英文笔记检索（\d+ 个用例）$/);
    await page.getByTestId('bench-kind').selectOption('agent');
    await expect(dataset.locator('option[value="agent-core-v1"]')).toHaveText(
      /^课程笔记上的智能体任务（\d+ 个用例）$/,
    );
    await page.getByTestId('bench-kind').selectOption('rag');

    await page.getByTestId('bench-mode-vector').setChecked(false);
    await page.getByTestId('bench-mode-hybrid').setChecked(false);
    await page.getByTestId('bench-run').click();
    await expect(page.getByTestId('bench-report')).toBeVisible({ timeout: 120_000 });

    // hit@1, MRR, p95: each said in words, in Chinese.
    const glossary = page.getByTestId('bench-glossary');
    await glossary.locator('summary').click();
    await expect(glossary.locator('summary')).toHaveText('这些数字是什么意思');
    await expect(glossary.locator('dt')).toHaveCount(7);
    await expect(glossary).toContainText('MRR');
    await expect(glossary).toContainText('排第 1 得 1');
    await expect(glossary).toContainText('95% 的用例在这么多毫秒内完成');
    await expect(page.getByTestId('bench-chart-help')).toContainText('0 到 1');

    // The chart's labels and legend in the dark theme's text colour, not Chart.js's grey.
    const chart = page.getByTestId('bench-chart');
    await expect(chart).toHaveAttribute('data-ready', 'true');
    await expect.poll(() => chartUsesTextColour(page)).toBe(true);
    expect(requestLog.foreign()).toEqual([]);
  });
});

test('a provider that goes away mid-run: each case says so in Chinese and what to do next', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  let answered = 0;
  let server: Awaited<ReturnType<typeof scriptServer>> | null = null;
  // The first case gets its answers; then the provider is gone (its connections cut, its port closed).
  server = await scriptServer({
    reply: (body) => {
      answered += 1;
      if (answered <= 2) return agentScriptStream(body);
      void server!.close();
      return new Promise<string>(() => {});
    },
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-benchmarks').click();
  await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
  await page.getByTestId('bench-kind').selectOption('agent');
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('bench-run').click();
  const report = page.getByTestId('bench-report');
  await expect(report).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });

  await page.getByTestId('bench-failed-only').check();
  const reasons = page.getByTestId('bench-case-row').locator('td:last-child');
  await expect(reasons.filter({ hasText: '运行失败' }).first()).toBeVisible();
  const texts = await reasons.allTextContents();
  const providerGone = texts.filter((text) => text.includes('运行失败'));
  expect(providerGone.length).toBeGreaterThan(0);
  for (const text of providerGone) {
    // No English status, no raw error code; the way out is named.
    expect(text).not.toMatch(/\b(failed|cancelled)\b/);
    expect(text).not.toMatch(/\b[A-Z]+_[A-Z_]+\b/);
    expect(text).toContain('设置 → AI 服务');
    // One sentence runs into the next as Chinese punctuates it: no stray space, no "。；".
    expect(text).not.toMatch(/[。，；] |。；/);
  }
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});

test.describe('phone 390×844', () => {
  test('cancelling a run leaves the keyboard on that run, which reads as cancelled', async ({
    page,
    scriptServer,
  }) => {
    // The model never answers: the run stays running until it is cancelled.
    const server = await scriptServer({ reply: () => new Promise<string>(() => {}) });
    await openApp(page);
    await addScriptProvider(page, server.url);
    // The provider added on a wide window; the run watched on a phone-sized one.
    await page.setViewportSize(PHONE);
    await page.goto('/#/benchmarks');
    await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
    await page.getByTestId('bench-kind').selectOption('agent');
    await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
    await page.getByTestId('bench-run').click();

    const run = page.getByTestId('bench-run-item').first();
    await expect(run).toHaveAttribute('data-status', 'running', { timeout: 60_000 });
    await expect.poll(() => server.bodies.length).toBeGreaterThan(0);
    const cancel = run.getByRole('button', { name: '取消' });
    await cancel.focus();
    await page.keyboard.press('Enter');

    await expect(run).toHaveAttribute('data-status', 'cancelled', { timeout: 60_000 });
    await expect(run.locator('.status')).toHaveText('已取消');
    await expect(run.getByRole('button', { name: '取消' })).toHaveCount(0);
    // Not thrown back to the top of the page: on the run just cancelled.
    await expect(run.locator('button.link')).toBeFocused();
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
  });
});
