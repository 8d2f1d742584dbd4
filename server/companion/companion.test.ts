import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CompanionTransport, type SocketFactory } from '../../src/plugins/companion-transport';
import { McpHost } from '../../src/plugins/mcp-host';
import { PluginToolRegistry } from '../../src/plugins/plugin-tools';
import { FAKE_SERVER, FAKE_TOOLS } from './__fixtures__/mcp-servers';
import {
  companionConfigSchema,
  DEFAULT_ALLOWED_ORIGINS,
  resolveExecutable,
  startCompanion,
  type Companion,
  type CompanionConfig,
} from './companion';

const socketFactory: SocketFactory = (url, protocols) =>
  new WebSocket(url, protocols) as unknown as ReturnType<SocketFactory>;

const running: Companion[] = [];
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.stop()));
  await Promise.all(running.splice(0).map((companion) => companion.close()));
});

interface Started {
  companion: Companion;
  events: Array<{ plugin_id: string; event: string }>;
  exited: Promise<void>;
}

async function companionWith(config: Partial<CompanionConfig>): Promise<Started> {
  const events: Array<{ plugin_id: string; event: string }> = [];
  let markExited: () => void = () => {};
  const exited = new Promise<void>((resolve) => (markExited = resolve));
  const companion = await startCompanion({
    config: {
      environment: 'production',
      plugins_dir: mkdtempSync(join(tmpdir(), 'companion-')),
      allowed_origins: [],
      approved: [],
      env_allow_list: [],
      port: 0,
      ...config,
    },
    env: { ...process.env, OPENAI_API_KEY: 'sk-host-secret', APP_DB_PATH: '/tmp/db' },
    onProcess: (event) => {
      events.push(event);
      if (event.event === 'exited') markExited();
    },
  });
  running.push(companion);
  return { companion, events, exited };
}

