import { expect, type Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './agent-steps';
import { heldToolPluginZip } from './held-tool-plugin';
import { installPluginZip } from './plugin-steps';
import { closeSettings } from './close-settings';

/** Installs the held-lookup plugin, grants its network permission and enables it; Settings closed after. */
export async function enableHeldLookup(page: Page): Promise<void> {
  const plugin = await installPluginZip(page, 'held-lookup', heldToolPluginZip());
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await plugin.getByTestId('plugin-grant').click();
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await closeSettings(page);
}

/**
 * With the held-lookup plugin enabled, starts an agent run on the script provider at `serverUrl`
 * ("Look it up"); the caller answers the permission prompt for the tool call.
 */
export async function startHeldLookupRun(page: Page, serverUrl: string): Promise<void> {
  await enableHeldLookup(page);
  await addScriptProvider(page, serverUrl);
  await pickScriptModel(page);
  await page.getByTestId('agent-input').fill('Look it up');
  await page.getByTestId('agent-run').click();
}
