import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diagnoseUnreachable, streamableHttpTransport } from '../../src/plugins/http-transport';
import { McpHost } from '../../src/plugins/mcp-host';
import { PluginToolRegistry } from '../../src/plugins/plugin-tools';
import { EVERYTHING_SERVER, EVERYTHING_TOOLS } from './__fixtures__/mcp-servers';

const TOOLS = EVERYTHING_TOOLS.map((tool) => `remote.${tool}`);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let server: ChildProcess;
let url: string;
beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/mcp`;
  server = spawn(process.execPath, [EVERYTHING_SERVER, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // The server says on stderr when it listens.
  await new Promise<void>((resolve) => {
    server.stderr!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve();
    });
  });
});
afterAll(() => {
  server.kill('SIGKILL');
});

function remoteHost(fetchImpl?: typeof fetch) {
  const registry = new PluginToolRegistry();
  const host = new McpHost({
    pluginId: 'remote',
    transport: 'streamable_http',
    agentTools: TOOLS,
    commandTools: [],
    permissions: ['network'],
    sink: registry,
    connect: () =>
      streamableHttpTransport(url, {
        ...(fetchImpl && { fetch: fetchImpl }),
        origin: 'http://127.0.0.1:4173',
      }),
  });
  return { host, registry };
}

describe('MCP bridge over Streamable HTTP, against the reference server', () => {
  it('lists, calls and cancels', async () => {
    const { host, registry } = remoteHost();
    expect(await host.start()).toMatchObject({
      status: 'ready',
      transport: 'streamable_http',
      protocol_version: '2025-11-25',
    });
    expect(registry.list()).toHaveLength(TOOLS.length);
    expect((await host.callTool('remote.get-sum', { a: 1, b: 2 })).text).toContain('3');
    const controller = new AbortController();
    const slow = host.callTool(
      'remote.trigger-long-running-operation',
      { duration: 60, steps: 60 },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' });
    expect((await host.callTool('remote.echo', { message: 'after cancel' })).text).toContain('after cancel');
    await host.stop();
  });

  it('a refused origin is diagnosed as CORS, an absent server as unreachable', async () => {
    // What a browser does when the server refuses the origin: the CORS request fails, an opaque one gets through.
    const corsRefusing: typeof fetch = async (input, init) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
      throw new TypeError('Failed to fetch');
    };
    const { host } = remoteHost(corsRefusing);
    await expect(host.start()).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      details: { reason: 'cors', origin: 'http://127.0.0.1:4173' },
    });
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(diagnoseUnreachable(url, down, null)).resolves.toMatchObject({
      details: { reason: 'unreachable' },
    });
  });
});