async function pair(companion: Companion, code = companion.pairingCode): Promise<Response> {
  return fetch(`http://127.0.0.1:${companion.port}/pair`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
}

function hostThrough(companion: Companion, token: string, command: string, args: string[]) {
  const registry = new PluginToolRegistry();
  const host = new McpHost({
    pluginId: 'fake',
    transport: 'stdio',
    agentTools: FAKE_TOOLS.map((tool) => `fake.${tool}`),
    commandTools: [],
    permissions: [],
    sink: registry,
    connect: () =>
      new CompanionTransport(
        { url: `ws://127.0.0.1:${companion.port}/`, token, pluginId: 'fake', command, args },
        socketFactory,
      ),
  });
  hosts.push(host);
  return { host, registry };
}

const APPROVED = { plugin_id: 'fake', command: 'node', args: [FAKE_SERVER, 'good'] };

describe('the Node companion', () => {
  it('pairs once with the printed code; a wrong or reused code is refused', async () => {
    const { companion } = await companionWith({});
    expect(companion.pairingCode).toMatch(/^\d{8}$/);
    expect((await pair(companion, '00000000x')).status).toBe(401);
    const paired = await pair(companion);
    expect(paired.status).toBe(200);
    expect(((await paired.json()) as { token: string }).token).toMatch(/^[\w-]{40,}$/);
    expect((await pair(companion)).status).toBe(401);
  });

  it('refuses a connection without the token', async () => {
    const { companion } = await companionWith({ approved: [APPROVED] });
    const { host } = hostThrough(companion, 'not-a-token', APPROVED.command, APPROVED.args);
    await expect(host.start()).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNAVAILABLE' });
  });

  it('outside development, an unapproved command is MCP_TRUST_APPROVAL_REQUIRED (403) and starts nothing', async () => {
    const { companion, events } = await companionWith({ approved: [APPROVED] });
    const { token } = (await (await pair(companion)).json()) as { token: string };
    const { host, registry } = hostThrough(companion, token, 'node', [FAKE_SERVER, 'crash-mode']);
    await expect(host.start()).rejects.toMatchObject({ code: 'MCP_TRUST_APPROVAL_REQUIRED', status: 403 });
    expect(events).toEqual([]);
    expect(registry.list()).toEqual([]);
  });

  it('relays an approved stdio server: tools listed and called, no host environment, process gone on stop', async () => {
    const { companion, events, exited } = await companionWith({ approved: [APPROVED] });
    const { token } = (await (await pair(companion)).json()) as { token: string };
    const { host, registry } = hostThrough(companion, token, APPROVED.command, APPROVED.args);
    expect(await host.start()).toMatchObject({ status: 'ready', server_name: 'fake-mcp', tools_count: 9 });
    expect(registry.list()).toHaveLength(9);
    expect((await host.callTool('fake.echo', { text: 'via companion' })).text).toBe('echo: via companion');
    const env = (await host.callTool('fake.env', {})).text;
    expect(env).not.toContain('OPENAI_API_KEY');
    expect(env).not.toContain('APP_DB_PATH');
    expect(events.map((event) => event.event)).toEqual(['started']);
    await host.stop();
    await exited;
    expect(events.map((event) => event.event)).toEqual(['started', 'exited']);
  });

  it('a crash through the companion makes the host unhealthy and withdraws the tools', async () => {
    const { companion } = await companionWith({ approved: [APPROVED] });
    const { token } = (await (await pair(companion)).json()) as { token: string };
    const { host, registry } = hostThrough(companion, token, APPROVED.command, APPROVED.args);
    await host.start();
    await expect(host.callTool('fake.crash', {})).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNHEALTHY' });
    expect(host.status().status).toBe('unhealthy');
    expect(registry.list()).toEqual([]);
  });

  it('development mode starts a well-formed command without approval', async () => {
    const { companion } = await companionWith({ environment: 'development' });
    const { token } = (await (await pair(companion)).json()) as { token: string };
    const { host } = hostThrough(companion, token, 'node', [FAKE_SERVER, 'good']);
    expect(await host.start()).toMatchObject({ status: 'ready' });
  });

  it('refuses a shell string and an executable outside the plugin folder', async () => {
    const { companion } = await companionWith({ environment: 'development' });
    const { token } = (await (await pair(companion)).json()) as { token: string };
    const shell = hostThrough(companion, token, 'sh -c "echo hi"', []);
    await expect(shell.host.start()).rejects.toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
    const outside = hostThrough(companion, token, '../../bin/sh', []);
    await expect(outside.host.start()).rejects.toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
  });
});

describe('resolveExecutable', () => {
  it('keeps bare names for PATH and only paths that stay inside the package', () => {
    const root = mkdtempSync(join(tmpdir(), 'plugins-'));
    mkdirSync(join(root, 'demo', 'bin'), { recursive: true });
    writeFileSync(join(root, 'demo', 'bin', 'server'), '#!/bin/sh\n');
    symlinkSync('/bin/sh', join(root, 'demo', 'bin', 'escape'));
    expect(resolveExecutable(root, 'demo', 'uvx')).toBe('uvx');
    expect(resolveExecutable(root, 'demo', './bin/server')).toBe(join(root, 'demo', 'bin', 'server'));
    expect(resolveExecutable(root, 'demo', '../other/server')).toBeNull();
    expect(resolveExecutable(root, 'demo', '/bin/sh')).toBeNull();
    expect(resolveExecutable(root, 'demo', './bin/escape')).toBeNull();
    expect(resolveExecutable(root, 'demo', './bin/missing')).toBeNull();
  });
});

describe('pairing from the app', () => {
  it('keeps the token in the vault and starts stdio plugins through the companion', async () => {
    const { freshDatabase } = await import('../../src/db/test-database');
    const { SecretsVault } = await import('../../src/db');
    const { PluginRepository } = await import('../../src/db/plugin-stores');
    const { PluginService } = await import('../../src/services/plugin-service');
    const { zipSync } = await import('fflate');
    const { companion } = await companionWith({ approved: [APPROVED] });
    const db = freshDatabase();
    const vault = new SecretsVault(db);
    const service = new PluginService({
      repository: new PluginRepository(db),
      vault,
      connectors: { companionSocket: socketFactory },
    });
    const manifest = [
      'id: fake',
      'name: Fake',
      'version: 1.0.0',
      'backend:',
      '  type: mcp',
      '  transport: stdio',
      '  command: node',
      `  args: [${JSON.stringify(FAKE_SERVER)}, good]`,
      'contributes:',
      `  tools: [${FAKE_TOOLS.map((tool) => `fake.${tool}`).join(', ')}]`,
    ].join('\n');
    const { package_id } = await service.stagePackage({
      name: 'fake.zip',
      bytes: zipSync({ 'plugin.yaml': new TextEncoder().encode(manifest) }),
    });
    await service.install({ package_id });
    await expect(service.enable({ plugin_id: 'fake' })).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
    });
    await expect(
      service.pairCompanion({ url: `http://127.0.0.1:${companion.port}`, code: '12345678' }),
    ).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNAVAILABLE' });
    expect(
      await service.pairCompanion({ url: `http://127.0.0.1:${companion.port}`, code: companion.pairingCode }),
    ).toEqual({ paired: true });
    expect(await service.companion()).toEqual({ paired: true, url: `http://127.0.0.1:${companion.port}` });
    expect((await vault.list()).map((secret) => secret.name).sort()).toEqual([
      'plugin.companion.token',
      'plugin.companion.url',
    ]);
    expect(await service.enable({ plugin_id: 'fake' })).toMatchObject({
      state: 'enabled',
      transport: 'stdio',
    });
    expect((await service.callTool({ name: 'fake.echo', arguments: { text: 'paired' } })).text).toBe(
      'echo: paired',
    );
    await service.disable({ plugin_id: 'fake' });
  });
});

