import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessPluginWorker } from './__fixtures__/in-process-worker';
import { McpHost } from './mcp-host';
import { PluginToolRegistry } from './plugin-tools';
import { PostMessageTransport } from './post-message-transport';
import type { TransportFault } from './transport-fault';
import { connectPluginWorker } from './worker-connector';

const sampleServer = new Uint8Array(
  readFileSync(join(process.cwd(), 'e2e/plugins/sample-greeter/server.js')),
);
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

function workerHost(code: Uint8Array, registry = new PluginToolRegistry()) {
  const workers: Array<ReturnType<typeof inProcessPluginWorker>> = [];
  const host = new McpHost({
    pluginId: 'sample-greeter',
    transport: 'worker',
    agentTools: ['sample-greeter.greet'],
    commandTools: ['sample-greeter.compose'],
    permissions: [],
    sink: registry,
    connect: () =>
      connectPluginWorker(
        () => {
          const worker = inProcessPluginWorker();
          workers.push(worker);
          return worker;
        },
        code,
        [],
      ),
  });
  hosts.push(host);
  return { host, registry, workers };
}

describe('plugin servers behind the postMessage transport', () => {
  it('loads the module, negotiates and publishes only the agent tools', async () => {
    const { host, registry } = workerHost(sampleServer);
    expect(await host.start()).toMatchObject({
      status: 'ready',
      transport: 'worker',
      protocol_version: '2025-11-25',
      server_name: 'sample-greeter',
      server_version: '1.0.0',
      tools_count: 2,
    });
    expect(registry.list().map((tool) => tool.name)).toEqual(['sample-greeter.greet']);
    expect((await host.callTool('sample-greeter.greet', { name: 'Ada' })).text).toBe('Hello, Ada!');
  });

  it('a module that fails to load is PLUGIN_HOST_START_FAILED and its worker is ended', async () => {
    const { host, workers } = workerHost(new TextEncoder().encode('export default 42; syntax error here'));
    await expect(host.start()).rejects.toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
    expect(workers[0]?.terminated).toBe(true);
  });

  it('stopping the host ends the worker', async () => {
    const { host, workers } = workerHost(sampleServer);
    await host.start();
    await host.stop();
    expect(workers[0]?.terminated).toBe(true);
    expect(host.status()).toMatchObject({ status: 'stopped', tools_count: 0 });
  });

  it('refuses a message over the cap before parsing it, and text that is not JSON-RPC', async () => {
    const channel = new MessageChannel();
    const transport = new PostMessageTransport(channel.port1, { maxMessageBytes: 64 });
    const faults: TransportFault[] = [];
    const received: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      transport.onerror = (error) => {
        faults.push(error as TransportFault);
        if (faults.length === 2) resolve();
      };
    });
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    channel.port1.start();
    channel.port2.postMessage({
      channel: 'mcp',
      text: JSON.stringify({ jsonrpc: '2.0', method: 'x'.repeat(100) }),
    });
    channel.port2.postMessage({ channel: 'mcp', text: '{"not":"rpc"}' });
    await done;
    expect(faults.map((fault) => fault.kind)).toEqual(['message_too_large', 'invalid_message']);
    expect(received).toEqual([]);
    await transport.close();
    channel.port2.close();
  });
});
