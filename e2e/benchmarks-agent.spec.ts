import type { Page } from '@playwright/test';
import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
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

/** The calculator case's answer, as the scripted model gives it for every case. */
const CALCULATED = 'Seventeen times twenty-three is 391.';

/**
 * A model that uses the calculator once where it is offered, then answers: each
 * case's trace has one tool call with its arguments and result, and an answer.
 */
function calculatorModel(body: Record<string, unknown>): string {
  const offered = ((body.tools ?? []) as Array<{ function?: { name?: string } }>).map(
    (tool) => tool.function?.name ?? '',
  );
  const calculator = offered.find((name) => name.startsWith('math__evaluate'));
  return calculator && toolMessages(body).length === 0
    ? toolCallStream(calculator, { expression: '17 * 23' })
    : textStream(CALCULATED);
}

/** Opens a case of the selected agent run and returns its detail panel. */
async function openCase(page: Page, caseId: string) {
  await page.getByTestId('bench-case-row').filter({ hasText: caseId }).click();
  const detail = page.getByTestId('bench-case-detail');
  await expect(detail).toBeVisible();
  return detail;
}

test('a case trace reads as what the agent did: the tool with its arguments and result, then the answer', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  const server = await scriptServer({ reply: calculatorModel });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-benchmarks').click();
  await page.getByTestId('bench-kind').selectOption('agent');
  await expect(page.getByTestId('bench-dataset')).toHaveValue('agent-core-v1');
  await page.getByTestId('bench-agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('bench-run').click();
  await expect(page.getByTestId('bench-report')).toHaveAttribute('data-kind', 'agent', { timeout: 120_000 });

  const detail = await openCase(page, 'agent-math-001');
  const trace = detail.getByTestId('bench-trace');
  const steps = trace.getByTestId('bench-trace-event');
  // The request, the tool the model chose with what it asked and what came back, and the answer.
  await expect(steps.first()).toContainText('Run started');
  await expect(steps.first()).toContainText('What is 17 * 23? Use the calculator.');
  const tool = steps.and(page.locator('[data-event="ToolCall"]'));
  await expect(tool).toHaveCount(1);
  await expect(tool.locator('strong')).toHaveText('Tool Calculate');
  await expect(tool.getByTestId('agent-tool-arguments-line')).toHaveText('expression: 17 * 23');
  await expect(tool.locator('[data-status]')).toContainText('done');
  await expect(tool.getByTestId('agent-tool-result')).toBeVisible();
  await expect(tool.getByTestId('agent-tool-result')).toHaveText('17 * 23 = 391');
  const answer = steps.and(page.locator('[data-event="RunCompleted"]'));
  await expect(answer.locator('strong')).toHaveText('Answer');
  await expect(answer).toContainText(CALCULATED);
  // No event names or JSON in what a person reads; the stored events stay one click away.
  await expect(trace).not.toContainText('ToolCall');
  await expect(trace).not.toContainText('tool_call_id');
  const raw = detail.getByTestId('bench-trace-raw');
  await expect(raw.locator('pre')).toBeHidden();
  await raw.locator('summary').click();
  await expect(raw.locator('pre')).toContainText('"event": "ToolCall"');

  // The dataset by its name, in the picker, the run list and the report; never by its id alone.
  const option = page.getByTestId('bench-dataset').locator('option[value="agent-core-v1"]');
  await expect(option).toHaveText(/^Agent tasks on course notes \(\d+ cases\)$/);
  await expect(page.getByTestId('bench-dataset-description')).toHaveText(
    'Small jobs on an operating-systems course notebook: search, read, calculate, list and write tasks and notes.',
  );
  await expect(page.getByTestId('bench-report-title')).toContainText('Agent tasks on course notes');
  const run = page.getByTestId('bench-run-item').first();
  await expect(run).toContainText('Agent tasks on course notes · custom/script-model');
  await expect(run).not.toContainText('agent-core-v1');
  await page.getByTestId('bench-kind').selectOption('rag');
  await expect(page.getByTestId('bench-dataset').locator('option[value="rag-core-v1"]')).toHaveText(
    /^Note search, Chinese and English \(\d+ cases\)$/,
  );
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the shipped datasets have Chinese names, and a case trace reads in Chinese', async ({
    page,
    requestLog,
  }) => {
    await page.goto('/#/benchmarks');
    await expect(page.getByTestId('benchmarks-view')).toHaveAttribute('data-ready', 'true');
    const dataset = page.getByTestId('bench-dataset');
    await expect(dataset.locator('option[value="rag-core-v1"]')).toHaveText(/^中英文笔记检索（\d+ 个用例）$/);
    await page.getByTestId('bench-kind').selectOption('agent');
    await expect(dataset.locator('option[value="agent-core-v1"]')).toHaveText(
      /^课程笔记上的智能体任务（\d+ 个用例）$/,
    );
    await expect(page.getByTestId('bench-dataset-description')).toContainText('操作系统课程笔记本');

    await page.getByTestId('bench-agent-model').selectOption({ label: '演示（脚本，离线）' });
    await page.getByTestId('bench-run').click();
    await expect(page.getByTestId('bench-report')).toHaveAttribute('data-kind', 'agent', {
      timeout: 120_000,
    });
    const detail = await openCase(page, 'agent-math-001');
    await expect(detail.getByRole('heading', { level: 4 })).toHaveText('智能体做了什么');
    const steps = detail.getByTestId('bench-trace').getByTestId('bench-trace-event');
    await expect(steps.first().locator('strong')).toHaveText('开始运行');
    await expect(steps.and(page.locator('[data-event="ModelCallStarted"]')).first()).toContainText(
      '模型调用（第 1 步）',
    );
    await expect(steps.last().locator('strong')).toHaveText('回答');
    await expect(detail.getByTestId('bench-trace')).not.toContainText('RunCompleted');
    expect(requestLog.foreign()).toEqual([]);
  });
});
