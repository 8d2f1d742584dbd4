import { addScriptProvider, pickScriptModel } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';

test('a run that goes on after the user left the Agent view shows its new note in the notebook', async ({
  page,
  scriptServer,
}) => {
  // The first run makes a note (and the user allows note writes for good); the second
  // run's model answer is held until the user is back in the notebook.
  let runs = 0;
  let answerModel: () => void = () => undefined;
  const modelAnswered = new Promise<void>((resolve) => (answerModel = resolve));
  const server = await scriptServer({
    reply: async (body) => {
      if (toolMessages(body).length > 0) return textStream('Done.');
      runs += 1;
      if (runs === 1)
        return toolCallStream('notes__create', { title: 'Scheduling summary', body: '# FCFS\n' });
      await modelAnswered;
      return toolCallStream('notes__create', {
        title: 'Deadlock summary',
        body: '# Deadlock\n\nFour conditions.\n',
        folder: 'Operating systems',
        tags: ['exam'],
      });
    },
  });
  await openApp(page);
  await createNote(page, 'Deadlock', '# Deadlock\n');
  await addScriptProvider(page, server.url);
  await pickScriptModel(page);

  await page.getByTestId('agent-input').fill('Summarise my scheduling notes');
  await page.getByTestId('agent-run').click();
  await page.getByTestId('agent-permission').getByTestId('permission-always').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');

  await page.getByTestId('agent-input').fill('Summarise my deadlock note for the exam');
  await page.getByTestId('agent-run').click();
  await expect(page.getByTestId('agent-run-phase')).toHaveText(
    'Waiting for Script · script-model to answer…',
  );
  await page.getByTestId('nav-all').click();
  const items = page.getByTestId('note-item');
  await expect(items.filter({ hasText: 'Scheduling summary' })).toHaveCount(1);
  await expect(items.filter({ hasText: 'Deadlock summary' })).toHaveCount(0);

  // The run writes while the notebook is shown: the list and the sidebar follow, no reload.
  answerModel();
  await expect(items.filter({ hasText: 'Deadlock summary' })).toHaveCount(1);
  await expect(page.locator('[data-testid="folder-item"][data-folder="Operating systems"]')).toContainText(
    '1',
  );
  await expect(page.locator('[data-testid="tag-item"][data-tag="exam"]')).toBeVisible();
});
