import { installPluginZip } from './harness/plugin-steps';
import { workerPluginZip } from './harness/plugin-tools-steps';
import { switchLanguage } from './harness/language-steps';
import { expect, openApp, test } from './fixtures';

/**
 * Tools that fail without reporting an error of their own: one never answers; one answers out of
 * shape, which the MCP SDK's server turns into a JSON-RPC error (-32602) rather than a result; one
 * brings its plugin's worker down while it runs.
 */
const failingPlugin = workerPluginZip({
  id: 'flaky-tools',
  name: 'Flaky tools',
  toolTimeoutSeconds: 1,
  tools: [
    { name: 'hangs', description: 'Never answers.', call: 'return new Promise(() => {});' },
    { name: 'garbles', description: 'Answers out of shape.', call: "return { content: 'not a list' };" },
    {
      name: 'crashes',
      description: 'Crashes its worker.',
      call: "setTimeout(() => { throw new Error('worker gave up'); }); return new Promise(() => {});",
    },
  ],
});

test('Try says a tool timed out, answered out of shape or crashed its plugin, each with what to do, not that the tool reported an error', async ({
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
    'The tool answered, but not with an MCP tool result (an object with a content list). Fix what its server returns for tools/call.',
  );
  // The plugin is still up after both: neither failure was the plugin's own error.
  await expect(plugin).toHaveAttribute('data-state', 'enabled');

  // A crash withdraws the plugin's tools; the crashed Try's box stays, saying what happened.
  const crashes = plugin.locator('[data-testid="plugin-tool"][data-tool="flaky-tools.crashes"]');
  await crashes.getByTestId('plugin-tool-try').click();
  await expect(plugin).toHaveAttribute('data-state', 'error');
  await expect(crashes.getByTestId('plugin-tool-failed')).toHaveText(
    "The plugin stopped while running the tool, so there is no result (the tool may have done part of its work). Press Restart on the plugin's row, then try again; if it stops again, the browser's console says why.",
  );
  await expect(crashes.getByTestId('plugin-tool-withdrawn')).toBeVisible();
  await expect(crashes.getByTestId('plugin-tool-try')).toHaveCount(0);
  await expect(hangs).toHaveCount(0);
  // Restarted as it said: the tools are back, without the old failure.
  await plugin.getByTestId('plugin-restart').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await expect(crashes.getByTestId('plugin-tool-try')).toBeVisible();
  await expect(crashes.getByTestId('plugin-tool-failed')).toHaveCount(0);

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
