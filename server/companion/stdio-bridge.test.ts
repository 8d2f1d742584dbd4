import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../src/contracts/errors';
import { McpHost } from '../../src/plugins/mcp-host';
import { PluginToolRegistry } from '../../src/plugins/plugin-tools';
import { EVERYTHING_SERVER, EVERYTHING_TOOLS, FAKE_SERVER, FAKE_TOOLS } from './__fixtures__/mcp-servers';
import { BoundedStdioTransport } from './stdio-transport';

const here = dirname(fileURLToPath(import.meta.url));
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
});

interface Started {
  host: McpHost;
  registry: PluginToolRegistry;
  stderr: string[];
  /** Resolves with the error the host reported when it broke. */
  broken: Promise<AppError>;
  /** Resolves when a stderr line containing `text` arrives. */
  stderrLine: (text: string) => Promise<string>;
}

function fakeHost(
  pluginId: string,
  mode: string,
  options: {
    tools?: string[];
    toolTimeoutMs?: number;
    startupTimeoutMs?: number;
    registry?: PluginToolRegistry;
  } = {},
): Started {
  return makeHost(
    pluginId,
    [FAKE_SERVER, mode],
    (options.tools ?? FAKE_TOOLS).map((t) => `${pluginId}.${t}`),
    options,
  );
}

/** The reference server over stdio, every one of its tools published as `everything.<tool>`. */
function everythingHost(): Started {
  return makeHost(
    'everything',
    [EVERYTHING_SERVER, 'stdio'],
    EVERYTHING_TOOLS.map((t) => `everything.${t}`),
  );
}

function makeHost(
  pluginId: string,
  args: string[],
  tools: string[],
  options: { toolTimeoutMs?: number; startupTimeoutMs?: number; registry?: PluginToolRegistry } = {},
): Started {
  const registry = options.registry ?? new PluginToolRegistry();
  const stderr: string[] = [];
  const waiters: Array<{ text: string; resolve: (line: string) => void }> = [];
  let reportBroken: (error: AppError) => void = () => {};
  const broken = new Promise<AppError>((resolve) => (reportBroken = resolve));
  const host = new McpHost({
    pluginId,
    transport: 'stdio',
    agentTools: tools,
    commandTools: [],
    permissions: [],
    sink: registry,
    ...(options.toolTimeoutMs !== undefined && { toolTimeoutMs: options.toolTimeoutMs }),
    ...(options.startupTimeoutMs !== undefined && { startupTimeoutMs: options.startupTimeoutMs }),
    onUnhealthy: (error) => reportBroken(error),
    connect: () =>
      new BoundedStdioTransport({
        command: process.execPath,
        args,
        cwd: here,
        sourceEnv: { ...process.env, OPENAI_API_KEY: 'sk-host-secret', APP_DB_PATH: '/tmp/db' },
        onStderr: (line) => {
          stderr.push(line);
          for (const waiter of waiters.filter((w) => line.includes(w.text))) waiter.resolve(line);
        },
      }),
  });
  hosts.push(host);
  const stderrLine = (text: string) =>
    new Promise<string>((resolve) => {
      const seen = stderr.find((line) => line.includes(text));
      if (seen) resolve(seen);
      else waiters.push({ text, resolve });
    });
  return { host, registry, stderr, broken, stderrLine };
}

