import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { expect, type Locator, type Page } from '@playwright/test';

export const SAMPLE_PLUGIN_DIR = join(process.cwd(), 'e2e/plugins/sample-greeter');

/** A plugin folder zipped the way users ship it: everything under `plugin/`. */
export function samplePackage(dir = SAMPLE_PLUGIN_DIR): Buffer {
  const files: Zippable = {};
  for (const name of readdirSync(dir)) files[name] = new Uint8Array(readFileSync(join(dir, name)));
  return Buffer.from(zipSync({ plugin: files }));
}

/** Opens Settings and returns its plugin section. */
export async function openPluginSettings(page: Page): Promise<Locator> {
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-nav-plugins').click();
  return page.getByTestId('plugin-settings');
}

export function pluginItem(section: Locator, pluginId: string): Locator {
  return section.locator(`[data-testid="plugin-item"][data-plugin-id="${pluginId}"]`);
}

/**
 * Installs the sample greeter from Settings, grants its permission, saves its
 * required setting and secret and enables it. Leaves Settings open.
 */
export async function installAndEnableSampleGreeter(page: Page): Promise<Locator> {
  const section = await openPluginSettings(page);
  await section.getByTestId('plugin-install-input').setInputFiles({
    name: 'sample-greeter.zip',
    mimeType: 'application/zip',
    buffer: samplePackage(),
  });
  const plugin = pluginItem(section, 'sample-greeter');
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await plugin.getByTestId('plugin-grant').click();
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.locator('#plugin-sample-greeter-greeting').fill('Hi');
  await plugin.getByTestId('plugin-settings-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await plugin.locator('#plugin-sample-greeter-api_key').fill('sk-sample-secret');
  await plugin.getByTestId('plugin-secret-save').click();
  await expect(plugin.getByTestId('plugin-secret-status')).toHaveText('Configured');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  return plugin;
}
