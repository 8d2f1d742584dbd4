import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../contracts';
import { McpHost } from './mcp-host';
import { PluginToolRegistry } from './plugin-tools';
import { TransportFault } from './transport-fault';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

/** A server whose answer to `tools/call` never reaches the client: its transport reports it oversized. */
async function hostWithOversizedAnswer(): Promise<McpHost> {
  const server = new Server({ name: 'evil-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'huge', description: 'A huge answer.', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'x' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  // What the postMessage transport does with a message over the limit: a fault, not the message.
  const connect = (): Transport => {
    const transport: Transport = {
      start: () => clientSide.start(),
      send: (message) => clientSide.send(message),
      close: () => clientSide.close(),
    };
    clientSide.onclose = () => transport.onclose?.();
    clientSide.onmessage = (message) => {
      if ('result' in message && 'content' in (message.result as object)) {
        transport.onerror?.(
          new TransportFault('message_too_large', 'a message is larger than 2097152 bytes'),
        );
        return;
      }
      transport.onmessage?.(message);
    };
    return transport;
  };
  const host = new McpHost({
    pluginId: 'evil-tools',
    transport: 'worker',
    agentTools: ['evil-tools.huge'],
    commandTools: [],
    permissions: [],
    sink: new PluginToolRegistry(),
    connect,
  });
  hosts.push(host);
  return host;
}

describe('McpHost tool calls', () => {
  it('a call cut off by a transport fault keeps the fault as its reason, with what to do next', async () => {
    const host = await hostWithOversizedAnswer();
    expect((await host.start()).status).toBe('ready');
    const failure: unknown = await host.callTool('evil-tools.huge', {}).catch((error: unknown) => error);
    expect(isAppError(failure)).toBe(true);
    const error = failure as { code: string; message: string; details: Record<string, unknown> };
    expect(error.code).toBe('PLUGIN_HOST_UNHEALTHY');
    expect(error.message).toContain('a message is larger than 2097152 bytes');
    expect(error.message).toContain('Restart the plugin in Settings → Plugins');
    expect(error.details).toMatchObject({ reason: 'message_too_large' });
    expect(host.status()).toMatchObject({ status: 'unhealthy', error: { code: 'PLUGIN_HOST_UNHEALTHY' } });
  });
});
