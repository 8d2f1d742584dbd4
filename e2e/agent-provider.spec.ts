import {
  addScriptProvider,
  allowTasksAndExpectRun,
  pickScriptModel,
  undoAgentTasks,
} from './harness/agent-steps';
import { createNote, expect, openApp, test } from './fixtures';

const BODY =
  '# Deadlock\n\n## Four conditions\n\nMutual exclusion, hold and wait, no preemption, circular wait.\n';

test('the agent runs on a configured OpenAI-compatible provider; its write shows a diff and can be undone', async ({
  page,
  requestLog,
  scriptServer,
}) => {
  const server = await scriptServer();
  await openApp(page);
  await createNote(page, 'Deadlock notes', BODY);

  await addScriptProvider(page, server.url);
  await pickScriptModel(page);
  await expect(page.locator('[data-testid="agent-tool"][data-tool="tasks.create"]')).toBeVisible();

  await page.getByTestId('agent-input').fill('Make a task list in my deadlock note');
  await page.getByTestId('agent-run').click();

  await allowTasksAndExpectRun(page, {
    note: 'Deadlock notes',
    task: 'Explain the four conditions',
    model: 'Script · script-model',
    answer: 'I added three tasks',
  });
  // Native tool calling: the provider got the tools as functions.
  expect((server.bodies[0]?.tools as unknown[] | undefined)?.length).toBeGreaterThan(3);

  await undoAgentTasks(page, { note: 'Deadlock notes', task: 'Explain the four conditions', body: BODY });
  await expect(page.getByTestId('agent-undo')).toHaveCount(0);
  expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
});

test('the demo says what it cannot do instead of acting', async ({ page, requestLog }) => {
  await openApp(page);
  await page.getByTestId('nav-agent').click();
  await expect(page.getByTestId('agent-model')).toHaveValue('mock|mock-1');
  await expect(page.getByTestId('agent-demo-note')).toBeVisible();
  await page.getByTestId('agent-input').fill('What is 17*23?');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText('The demo only');
  await expect(timeline.locator('[data-event="ToolCall"]')).toHaveCount(0);
  expect(requestLog.foreign()).toEqual([]);
});
