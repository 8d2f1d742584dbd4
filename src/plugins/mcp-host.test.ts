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

/** A host on an in-memory server whose tools answer as `call` says; `tools` is what tools/list gives. */
async function hostOn(
  tools: Record<string, unknown>[],
  call: (name: string) => unknown,
  options: { toolTimeoutMs?: number } = {},
): Promise<{ host: McpHost; sink: PluginToolRegistry }> {
  const server = new Server({ name: 'anna-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }) as never);
  server.setRequestHandler(CallToolRequestSchema, (request) => call(request.params.name) as never);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const sink = new PluginToolRegistry();
  const host = new McpHost({
    pluginId: 'anna-tools',
    transport: 'worker',
    agentTools: tools.map((tool) => `anna-tools.${String(tool.name)}`),
    commandTools: [],
    permissions: [],
    sink,
    connect: () => clientSide,
    ...options,
  });
  hosts.push(host);
  return { host, sink };
}

const OBJECT_SCHEMA = { type: 'object', properties: {} };

async function failureOf(promise: Promise<unknown>) {
  const failure: unknown = await promise.catch((error: unknown) => error);
  expect(isAppError(failure)).toBe(true);
  return failure as { code: string; message: string; details: Record<string, unknown> };
}

describe('McpHost messages a plugin author reads', () => {
  it('a tool without inputSchema is named, with the field, not "failed on tools/list"', async () => {
    const { host } = await hostOn([{ name: 'cite', description: 'Cites.' }], () => ({ content: [] }));
    const error = await failureOf(host.start());
    expect(error.code).toBe('MCP_TOOL_SCHEMA_INVALID');
    expect(error.message).toBe(
      'The plugin "anna-tools" offers the tool "cite" with no inputSchema (every tool needs an object JSON Schema there).',
    );
    expect(error.details).toMatchObject({ tool: 'cite', problem: 'schema_not_object' });
  });

  it('a tool that returns a bare string is said to have run and returned an invalid result, once, without raw zod', async () => {
    const { host } = await hostOn([{ name: 'echo', inputSchema: OBJECT_SCHEMA }], () => 'just text');
    await host.start();
    const error = await failureOf(host.callTool('anna-tools.echo', {}));
    expect(error.code).toBe('MCP_TOOL_CALL_FAILED');
    expect(error.message).toMatch(
      /^The tool anna-tools\.echo ran but returned a result that is not valid MCP/,
    );
    expect(error.message).toContain('{ content: [{ type: "text", text: "…" }] }');
    expect(error.message).not.toContain('MCP error');
    expect(error.message).not.toContain('[{"');
    // What Settings' Try reads to say "not an MCP tool result", not "an MCP error (-32602)".
    expect(error.details).toMatchObject({ reason: 'invalid_result' });
  });

  it('a tool that throws failed (it ran), not "refused"', async () => {
    const { host } = await hostOn([{ name: 'boom', inputSchema: OBJECT_SCHEMA }], () => {
      throw new Error('no network');
    });
    await host.start();
    const error = await failureOf(host.callTool('anna-tools.boom', {}));
    expect(error.code).toBe('MCP_TOOL_CALL_FAILED');
    expect(error.message).toBe(
      'The tool anna-tools.boom failed with an error in the plugin "anna-tools": no network',
    );
    expect(error.details).toMatchObject({ mcp_code: -32603 });
  });

  it('publishes agent tools with the manifest tool timeout, so the agent waits as long as the host', async () => {
    const { host, sink } = await hostOn(
      [{ name: 'fetch', inputSchema: OBJECT_SCHEMA }],
      () => ({ content: [] }),
      {
        toolTimeoutMs: 90_000,
      },
    );
    await host.start();
    expect(sink.get('anna-tools.fetch')?.timeout_ms).toBe(90_000);
  });
});
