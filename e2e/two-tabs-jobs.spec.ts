import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';

const answered = (body: Record<string, unknown>) => toolMessages(body).length > 0;

/*
 * Opening the app in a second tab (same browser, same notebook) must not treat
 * the first tab's running work as left behind by a closed tab: the agent's run
 * waiting on its permission prompt is a pause the test controls without clocks.
 */
test('a second tab leaves the first tab’s running agent run alone, and it finishes in both', async ({
  page,
  context,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) =>
      answered(body)
        ? textStream('Created.')
        : toolCallStream('notes__create', { title: 'Scheduling summary', body: '# Scheduling summary\n' }),
  });
  await openApp(page);
  await createNote(page, 'Scheduling', '# Scheduling\n\nFCFS, SJF, RR.\n');
  await addScriptProvider(page, server.url);
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('agent-input').fill('Summarise my scheduling note into a new note');
  await page.getByTestId('agent-run').click();
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeVisible();

  // The user opens the app again in a second tab while the run waits for her answer.
  const second = await context.newPage();
  await openApp(second);
  await second.getByTestId('nav-agent').click();
  const runInSecond = second.getByTestId('agent-run-item').first();
  await expect(runInSecond).toHaveAttribute('data-status', 'running');

  // Back in the first tab the prompt is still there, and allowing it finishes the run.
  await page.bringToFront();
  await expect(permission).toBeVisible();
  await permission.getByTestId('permission-allow-once').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await expect(page.getByTestId('agent-timeline')).toContainText('Created.');

  // Both tabs, read afresh, agree: the run completed and its note exists.
  for (const tab of [second, page]) {
    await tab.reload();
    await tab.getByTestId('nav-agent').click();
    await expect(tab.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
    await tab.getByTestId('nav-all').click();
    await expect(tab.getByTestId('note-item').filter({ hasText: 'Scheduling summary' })).toHaveCount(1);
  }
});
