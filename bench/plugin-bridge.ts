// Plugin tools/call round trips: through the app's path (McpHost with its
// checks, over the postMessage transport a plugin worker uses; or through the
// companion's WebSocket relay to a stdio server) beside a bare SDK client
// calling the same server (in memory; or over the SDK's own stdio transport).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';
import { CompanionTransport, type SocketFactory } from '../src/plugins/companion-transport';
import { McpHost } from '../src/plugins/mcp-host';
import { PluginToolRegistry } from '../src/plugins/plugin-tools';
import { PostMessageTransport } from '../src/plugins/post-message-transport';
import { startCompanion } from '../server/companion/companion';
import { compare, type BenchResult } from './harness';

const sdk = { McpServer, Server, CallToolRequestSchema, ListToolsRequestSchema };
type PluginModule = { default: (api: typeof sdk) => Server };
const samplePath = join(process.cwd(), 'e2e/plugins/sample-greeter/server.js');
const fakeServer = join(process.cwd(), 'server/companion/__fixtures__/fake-mcp-server.mjs');
const FAKE_TOOLS = ['echo', 'slow', 'crash', 'big', 'fail', 'env', 'garbage', 'oversized', 'announce'];

async function sampleServer(): Promise<Server> {
  const source = readFileSync(samplePath).toString('base64');
  const module = (await import(`data:text/javascript;base64,${source}`)) as PluginModule;
  return module.default(sdk);
}

export async function pluginBridgeBenchmarks(scale: number): Promise<BenchResult[]> {
  const calls = Math.max(50, Math.round(2_000 * scale));
  const results: BenchResult[] = [];

  // Worker transport (a MessageChannel stands in for the worker boundary).
  const channel = new MessageChannel();
  channel.port1.start();
  channel.port2.start();
  await (await sampleServer()).connect(new PostMessageTransport(channel.port2));
  const host = new McpHost({
    pluginId: 'sample-greeter',
    transport: 'worker',
    agentTools: ['sample-greeter.greet'],
    commandTools: ['sample-greeter.compose'],
    permissions: [],
    sink: new PluginToolRegistry(),
    connect: () => new PostMessageTransport(channel.port1),
  });
  await host.start();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await (await sampleServer()).connect(serverSide);
  const direct = new Client({ name: 'bench', version: '1' });
  await direct.connect(clientSide);
  const worker = await compare(
    `plugin tools/call via worker transport (${calls} calls)`,
    'SDK client, in memory',
    async () => {
      for (let i = 0; i < calls; i++) await host.callTool('sample-greeter.greet', { name: `n${i}` });
    },
    async () => {
      for (let i = 0; i < calls; i++) await direct.callTool({ name: 'greet', arguments: { name: `n${i}` } });
    },
  );
  results.push({ ...worker, note: `${((calls / worker.ms) * 1000).toFixed(0)} calls/s` });
  await host.stop();
  await direct.close();
  channel.port1.close();
  channel.port2.close();

  // Companion relay vs the SDK's stdio client to the same server.
  const stdioCalls = Math.max(20, Math.round(500 * scale));
  const companion = await startCompanion({
    config: {
      environment: 'development',
      plugins_dir: process.cwd(),
      allowed_origins: [],
      approved: [],
      env_allow_list: [],
      port: 0,
    },
  });
  const paired = await fetch(`http://127.0.0.1:${companion.port}/pair`, {
    method: 'POST',
    body: JSON.stringify({ code: companion.pairingCode }),
  });
  const { token } = (await paired.json()) as { token: string };
  const socketFactory: SocketFactory = (url, protocols) =>
    new WebSocket(url, protocols) as unknown as ReturnType<SocketFactory>;
  const relayed = new McpHost({
    pluginId: 'fake',
    transport: 'stdio',
    agentTools: FAKE_TOOLS.map((tool) => `fake.${tool}`),
    commandTools: [],
    permissions: [],
    sink: new PluginToolRegistry(),
    connect: () =>
      new CompanionTransport(
        {
          url: `ws://127.0.0.1:${companion.port}/`,
          token,
          pluginId: 'fake',
          command: 'node',
          args: [fakeServer, 'good'],
        },
        socketFactory,
      ),
  });
  await relayed.start();
  const stdioClient = new Client({ name: 'bench', version: '1' });
  await stdioClient.connect(
    new StdioClientTransport({ command: process.execPath, args: [fakeServer, 'good'], stderr: 'ignore' }),
  );
  const viaCompanion = await compare(
    `plugin tools/call via companion (${stdioCalls} calls)`,
    'SDK stdio client',
    async () => {
      for (let i = 0; i < stdioCalls; i++) await relayed.callTool('fake.echo', { text: `t${i}` });
    },
    async () => {
      for (let i = 0; i < stdioCalls; i++)
        await stdioClient.callTool({ name: 'echo', arguments: { text: `t${i}` } });
    },
  );
  results.push({ ...viaCompanion, note: `${((stdioCalls / viaCompanion.ms) * 1000).toFixed(0)} calls/s` });
  await relayed.stop();
  await stdioClient.close();
  await companion.close();
  return results;
}
