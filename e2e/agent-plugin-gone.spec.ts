import { textStream, toolCallStream, toolMessages } from './harness/openai-script-server';
import { greeterOnScriptModel, openPluginSettings, pluginItem } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

test('uninstalling a plugin while its tool waits for approval withdraws the prompt; the run goes on without it', async ({
  page,
  scriptServer,
}) => {
  // The model answers with what the tool message told it, as a model reading the result would.
  const server = await scriptServer({
    reply: (body) =>
      toolMessages(body).length > 0
        ? textStream(`The tool said: ${toolMessages(body).at(-1)?.content ?? ''}`)
        : toolCallStream('sample-greeter__greet', { name: 'Ada' }),
  });
  await openApp(page);
  await greeterOnScriptModel(page, server.url);
  await page.getByTestId('agent-input').fill('Greet Ada with the greeter plugin');
  await page.getByTestId('agent-run').click();
  const permission = page.getByTestId('agent-permission');
  await expect(permission).toContainText('“greet” from the plugin “Sample Greeter” asks for permission');

  const section = await openPluginSettings(page);
  await pluginItem(section, 'sample-greeter').getByTestId('plugin-uninstall').click();
  await page.getByTestId('confirm-accept').click();
  await expect(section.getByTestId('plugins-empty')).toBeVisible();
  await page.keyboard.press('Escape');

  // Nothing is left to approve: the prompt is gone and the run ended on its own.
  await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
  await expect(permission).toHaveCount(0);
  const timeline = page.getByTestId('agent-timeline');
  await expect(timeline.locator('[data-event="PermissionResolved"]')).toContainText(
    'not answered (the tool was removed: its plugin was turned off or uninstalled)',
  );
  const call = timeline.locator('[data-testid="agent-event"][data-event="ToolCall"]');
  await expect(call.locator('[data-status]')).toHaveAttribute('data-status', 'withdrawn');
  await expect(call.getByTestId('agent-tool-withdrawn')).toHaveText(
    'sample-greeter.greet was removed while it waited for your approval (its plugin was turned off or uninstalled), so it did not run.',
  );
  // The model was told why, and the greeting never happened.
  await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText('was removed while it waited');
  await expect(timeline).not.toContainText('Hello, Ada');
});
