import { installPluginPackage } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/**
 * After a reload the enabled plugins start one after another in the background, after the
 * page has first read the agent's tools: the page must follow them as they become ready,
 * without the user opening Settings to make it read again.
 */
test('a plugin enabled before a reload lists its tool in the Agent view once it is ready', async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginPackage(page, 'word-counter');
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await expect(plugin.getByTestId('plugin-tool-try')).toBeVisible();
  await page.keyboard.press('Escape');

  // Reloaded on the Agent view: it reads the tools as the page opens, while the plugin starts.
  await page.evaluate(() => (location.hash = '#/agent'));
  await page.reload();
  await page.getByTestId('agent-capabilities').locator('summary').click();
  const tool = page.locator('[data-testid="agent-tool"][data-tool="word-counter.count"]');
  await expect(tool).toBeVisible();
  await expect(tool).toContainText('Counts the words of a text.');
  await expect(page.locator('[data-testid="agent-tool"][data-tool="tasks.create"]')).toBeVisible();
});
