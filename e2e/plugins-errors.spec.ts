import { join } from 'node:path';
import { openPluginSettings, pluginItem, samplePackage } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('a plugin that fails to start says so in Chinese and shows its own error beside', async ({ page }) => {
    await openApp(page);
    const section = await openPluginSettings(page);
    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'broken-start.zip',
      mimeType: 'application/zip',
      buffer: samplePackage(join(process.cwd(), 'e2e/plugins/broken-start')),
    });
    const plugin = pluginItem(section, 'broken-start');
    await expect(plugin).toHaveAttribute('data-state', 'installed');
    await plugin.getByTestId('plugin-enable').click();
    await expect(plugin).toHaveAttribute('data-state', 'error');
    const error = plugin.getByTestId('plugin-error');
    await expect(error).toHaveText('插件宿主无法启动。');
    await expect(error).toHaveAttribute('data-code', 'PLUGIN_HOST_START_FAILED');
    // Why it failed, in the plugin's own words: what its author needs to fix it.
    await expect(plugin.getByTestId('plugin-error-detail')).toContainText('lookup table not configured');
  });
});
