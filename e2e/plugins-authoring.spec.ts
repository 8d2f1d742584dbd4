import { strToU8, zipSync } from 'fflate';
import { installPluginZip } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** A worker plugin as its author writes it: a manifest and a server.js whose tools list `tools` and answer `call`. */
function authoredPlugin(id: string, tools: string, call: string): Buffer {
  const manifest = [
    `id: ${id}`,
    `name: ${id}`,
    'version: 0.1.0',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    'contributes:',
    `  tools: [${id}.boom]`,
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
