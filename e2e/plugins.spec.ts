import { join } from 'node:path';
import { zipSync } from 'fflate';
import {
  openPluginSettings as openSettings,
  samplePackage,
  saveSampleGreeterSettings,
} from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** A package whose only fault is its plugin.yaml. */
function packageWithManifest(manifest: string): Buffer {
  const text = (value: string) => new TextEncoder().encode(value);
  return Buffer.from(
    zipSync({ plugin: { 'plugin.yaml': text(manifest), 'server.js': text('export default () => ({});') } }),
  );
}

/** Latin words in a Chinese message besides the names it quotes from the package. */
function englishWords(text: string, quoted: readonly string[]): string[] {
  let rest = text;
  for (const name of quoted) rest = rest.split(name).join(' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

test.describe('a refused plugin package in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('says inline, wholly in Chinese, which line of plugin.yaml is broken and which fields are missing', async ({
    page,
  }) => {
    await openApp(page);
    const section = await openSettings(page);
    // The app's own button, in Chinese; the browser's file input stays hidden.
    await expect(section.getByTestId('plugin-install')).toHaveText('安装插件（.zip）…');
    await expect(section.getByTestId('plugin-install-input')).toBeHidden();
    await expect(section.getByTestId('plugins-empty')).toContainText('plugin.yaml');

    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'broken.zip',
      mimeType: 'application/zip',
      buffer: packageWithManifest('plugin_id: [oops'),
    });
    const refusal = section.getByTestId('plugin-refusal');
    await expect(refusal).toHaveAttribute('data-reason', 'manifest_yaml');
    await expect(refusal).toHaveAttribute('role', 'alert');
    await expect(refusal).toContainText('无法解析 plugin.yaml：第 1 行第 17 列有语法错误。');
    expect(englishWords(await refusal.innerText(), ['plugin.yaml'])).toEqual([]);

    await section.getByTestId('plugin-install-input').setInputFiles({
      name: 'incomplete.zip',
      mimeType: 'application/zip',
      buffer: packageWithManifest('id: half-plugin\nname: Half'),
    });
    await expect(refusal).toHaveAttribute('data-reason', 'manifest_invalid');
    await expect(refusal).toContainText('version：必填；backend：必填');
    expect(englishWords(await refusal.innerText(), ['plugin.yaml', 'version', 'backend'])).toEqual([]);

    // Nothing half-installed: the list is still empty.
    await expect(section.getByTestId('plugins-empty')).toBeVisible();
    await expect(section.getByTestId('plugin-item')).toHaveCount(0);
  });
});

test('the install button opens the file picker; a refusal shows inline and the next attempt clears it', async ({
  page,
}) => {
  await openApp(page);
  const section = await openSettings(page);
  await expect(section.getByTestId('plugins-empty')).toContainText('A plugin package is a .zip');

  const picking = page.waitForEvent('filechooser');
  await section.getByTestId('plugin-install').click();
  await (
    await picking
  ).setFiles({ name: 'notes.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip') });
  const refusal = section.getByTestId('plugin-refusal');
  await expect(refusal).toHaveAttribute('data-reason', 'not_zip');
  await expect(refusal).toContainText('The file is not a zip archive.');

  await section.getByTestId('plugin-install-input').setInputFiles({
    name: 'sample-greeter.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(),
  });
  const plugin = section.locator('[data-testid="plugin-item"][data-plugin-id="sample-greeter"]');
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await expect(refusal).toHaveCount(0);
  // Permissions by their names, the id kept as the tooltip.
  const permission = plugin.locator('[data-permission="secrets.use"]');
  await expect(permission).toHaveText('Use its secrets');
  await expect(permission).toHaveAttribute('title', 'secrets.use');
});

test('a sample plugin: install, configure, run its command and tool, disable, uninstall', async ({
  page,
  requestLog,
}) => {
  await openApp(page);
  const section = await openSettings(page);
  await section.getByTestId('plugin-install-input').setInputFiles({
    name: 'sample-greeter.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(),
  });
  const plugin = section.locator('[data-testid="plugin-item"][data-plugin-id="sample-greeter"]');
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await plugin.getByTestId('plugin-grant').click();
  await expect(plugin).toHaveAttribute('data-state', 'installed');

  // Enabling first asks for the required setting.
  await plugin.getByTestId('plugin-enable').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'greeting' })).toBeVisible();

  await saveSampleGreeterSettings(page, plugin);
  await expect(plugin.locator('#plugin-sample-greeter-api_key')).toHaveValue('');

  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');

  // The published tool, called through the plugin service in the worker.
  const tool = plugin.locator('[data-testid="plugin-tool"][data-tool="sample-greeter.greet"]');
  await tool.getByTestId('plugin-tool-arguments').fill('{"name":"Ada"}');
  await tool.getByTestId('plugin-tool-try').click();
  await expect(tool.getByTestId('plugin-tool-result')).toHaveText('Hello, Ada!');

  // The command palette runs the MCP command; its notification effect is a toast.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  const item = palette.locator(
    '[data-testid="command-palette-item"][data-command-id="sample-greeter.say-hello"]',
  );
  await expect(item).toBeVisible();
  await item.click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Hi, world! (signed)' })).toBeVisible();

  // Disabled: the tool and the command are gone.
  await openSettings(page);
  await plugin.getByTestId('plugin-disable').click();
  await expect(plugin).toHaveAttribute('data-state', 'disabled');
  await expect(plugin.getByTestId('plugin-tool')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  // The app's own commands are still offered; the plugin's is gone.
  await expect(palette.getByTestId('command-palette-built-in').first()).toBeVisible();
  await expect(item).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Uninstalled: a fresh install starts without the old settings and secret.
  await openSettings(page);
  await plugin.getByTestId('plugin-uninstall').click();
  await page.getByTestId('confirm-accept').click();
  await expect(section.getByTestId('plugins-empty')).toBeVisible();
  await section.getByTestId('plugin-install-input').setInputFiles({
    name: 'sample-greeter.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(),
  });
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await expect(plugin.locator('#plugin-sample-greeter-greeting')).toHaveValue('');
  await expect(plugin.getByTestId('plugin-secret-status')).toHaveText('Not set');
  expect(requestLog.foreign()).toEqual([]);
});

test('plugin code runs in a worker without the app storage, the page or the network', async ({ page }) => {
  await openApp(page);
  const section = await openSettings(page);
  await section.getByTestId('plugin-install-input').setInputFiles({
    name: 'storage-probe.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(join(process.cwd(), 'e2e/plugins/storage-probe')),
  });
  const plugin = section.locator('[data-testid="plugin-item"][data-plugin-id="storage-probe"]');
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  const tool = plugin.locator('[data-testid="plugin-tool"][data-tool="storage-probe.probe"]');
  await tool.getByTestId('plugin-tool-try').click();
  const seen = JSON.parse((await tool.getByTestId('plugin-tool-result').textContent()) ?? '{}') as Record<
    string,
    string
  >;
  expect(seen).toEqual({
    indexedDB: 'undefined',
    caches: 'undefined',
    fetch: 'undefined',
    WebSocket: 'undefined',
    storage: 'undefined',
    document: 'undefined',
  });
});
