import { installPluginZip, workerPluginZip } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** A worker plugin as its author writes it: one tool, `boom`, listed as `tools` and answering `call`. */
function authoredPlugin(id: string, tools: string, call: string): Buffer {
  return workerPluginZip({ id, contributes: ['boom'], tools, call });
}

test('Try on a tool that throws shows the tool’s own message', async ({ page }) => {
  await openApp(page);
  const plugin = await installPluginZip(
    page,
    'anna-tools',
    authoredPlugin(
      'anna-tools',
      "[{ name: 'boom', description: 'Fails.', inputSchema: { type: 'object', properties: {} } }]",
      "throw new Error('the citation index is not built yet');",
    ),
  );
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await plugin.getByTestId('plugin-tool-try').click();
  await expect(plugin.getByTestId('plugin-tool-failed')).toContainText('the citation index is not built yet');
});

test('a tool listed without inputSchema is named, not "failed on tools/list"', async ({ page }) => {
  await openApp(page);
  const plugin = await installPluginZip(
    page,
    'anna-cite',
    authoredPlugin('anna-cite', "[{ name: 'boom', description: 'No schema.' }]", 'return { content: [] };'),
  );
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'error');
  await expect(plugin.getByTestId('plugin-error')).toHaveAttribute('data-code', 'MCP_TOOL_SCHEMA_INVALID');
  await expect(plugin).toContainText('“boom”');
});
