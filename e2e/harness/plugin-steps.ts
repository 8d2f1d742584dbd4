import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { expect, type Locator, type Page } from '@playwright/test';
import { addScriptProvider, pickScriptModel } from './agent-steps';
import { closeSettings } from './close-settings';

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

/** Saves the sample greeter's required setting (greeting "Hi") and its secret, each confirmed. */
export async function saveSampleGreeterSettings(page: Page, plugin: Locator): Promise<void> {
  await plugin.locator('#plugin-sample-greeter-greeting').fill('Hi');
  await plugin.getByTestId('plugin-settings-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved.' })).toBeVisible();
  await plugin.locator('#plugin-sample-greeter-api_key').fill('sk-sample-secret');
  await plugin.getByTestId('plugin-secret-save').click();
  await expect(plugin.getByTestId('plugin-secret-status')).toHaveText('Configured');
}

/**
 * Installs the package in `e2e/plugins/<pluginId>` from Settings (opened first) and gives
 * its row in the plugin list; the caller waits for the state it expects.
 */
export async function installPluginPackage(page: Page, pluginId = 'sample-greeter'): Promise<Locator> {
  return installPluginZip(page, pluginId, samplePackage(join(process.cwd(), 'e2e/plugins', pluginId)));
}

/**
 * Installs a plugin package built by the test (`zip`) from Settings (opened first) and gives
 * its row; the caller waits for the state it expects.
 */
export async function installPluginZip(page: Page, pluginId: string, zip: Buffer): Promise<Locator> {
  const section = await openPluginSettings(page);
  await section.getByTestId('plugin-install-input').setInputFiles({
    name: `${pluginId}.zip`,
    mimeType: 'application/zip',
    buffer: zip,
  });
  return pluginItem(section, pluginId);
}

/**
 * Installs the sample greeter from Settings, grants its permission, saves its
 * required setting and secret and enables it. Leaves Settings open.
 */
export async function installAndEnableSampleGreeter(page: Page): Promise<Locator> {
  const plugin = await installPluginPackage(page);
  await expect(plugin).toHaveAttribute('data-state', 'permission_required');
  await plugin.getByTestId('plugin-grant').click();
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await saveSampleGreeterSettings(page, plugin);
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  return plugin;
}

/** The editor's plugin context menu and the sample greeter's entries in it. */
export function greeterContextMenu(page: Page): { menu: Locator; item: (command: string) => Locator } {
  const menu = page.getByTestId('editor-context-menu');
  return {
    menu,
    item: (command) =>
      menu.locator(`[data-testid="editor-context-menu-item"][data-command-id="sample-greeter.${command}"]`),
  };
}

/**
 * With nothing selected, `openMenu` (a right-click) offers the greeting but not
 * the command that needs a selection; Escape closes the menu and gives the
 * focus back to `editor`.
 */
export async function expectGreeterMenuWithoutSelection(
  page: Page,
  editor: Locator,
  openMenu: () => Promise<void>,
): Promise<void> {
  const { menu, item } = greeterContextMenu(page);
  await openMenu();
  await expect(menu).toBeVisible();
  await expect(item('say-hello')).toBeVisible();
  await expect(item('say-selection')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(editor).toBeFocused();
}

/**
 * With text selected in the focused editor, from the keyboard: Shift+F10 opens
 * the menu on its first entry, ArrowDown moves to the selection's command and
 * Enter runs it (its toast shows) and closes the menu.
 */
export async function runGreetSelectionFromKeyboard(page: Page): Promise<void> {
  const { menu, item } = greeterContextMenu(page);
  await page.keyboard.press('Shift+F10');
  await expect(menu).toBeVisible();
  await expect(item('say-hello')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(item('say-selection')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: 'Greet the selection' })).toBeVisible();
}

/**
 * The sample greeter enabled, the scripted provider at `serverUrl` added and its model picked
 * in the Agent view: ready for a run that calls the greeter's tool.
 */
export async function greeterOnScriptModel(page: Page, serverUrl: string): Promise<void> {
  await installAndEnableSampleGreeter(page);
  await closeSettings(page);
  await addScriptProvider(page, serverUrl);
  await pickScriptModel(page);
}

/**
 * A worker plugin as its author writes it: a manifest contributing `contributes` (tool names,
 * without the plugin id) and a server.js whose tools/list answers `tools` (source of the array)
 * and whose tools/call runs `call` (source of the handler's body).
 */
export function workerPluginZip({
  id,
  contributes,
  tools,
  call,
}: {
  id: string;
  contributes: readonly string[];
  tools: string;
  call: string;
}): Buffer {
  const manifest = [
    `id: ${id}`,
    `name: ${id}`,
    'version: 0.1.0',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    'contributes:',
    `  tools: [${contributes.map((name) => `${id}.${name}`).join(', ')}]`,
    '',
  ].join('\n');
  const server = `export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: '${id}', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: ${tools} }));
  server.setRequestHandler(CallToolRequestSchema, async () => { ${call} });
  return server;
}
`;
  return Buffer.from(zipSync({ plugin: { 'plugin.yaml': strToU8(manifest), 'server.js': strToU8(server) } }));
}
