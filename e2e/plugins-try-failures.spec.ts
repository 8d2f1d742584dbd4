import { installPluginZip } from './harness/plugin-steps';
import { workerPluginZip } from './harness/plugin-tools-steps';
import { switchLanguage } from './harness/language-steps';
import { expect, openApp, test } from './fixtures';

/**
 * Tools that fail without reporting an error of their own: one never answers; one answers out of
 * shape, which the MCP SDK's server turns into a JSON-RPC error (-32602) rather than a result.
 */
const failingPlugin = workerPluginZip({
  id: 'flaky-tools',
  name: 'Flaky tools',
  toolTimeoutSeconds: 1,
  tools: [
    { name: 'hangs', description: 'Never answers.', call: 'return new Promise(() => {});' },
    { name: 'garbles', description: 'Answers out of shape.', call: "return { content: 'not a list' };" },
  ],
});

test('Try says a tool timed out or its server answered with an MCP error, each with what to do, not that the tool reported an error', async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginZip(page, 'flaky-tools', failingPlugin);
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');

  const hangs = plugin.locator('[data-testid="plugin-tool"][data-tool="flaky-tools.hangs"]');
  await hangs.getByTestId('plugin-tool-try').click();
  await expect(hangs.getByTestId('plugin-tool-failed')).toHaveText(
    'Stopped: the tool did not answer within its time limit (tool_timeout_seconds in plugin.yaml), so the call was cancelled. Try again, or give it more time there.',
  );

  const garbles = plugin.locator('[data-testid="plugin-tool"][data-tool="flaky-tools.garbles"]');
  await garbles.getByTestId('plugin-tool-try').click();
  await expect(garbles.getByTestId('plugin-tool-failed')).toHaveText(
    "The plugin's server answered with an MCP error (-32602) instead of a result. Its own log or console says why.",
  );
  // The plugin is still up after both: neither failure was the plugin's own error.
  await expect(plugin).toHaveAttribute('data-state', 'enabled');

  await page.keyboard.press('Escape');
  await switchLanguage(page, 'zh-CN');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-plugins').click();
  const again = page.locator('[data-testid="plugin-item"][data-plugin-id="flaky-tools"]');
  const hangsZh = again.locator('[data-testid="plugin-tool"][data-tool="flaky-tools.hangs"]');
  await hangsZh.getByTestId('plugin-tool-try').click();
  await expect(hangsZh.getByTestId('plugin-tool-failed')).toHaveText(
    '已停止：工具没有在时限内（plugin.yaml 中的 tool_timeout_seconds）应答，调用已取消。请重试，或在那里给它更多时间。',
  );
});
