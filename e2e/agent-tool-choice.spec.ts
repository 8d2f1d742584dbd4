import type { Page } from '@playwright/test';
import { addScriptProvider } from './harness/agent-steps';
import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { createNote, expect, openApp, test } from './fixtures';

const answered = (body: Record<string, unknown>) => toolMessages(body).length > 0;

/** The tool names a chat-completions request offered the model (as the wire spells them). */
function offeredTools(body: Record<string, unknown>): string[] {
  const tools = (body as { tools?: Array<{ function?: { name?: string } }> }).tools ?? [];
  return tools.map((tool) => tool.function?.name ?? '');
}

async function openAgentSettings(page: Page): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-agent').click();
}

/** Picks the scripted provider's model in the Agent view and runs `prompt`. */
async function runOnScriptModel(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('nav-agent').click();
  await page.getByTestId('agent-model').selectOption({ label: 'Script · script-model' });
  await page.getByTestId('agent-input').fill(prompt);
  await page.getByTestId('agent-run').click();
}

test('"Always allow" names every tool the grant lets through, in the prompt and beside the grant', async ({
  page,
  scriptServer,
}) => {
  const server = await scriptServer({
    reply: (body) =>
      answered(body)
        ? textStream('Added.')
        : toolCallStream('tasks__create', { note_title: 'Revision', tasks: ['Read chapter 3'] }),
  });
  await openApp(page);
  await addScriptProvider(page, server.url);
  await runOnScriptModel(page, 'Add a to-do to read chapter 3');

  const permission = page.getByTestId('agent-permission');
  const covered =
    'Always allow “Change notes” covers these tools: Create notes, Edit notes, Move and tag notes, Add to-dos.' +
    ' None of them will ask again, in this run or later ones, until you take it back in Settings → Agent.';
  await expect(permission.getByTestId('permission-always-scope')).toHaveText(covered);
  // A screen reader hears the same list on the button itself.
  await expect(permission.getByTestId('permission-always')).toHaveAccessibleDescription(covered);
  await permission.getByTestId('permission-always').click();
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');

  await openAgentSettings(page);
  const grant = page.getByTestId('agent-grant');
  await expect(grant.getByTestId('agent-grant-name')).toHaveText('Change notes');
  await expect(grant.getByTestId('agent-grant-covers')).toHaveText(
    'Covers: Create notes, Edit notes, Move and tag notes, Add to-dos',
  );
});

test('a tool turned off in Settings → Agent is not offered to the model and never asks', async ({
  page,
  scriptServer,
}) => {
  // A model that moves the note whatever it was offered: only the app can keep the tool away.
  const server = await scriptServer({
    reply: (body) =>
      answered(body)
        ? textStream('I could not move it.')
        : toolCallStream('notes__organise', { note_id: 'any', folder: 'Archive' }),
  });
  await openApp(page);
  await createNote(page, 'Lecture 4', '# Lecture 4\n\nPaging.\n');
  await addScriptProvider(page, server.url);

  await openAgentSettings(page);
  const organise = page.getByTestId('agent-tool-choice').filter({ hasText: 'Move and tag notes' });
  await expect(organise.getByTestId('agent-tool-choice-permission')).toContainText('Asks for “Change notes”');
  const toggle = page.getByRole('switch', { name: 'Let the agent use “Move and tag notes”' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(organise).toHaveAttribute('data-enabled', 'false');
  await page.keyboard.press('Escape');

  await runOnScriptModel(page, 'Move my Lecture 4 note into Archive');
  // The Agent view's list of what it can do says which tool is off.
  await page.getByTestId('agent-capabilities').locator('summary').click();
  const capabilities = page.getByTestId('agent-tool');
  await expect(
    page.locator('[data-testid="agent-tool"][data-tool="notes.organise"]').getByTestId('agent-tool-off'),
  ).toHaveText('turned off in Settings → Agent');
  await expect(capabilities.getByTestId('agent-tool-off')).toHaveCount(1);
  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'completed');
  const offered = offeredTools(server.bodies[0]!);
  expect(offered).not.toContain('notes__organise');
  expect(offered).toContain('notes__create');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText('I could not move it.');
  await expect(timeline.locator('[data-event="PermissionRequired"]')).toHaveCount(0);
  await expect(page.getByTestId('agent-permission')).toHaveCount(0);
  // The model's call of the tool it was not offered is refused, not run.
  await expect(
    timeline.locator('[data-testid="agent-event"][data-event="ToolCall"] [data-status]'),
  ).toHaveAttribute('data-status', /^(unknown_tool|not_allowed)$/);
});

test.describe('in Chinese', () => {
  // A tablet: a touch screen, where a switch must be big enough for a finger.
  test.use({ locale: 'zh-CN', hasTouch: true });

  test('a tool turned off stays off after a reload', async ({ page }) => {
    await openApp(page);
    await openAgentSettings(page);
    const toggle = page.getByRole('switch', { name: '允许智能体使用“移动笔记和设置标签”' });
    const box = await toggle.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(32);
    expect(box?.height).toBeGreaterThanOrEqual(32);
    await toggle.uncheck();
    await expect(
      page.getByTestId('agent-tool-choice').filter({ hasText: '移动笔记和设置标签' }),
    ).toHaveAttribute('data-enabled', 'false');

    await page.reload();
    await expect(page.getByTestId('note-list')).toBeVisible();
    await openAgentSettings(page);
    await expect(toggle).not.toBeChecked();
    // Only the one turned off: a tool beside it is still on.
    await expect(page.getByRole('switch', { name: '允许智能体使用“新建笔记”' })).toBeChecked();
  });
});
