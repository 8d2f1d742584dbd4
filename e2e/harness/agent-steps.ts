import { expect, type Page } from '@playwright/test';
import { closeSettings } from './close-settings';

/**
 * Adds a custom OpenAI-compatible provider (default name "Script") for `serverUrl`
 * (see `openai-script-server.ts`) in Settings, then closes Settings. `apiKey: null`
 * saves it without a key; `providerId` is the id the save gives it (`custom-2` for a second one).
 */
export async function addScriptProvider(
  page: Page,
  serverUrl: string,
  {
    name = 'Script',
    apiKey = 'sk-e2e-agent',
    providerId = 'custom',
  }: { name?: string; apiKey?: string | null; providerId?: string } = {},
): Promise<void> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-providers').click();
  await page.getByTestId('provider-add').click();
  await page.getByTestId('provider-preset').selectOption('custom');
  await page.getByTestId('provider-name').fill(name);
  await page.getByTestId('provider-base-url').fill(`${serverUrl}/v1`);
  await page.getByTestId('provider-model').fill('script-model');
  if (apiKey !== null) await page.getByTestId('provider-api-key').fill(apiKey);
  await page.getByTestId('provider-save').click();
  await expect(page.locator(`[data-testid="provider-item"][data-provider-id="${providerId}"]`)).toBeVisible();
  await closeSettings(page);
}

/** Opens the Agent view, picks the scripted provider's model and opens the tool list. */
export async function pickScriptModel(page: Page): Promise<void> {
  await page.getByTestId('nav-agent').click();
  const picker = page.getByTestId('agent-model');
  // The lists are read once the demo is offered (runnable models come first, then the demo).
  await expect(picker.locator('option', { hasText: 'Demo (scripted, offline)' })).toHaveCount(1);
  await picker.selectOption({ label: 'Script · script-model' });
  await page.getByTestId('agent-capabilities').locator('summary').click();
}

/**
 * The agent's run that adds tasks to a note, from its permission prompt on:
 * the prompt names the note and shows the first task in its diff, is allowed
 * once, and the finished run shows search → read → write, the model it ran on
 * and its answer.
 */
export async function allowTasksAndExpectRun(
  page: Page,
  {
    note,
    task,
    model,
    answer,
    permissionTimeout,
  }: { note: string; task: string; model: string; answer: string; permissionTimeout?: number },
): Promise<void> {
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toBeVisible(permissionTimeout === undefined ? {} : { timeout: permissionTimeout });
  await expect(permission.getByTestId('permission-summary')).toHaveText(`Add 3 task(s) to “${note}”.`);
  await expect(permission.getByTestId('permission-diff')).toContainText(`+- [ ] ${task}`);
  await permission.getByTestId('permission-allow-once').click();

  const run = page.getByTestId('agent-run-item').first();
  await expect(run).toHaveAttribute('data-status', 'completed');
  const timeline = page.getByTestId('agent-timeline');
  // Each call names its tool's id beside the readable name; the ids say which tools ran.
  const tools = await timeline
    .locator('[data-testid="agent-event"][data-event="ToolCall"] strong[data-tool]')
    .evaluateAll((items) => items.map((item) => item.getAttribute('data-tool')));
  expect(tools).toEqual(['rag.search', 'notes.read', 'tasks.create']);
  await expect(timeline.locator('[data-event="ModelCallStarted"]').first()).toContainText(model);
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText(answer);
}

/** Opens the note the agent wrote to, sees the task there, and Undo brings back `body`. */
export async function undoAgentTasks(
  page: Page,
  { note, task, body }: { note: string; task: string; body: string },
): Promise<void> {
  await page.getByTestId('nav-all').click();
  await page.getByTestId('note-item').filter({ hasText: note }).click();
  await expect(page.getByTestId('note-body')).toHaveValue(
    new RegExp(`- \\[ \\] ${task.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}`),
  );
  await page.getByTestId('agent-undo').click();
  await expect(page.getByTestId('note-body')).toHaveValue(body);
}

/**
 * What the user sees after a model sent notes.search arguments that are not JSON (`sent`),
 * then a good call: the first call is a tool error naming the code and showing what was
 * sent, the second runs, and the run completes with "Nothing about Alpha yet.".
 */
export async function expectBrokenSearchThenRecovery(page: Page, sent: string): Promise<void> {
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText('Nothing about Alpha yet.');
  await expect(timeline.locator('[data-event="RunFailed"]')).toHaveCount(0);
  const calls = timeline.locator('[data-testid="agent-event"][data-event="ToolCall"]');
  await expect(calls).toHaveCount(2);
  const bad = calls.first();
  // The tool by its readable name, and its id as the app spells it, not as the wire does (notes__search).
  await expect(bad.locator('strong')).toHaveText('Tool Search notes');
  await expect(bad.locator('strong')).toHaveAttribute('data-tool', 'notes.search');
  await expect(bad.locator('[data-status]')).toHaveAttribute('data-status', 'invalid_arguments');
  await expect(bad.locator('[data-status]')).toContainText('arguments not valid JSON');
  await expect(bad.getByTestId('agent-tool-result')).toContainText('were not valid JSON');
  await expect(bad.getByTestId('agent-error-code')).toHaveText('VALIDATION_FAILED');
  await bad.locator('summary', { hasText: 'Arguments' }).click();
  await expect(bad.getByTestId('agent-tool-arguments')).toHaveText(sent);
  await expect(calls.nth(1).locator('[data-status]')).toHaveAttribute('data-status', 'ok');
}
