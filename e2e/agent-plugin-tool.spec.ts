import { startScriptServer, textStream, toolCallStream } from './harness/openai-script-server';
import { greeterOnScriptModel, openPluginSettings, pluginItem } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

interface WireBody {
  messages?: Array<{ role: string; content?: string | null }>;
  tools?: Array<{ function?: { name?: string } }>;
}

/**
 * The scripted model calls the plugin tool under the wire name the request
 * gave it, then answers with what the tool message said, as a model reading
 * the result would.
 */
function greetScript(raw: Record<string, unknown>): string {
  const body = raw as WireBody;
  const result = body.messages?.filter((message) => message.role === 'tool').at(-1);
  if (result) return textStream(`The plugin answered: ${result.content ?? ''}`);
  const wire = body.tools
    ?.map((tool) => tool.function?.name ?? '')
    .find((name) => name.startsWith('sample-greeter'));
  return wire ? toolCallStream(wire, { name: 'Ada' }) : textStream('No plugin tool was offered.');
}

test('the agent calls an enabled plugin tool behind a permission prompt and loses it when the plugin is disabled', async ({
  page,
  context,
  requestLog,
}) => {
  const server = await startScriptServer({ reply: greetScript });
  await context.route(`${server.url}/**`, (route) => route.continue());
  try {
    await openApp(page);
    await greeterOnScriptModel(page, server.url);
    const listed = page.locator('[data-testid="agent-tool"][data-tool="sample-greeter.greet"]');
    await expect(listed).toBeVisible();

    await page.getByTestId('agent-input').fill('Greet Ada with the greeter plugin');
    await page.getByTestId('agent-run').click();

    const permission = page.getByTestId('agent-permission');
    await expect(permission).toContainText('“greet” from the plugin “Sample Greeter” asks for permission');
    await expect(permission.getByTestId('permission-arguments')).toContainText('Ada');
    // The phase line names the tool as the user knows it: its MCP name and its plugin's name.
    await expect(page.getByTestId('agent-run-phase')).toHaveText(
      'Waiting for your approval to run “greet” from the plugin “Sample Greeter”.',
    );
    await permission.getByTestId('permission-allow-once').click();

    await expect(page.getByTestId('agent-run-item').first()).toHaveAttribute('data-status', 'completed');
    const timeline = page.getByTestId('agent-timeline');
    const call = timeline.locator('[data-testid="agent-event"][data-event="ToolCall"]');
    await expect(call).toHaveCount(1);
    await expect(call).toContainText('sample-greeter.greet');
    await expect(call.locator('[data-status]')).toHaveAttribute('data-status', 'ok');
    await expect(call.getByTestId('agent-tool-result')).toContainText('Hello, Ada!');
    await expect(timeline.locator('[data-event="RunCompleted"]')).toContainText(
      'The plugin answered: Hello, Ada!',
    );
    // On the OpenAI wire the dot is mapped: function names may not contain one.
    const offered = (server.bodies[0] as WireBody).tools?.map((tool) => tool.function?.name);
    expect(offered).toContain('sample-greeter__greet');

    const section = await openPluginSettings(page);
    const plugin = pluginItem(section, 'sample-greeter');
    await plugin.getByTestId('plugin-disable').click();
    await expect(plugin).toHaveAttribute('data-state', 'disabled');
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-testid="agent-tool"][data-tool="tasks.create"]')).toBeVisible();
    await expect(listed).toHaveCount(0);
    expect(requestLog.foreign().filter((url) => !url.startsWith(server.url))).toEqual([]);
  } finally {
    await server.close();
  }
});
