import { strToU8, zipSync } from 'fflate';
import { installPluginZip } from './harness/plugin-steps';
import { expect, openApp, test } from './fixtures';

/** A worker plugin with one tool, `fails`, that runs and throws `message`. */
function throwingPlugin(id: string, message: string): Buffer {
  const manifest = [
    `id: ${id}`,
    `name: ${id}`,
    'version: 0.1.0',
    'backend:',
    '  type: mcp',
    '  transport: worker',
    '  entry: server.js',
    'contributes:',
    `  tools: [${id}.fails]`,
    '',
  ].join('\n');
  const server = `export default function createServer({ Server, ListToolsRequestSchema, CallToolRequestSchema }) {
  const server = new Server({ name: '${id}', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: 'fails', description: 'Fails.', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => { throw new Error(${JSON.stringify(message)}); });
  return server;
}
`;
  return Buffer.from(zipSync({ plugin: { 'plugin.yaml': strToU8(manifest), 'server.js': strToU8(server) } }));
}

test('Try on a tool that ran and threw says it ran and reported that error, not that it did not run', async ({
  page,
}) => {
  await openApp(page);
  const plugin = await installPluginZip(
    page,
    'thrower',
    throwingPlugin('thrower', 'the index is not built yet'),
  );
  await expect(plugin).toHaveAttribute('data-state', 'installed');
  await plugin.getByTestId('plugin-enable').click();
  await expect(plugin).toHaveAttribute('data-state', 'enabled');
  await plugin.getByTestId('plugin-tool-try').click();
  await expect(plugin.getByTestId('plugin-tool-failed')).toHaveText(
    'The tool ran and reported an error: the index is not built yet',
  );
});