describe('which app origins the companion answers', () => {
  it('allows the app as `npm start` and `npm run dev` serve it when the configuration names none', () => {
    const config = companionConfigSchema.parse({ plugins_dir: tmpdir() });
    expect(config.allowed_origins).toEqual([...DEFAULT_ALLOWED_ORIGINS]);
    expect(config.allowed_origins).toContain('http://127.0.0.1:4173');
    expect(config.allowed_origins).toContain('http://localhost:5173');
  });

  it('answers the default origin and tells the terminal, once, how to allow a refused one', async () => {
    const lines: string[] = [];
    const companion = await startCompanion({
      config: companionConfigSchema.parse({ plugins_dir: mkdtempSync(join(tmpdir(), 'companion-')) }),
      log: (line) => lines.push(line),
    });
    running.push(companion);
    const pair = (origin: string) =>
      fetch(`http://127.0.0.1:${companion.port}/pair`, { method: 'OPTIONS', headers: { origin } });
    const allowed = await pair('http://127.0.0.1:4173');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    expect(lines).toEqual([]);
    await pair('http://127.0.0.1:9999');
    await pair('http://127.0.0.1:9999');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('http://127.0.0.1:9999');
    expect(lines[0]).toContain('allowed_origins');
    expect(lines[0]).toContain('COMPANION_CONFIG');
  });

  it("refuses a page's pairing in words that page can read, without looking at its code", async () => {
    const companion = await startCompanion({
      config: companionConfigSchema.parse({ plugins_dir: mkdtempSync(join(tmpdir(), 'companion-')) }),
      log: () => {},
    });
    running.push(companion);
    const origin = 'http://127.0.0.1:9999';
    const refused = await fetch(`http://127.0.0.1:${companion.port}/pair`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ code: companion.pairingCode }),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
    expect(await refused.json()).toMatchObject({
      error: { code: 'PLUGIN_HOST_UNAVAILABLE', details: { reason: 'origin_refused', origin } },
    });
    // The code was not spent: the app's own page still pairs with it.
    const paired = await fetch(`http://127.0.0.1:${companion.port}/pair`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4173', 'content-type': 'application/json' },
      body: JSON.stringify({ code: companion.pairingCode }),
    });
    expect(paired.status).toBe(200);
  });
});
