import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { describe, expect, it } from 'vitest';
import { demoPlugin } from './__fixtures__/demo-plugin';
import { connectPlugin, type ConnectOptions } from './plugin-runtime';

const transport = (label: string) => ({ label }) as unknown as Transport;
const noCompanion: ConnectOptions['companion'] = async () => {
  throw new Error('the companion is not used here');
};
const manifest = (backend: string, permissions = '[]') =>
  `id: demo\nname: Demo\nversion: 1.0.0\npermissions: ${permissions}\nbackend: ${backend}`;

describe('connecting a plugin by its transport', () => {
  it('a worker plugin gets its server module and its grants', async () => {
    const plugin = demoPlugin();
    plugin.row.granted_permissions = ['secrets.use'];
    const seen: Array<{ code: string; permissions: readonly string[] }> = [];
    const connected = await connectPlugin(plugin, {
      connectors: {
        worker: async (code, permissions) => {
          seen.push({ code: new TextDecoder().decode(code), permissions });
          return transport('worker');
        },
      },
      companion: noCompanion,
    });
    expect(connected).toEqual({ label: 'worker' });
    expect(seen).toEqual([
      { code: 'export default () => ({ connect: async () => {} });', permissions: ['secrets.use'] },
    ]);
  });

  it('a worker plugin without workers here, or without its module, cannot start', async () => {
    await expect(
      connectPlugin(demoPlugin(), { connectors: {}, companion: noCompanion }),
    ).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      details: { plugin_id: 'demo', transport: 'worker' },
    });
    const plugin = demoPlugin();
    plugin.row.files = {};
    await expect(
      connectPlugin(plugin, {
        connectors: { worker: async () => transport('worker') },
        companion: noCompanion,
      }),
    ).rejects.toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
  });

  it('stdio goes to its connector, else through the paired companion with its command and arguments', async () => {
    const plugin = demoPlugin({
      'plugin.yaml': manifest('{ type: mcp, transport: stdio, command: node, args: [server.js] }'),
    });
    const servers: unknown[] = [];
    const companion: ConnectOptions['companion'] = async (server) => {
      servers.push(server);
      return transport('companion');
    };
    expect(await connectPlugin(plugin, { connectors: {}, companion })).toEqual({ label: 'companion' });
    expect(servers).toEqual([{ pluginId: 'demo', command: 'node', args: ['server.js'] }]);
    const viaConnector = await connectPlugin(plugin, {
      connectors: { stdio: async () => transport('stdio') },
      companion,
    });
    expect(viaConnector).toEqual({ label: 'stdio' });
    expect(servers).toHaveLength(1);
  });

  it('a remote server goes to the HTTP connector with its URL', async () => {
    const plugin = demoPlugin({
      'plugin.yaml': manifest(
        '{ type: mcp, transport: streamable_http, url: "https://mcp.example.test/mcp" }',
        '[network]',
      ),
    });
    const urls: string[] = [];
    await connectPlugin(plugin, {
      connectors: {
        http: async (url) => {
          urls.push(url);
          return transport('http');
        },
      },
      companion: noCompanion,
    });
    expect(urls).toEqual(['https://mcp.example.test/mcp']);
  });
});