describe('MCP bridge over stdio, against the reference server', () => {
  it('negotiates 2025-11-25, lists the tools and publishes them namespaced', async () => {
    const { host, registry } = everythingHost();
    const status = await host.start();
    expect(status).toMatchObject({
      plugin_id: 'everything',
      backend_type: 'mcp',
      transport: 'stdio',
      status: 'ready',
      protocol_version: '2025-11-25',
      tools_count: EVERYTHING_TOOLS.length,
      error: null,
    });
    expect(status.server_name).toBeTruthy();
    expect(status.started_at).toMatch(/Z$/);
    expect(
      registry
        .list()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(EVERYTHING_TOOLS.map((t) => `everything.${t}`).sort());
  });

  it('calls tools and maps the results; the host environment does not leak', async () => {
    const { host } = everythingHost();
    await host.start();
    const sum = await host.callTool('everything.get-sum', { a: 2, b: 40 });
    expect(sum.text).toContain('42');
    const echo = await host.callTool('everything.echo', { message: 'hello' });
    expect(echo.text).toContain('hello');
    const env = await host.callTool('everything.get-env', {});
    expect(env.text).not.toContain('sk-host-secret');
    expect(env.text).not.toContain('OPENAI_API_KEY');
    expect(env.text).not.toContain('APP_DB_PATH');
  });

  it('refuses arguments that do not match the tool schema before calling', async () => {
    const { host } = everythingHost();
    await host.start();
    await expect(host.callTool('everything.get-sum', { a: 'two' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('cancels a long operation; the host stays ready and answers the next call', async () => {
    const { host } = everythingHost();
    await host.start();
    const controller = new AbortController();
    const call = host.callTool(
      'everything.trigger-long-running-operation',
      { duration: 60, steps: 60 },
      { signal: controller.signal },
    );
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(host.status().status).toBe('ready');
    expect((await host.callTool('everything.echo', { message: 'still here' })).text).toContain('still here');
  });
});

describe('MCP bridge over stdio, against misbehaving servers', () => {
  it('follows tools/list pages and keeps an older accepted protocol version', async () => {
    const { host, registry } = fakeHost('fake-old', 'old-version');
    const status = await host.start();
    expect(status).toMatchObject({
      status: 'ready',
      protocol_version: '2024-11-05',
      server_name: 'fake-mcp',
      server_version: '1.2.3',
      tools_count: 9,
    });
    expect(registry.list()).toHaveLength(9);
  });

  it('refuses a protocol version outside the accepted list', async () => {
    const { host, registry } = fakeHost('fake-ancient', 'ancient-version');
    await expect(host.start()).rejects.toMatchObject({ code: 'MCP_INITIALIZE_FAILED' });
    expect(host.status()).toMatchObject({ status: 'error', error: { code: 'MCP_INITIALIZE_FAILED' } });
    expect(registry.list()).toEqual([]);
  });

  it('refuses a server without the tools capability', async () => {
    const { host } = fakeHost('fake-none', 'no-tools');
    await expect(host.start()).rejects.toMatchObject({ code: 'MCP_CAPABILITY_UNSUPPORTED' });
  });

  it('fails the start when the server never answers initialize', async () => {
    const { host } = fakeHost('fake-hang', 'hang-init', { startupTimeoutMs: 200 });
    await expect(host.start()).rejects.toMatchObject({ code: 'MCP_INITIALIZE_FAILED' });
    expect(host.status().status).toBe('error');
  });

  it('fails the start when the executable does not exist', async () => {
    const registry = new PluginToolRegistry();
    const host = new McpHost({
      pluginId: 'missing',
      transport: 'stdio',
      agentTools: [],
      commandTools: [],
      permissions: [],
      sink: registry,
      connect: () => new BoundedStdioTransport({ command: 'no-such-mcp-server-binary', args: [], cwd: here }),
    });
    hosts.push(host);
    await expect(host.start()).rejects.toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
  });

  it('publishes nothing when the listed tools differ from the manifest', async () => {
    const { host, registry } = fakeHost('fake-mismatch', 'good', { tools: ['echo'] });
    await expect(host.start()).rejects.toMatchObject({
      code: 'MCP_TOOL_SCHEMA_INVALID',
      details: { reason: expect.stringContaining('undeclared') },
    });
    expect(registry.list()).toEqual([]);
  });

  it('a crash withdraws the tools at once; the other plugin stays healthy; restart brings them back', async () => {
    const shared = new PluginToolRegistry();
    const crashing = fakeHost('fake-crash', 'good', { registry: shared });
    const healthy = fakeHost('fake-ok', 'good', { registry: shared });
    await crashing.host.start();
    await healthy.host.start();
    expect(shared.list()).toHaveLength(18);

    await expect(crashing.host.callTool('fake-crash.crash', {})).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNHEALTHY',
    });
    const reported = await crashing.broken;
    expect(reported.code).toBe('PLUGIN_HOST_UNHEALTHY');
    expect(crashing.host.status()).toMatchObject({
      status: 'unhealthy',
      tools_count: 0,
      error: { code: 'PLUGIN_HOST_UNHEALTHY' },
    });
    expect(shared.list().map((tool) => tool.plugin_id)).toEqual(Array(9).fill('fake-ok'));
    await expect(crashing.host.callTool('fake-crash.echo', { text: 'x' })).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNHEALTHY',
    });
    expect((await healthy.host.callTool('fake-ok.echo', { text: 'fine' })).text).toBe('echo: fine');

    expect(await crashing.host.restart()).toMatchObject({ status: 'ready', tools_count: 9 });
    expect(shared.list()).toHaveLength(18);
  });

  it('a line that is not JSON makes the host unhealthy', async () => {
    const { host, registry, broken } = fakeHost('fake-garbage', 'good');
    await host.start();
    await expect(host.callTool('fake-garbage.garbage', {})).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNHEALTHY',
    });
    expect((await broken).details).toMatchObject({ reason: 'invalid_message' });
    expect(registry.list()).toEqual([]);
  });

  it('a message over 2 MiB is refused before it is read whole; the host goes unhealthy', async () => {
    const { host, broken } = fakeHost('fake-huge', 'good');
    await host.start();
    await expect(host.callTool('fake-huge.oversized', {})).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNHEALTHY',
    });
    expect((await broken).details).toMatchObject({ reason: 'message_too_large' });
  });

  it('a result over 256 KiB is refused; the host stays ready', async () => {
    const { host } = fakeHost('fake-big', 'good');
    await host.start();
    await expect(host.callTool('fake-big.big', {})).rejects.toMatchObject({
      code: 'MCP_TOOL_RESULT_TOO_LARGE',
      status: 413,
    });
    expect(host.status().status).toBe('ready');
  });

  it('a tool error becomes MCP_TOOL_CALL_FAILED with its text', async () => {
    const { host } = fakeHost('fake-fail', 'good');
    await host.start();
    await expect(host.callTool('fake-fail.fail', {})).rejects.toMatchObject({
      code: 'MCP_TOOL_CALL_FAILED',
      message: expect.stringContaining('it went wrong'),
    });
  });

  it('cancellation reaches the server as notifications/cancelled', async () => {
    const { host, stderrLine } = fakeHost('fake-cancel', 'good');
    await host.start();
    const call = host.callTool('fake-cancel.slow', {}, { requestId: 'call-1' });
    const started = await stderrLine('slow started');
    const requestId = started.split(' ').pop();
    expect(host.cancel('call-1')).toBe(true);
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(await stderrLine(`cancelled ${requestId}`)).toBe(`cancelled ${requestId}`);
    expect(host.cancel('call-1')).toBe(false);
  });

  it('a hanging tool call times out as MCP_TOOL_CALL_FAILED and the host stays ready', async () => {
    const { host } = fakeHost('fake-slow', 'good', { toolTimeoutMs: 200 });
    await host.start();
    await expect(host.callTool('fake-slow.slow', {})).rejects.toMatchObject({
      code: 'MCP_TOOL_CALL_FAILED',
      details: { reason: 'timeout' },
    });
    expect(host.status().status).toBe('ready');
  });

  it('a schema that changes between lists to an invalid one withdraws the tools', async () => {
    const { host, registry, broken } = fakeHost('fake-change', 'changing-schema');
    await host.start();
    expect(registry.list()).toHaveLength(9);
    await host.callTool('fake-change.announce', {});
    const error = await broken;
    expect(error.code).toBe('MCP_TOOL_SCHEMA_INVALID');
    expect(host.status()).toMatchObject({ status: 'unhealthy', tools_count: 0 });
    expect(registry.list()).toEqual([]);
  });

  it('stderr stays apart from the protocol', async () => {
    const { host, stderrLine } = fakeHost('fake-stderr', 'good');
    await host.start();
    expect(await stderrLine('fake server good ready')).toBe('fake server good ready');
    expect(host.status().status).toBe('ready');
  });
});
