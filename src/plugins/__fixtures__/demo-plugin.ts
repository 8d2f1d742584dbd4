import type { PackageContents } from '../../packages';
import { installRows, restorePlugin, type LoadedPlugin } from '../plugin-lifecycle';
import { checkPluginPackage } from '../plugin-package';

/**
 * A small plugin package in memory, for the domain's unit tests: one agent
 * tool, a handler command for the palette, an MCP command that needs a
 * selection and a secret, a required setting and a required and an optional
 * secret. Override or remove (undefined) any file.
 */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'plugin.yaml': [
    'id: demo',
    'name: Demo',
    'version: 1.0.0',
    'permissions: [secrets.use]',
    'backend: { type: mcp, transport: worker, entry: server.js }',
    'contributes: { tools: [demo.echo], commands: commands.yaml, settings: settings.yaml }',
  ].join('\n'),
  'commands.yaml': [
    'commands:',
    '  - id: hello',
    '    title: Hello',
    '    locations: [command_palette]',
    '    parameters: { type: object, properties: { message: { type: string, maxLength: 20 } } }',
    '    target: { type: handler, handler: notify }',
    '  - id: shout',
    '    title: Shout',
    '    locations: [context_menu]',
    '    when: [editor.has_selection]',
    '    context: [selection]',
    '    secrets: [token, note]',
    '    target: { type: mcp_tool, tool: demo.shout }',
  ].join('\n'),
  'settings.yaml': [
    'schema_version: 2',
    'fields:',
    '  - { key: greeting, label: Greeting, type: string, required: true }',
    '  - { key: loud, label: Loud, type: boolean, default: false }',
    '  - { key: token, label: Token, type: secret, required: true }',
    '  - { key: note, label: Note, type: secret }',
  ].join('\n'),
  'server.js': 'export default () => ({ connect: async () => {} });',
};

export function demoPackage(overrides: Record<string, string | undefined> = {}): PackageContents {
  const files = new Map<string, Uint8Array>();
  for (const [path, text] of Object.entries({ ...DEMO_FILES, ...overrides })) {
    if (text !== undefined) files.set(path, new TextEncoder().encode(text));
  }
  return { name: 'demo.zip', files };
}

const loaded = new Map<string, LoadedPlugin>();

/**
 * The demo as the service holds it after an install (and a reload): no host,
 * no grants yet. Each call gets its own row to change; the checked
 * contributions are shared, as compiling argument schemas is slow.
 */
export function demoPlugin(overrides: Record<string, string | undefined> = {}): LoadedPlugin {
  const key = JSON.stringify(overrides);
  let plugin = loaded.get(key);
  if (!plugin) {
    const { row } = installRows(checkPluginPackage(demoPackage(overrides)), '2026-01-01T00:00:00.000Z');
    plugin = restorePlugin(row);
    loaded.set(key, plugin);
  }
  return { ...plugin, row: structuredClone(plugin.row) };
}
