import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type { AgentToolSpec } from '../agent/tool-registry';
import {
  AppError,
  isAppError,
  parseInput,
  toIsoUtc,
  type CommandAuditEntry,
  type CommandContext,
  type CommandExecutionDto,
  type CommandLocation,
  type PluginCommandDto,
  type PluginDto,
  type PluginHostStatusDto,
  type PluginSecretStatusDto,
  type PluginSettingsDto,
  type PluginToolDto,
} from '../contracts';
import {
  executeCommandSchema,
  pluginIdSchema,
  pluginManifestSchema,
  putPluginSecretSchema,
  updatePluginSettingsSchema,
  type PluginManifest,
  type SettingsSchemaFile,
} from '../contracts/plugins-schemas';
import { COMMAND_LOCATIONS } from '../contracts/plugin-types';
import { newId, systemClock, type Clock } from '../core/ids';
import type { SecretsVault } from '../db';
import type { PluginRepository, PluginRow, PluginSettingsRow } from '../db/plugin-stores';
import {
  PackageReadError,
  StagedPackages,
  readFolderPackage,
  readManifest,
  readZipPackage,
  type PackageContents,
} from '../packages';
import {
  COMMAND_HANDLERS,
  CommandAuditLog,
  ENVELOPE_KEY,
  McpHost,
  PluginToolRegistry,
  applySettingsUpdate,
  checkTargetSchema,
  commandToolIds,
  commandView,
  conditionsFor,
  effectiveValues,
  parseCommands,
  parseSettingsSchema,
  requireSettings,
  runCommand,
  secretField,
  secretReference,
  settingsView,
  toAgentToolSpec,
  trimContext,
  EMPTY_SETTINGS_SCHEMA,
  CompanionTransport,
  streamableHttpTransport,
  type SocketFactory,
  type McpToolOutcome,
  type PluginCommand,
  type PluginTool,
  type Scheduler,
} from '../plugins';

export const PLUGIN_MANIFEST_FILE = 'plugin.yaml';
/** Plugin ids that would shadow the built-in tool namespaces. */
const RESERVED_PLUGIN_IDS = new Set([
  'notes',
  'tasks',
  'memory',
  'rag',
  'math',
  'time',
  'agent',
  'plugin',
  'plugins',
  'mcp',
]);

/** How each transport is reached from here; a missing one is PLUGIN_HOST_UNAVAILABLE. */
export interface PluginConnectors {
  /** Starts the module in a dedicated worker (the app) or in-process (tests). */
  worker?: (code: Uint8Array, permissions: readonly string[]) => Promise<Transport>;
  /** The paired Node companion's stdio hosts. */
  stdio?: (
    pluginId: string,
    backend: Extract<PluginManifest['backend'], { transport: 'stdio' }>,
  ) => Promise<Transport>;
  /** Streamable HTTP to a remote server. */
  http?: (url: string) => Promise<Transport>;
  /** Opens the companion's WebSocket (the browser's; `ws` in tests): stdio plugins use it once paired. */
  companionSocket?: SocketFactory;
}

export interface PluginServiceDeps {
  repository: PluginRepository;
  vault: SecretsVault;
  connectors?: PluginConnectors;
  /** Reaches the companion's pairing endpoint. */
  fetch?: typeof fetch;
  clock?: Clock;
  /** Drives the command timeout in tests. */
  schedule?: Scheduler;
}

const pluginIdInput = z.object({ plugin_id: pluginIdSchema }).strict();
const stageSchema = z.object({ name: z.string().min(1).max(200), bytes: z.instanceof(Uint8Array) }).strict();
const stageFolderSchema = z
  .object({
    name: z.string().min(1).max(200),
    entries: z
      .array(z.object({ path: z.string().min(1).max(1000), bytes: z.instanceof(Uint8Array) }))
      .max(10_000),
  })
  .strict();
/** The companion listens on loopback only. */
const pairSchema = z
  .object({
    url: z.string().regex(/^http:\/\/(127\.0\.0\.1|localhost):\d{1,5}\/?$/, 'http://127.0.0.1:<port>'),
    code: z.string().regex(/^\d{8}$/, 'the 8-digit code the companion printed'),
  })
  .strict();
const COMPANION_TOKEN = 'plugin.companion.token';
const COMPANION_URL = 'plugin.companion.url';
const installSchema = z.object({ package_id: z.string().min(1).max(100) }).strict();
const grantSchema = z
  .object({ plugin_id: pluginIdSchema, permissions: z.array(z.string()).max(16) })
  .strict();
const commandListSchema = z
  .object({
    location: z.enum(COMMAND_LOCATIONS).optional(),
    context: z
      .object({ note_id: z.string().max(200).optional(), selection: z.string().max(100_000).optional() })
      .strict()
      .default({}),
  })
  .strict();
const secretKeyInput = z.object({ plugin_id: pluginIdSchema, key: z.string().min(1).max(64) }).strict();

function pluginNotFound(pluginId: string): AppError {
  return new AppError('PLUGIN_NOT_FOUND', `The plugin "${pluginId}" is not installed.`, {
    plugin_id: pluginId,
  });
}

const SIZE_PROBLEMS = new Set(['too_many_entries', 'entry_too_large', 'total_too_large', 'ratio_too_high']);

/** Size and bomb limits are 413 PAYLOAD_TOO_LARGE; paths, links and bad archives PLUGIN_PACKAGE_INVALID. */
function packageProblem(error: PackageReadError): AppError {
  const details = { problem: error.problem, entry: error.entry, limit: error.limit };
  if (SIZE_PROBLEMS.has(error.problem)) {
    return new AppError('PAYLOAD_TOO_LARGE', `The plugin package is too large: ${error.message}`, details);
  }
  return new AppError('PLUGIN_PACKAGE_INVALID', `The plugin package was refused: ${error.message}`, details);
}

/** A loaded plugin: its row, checked contributions, and its host while it runs. */
interface LoadedPlugin {
  row: PluginRow;
  manifest: PluginManifest;
  settings: SettingsSchemaFile;
  commands: PluginCommand[];
  host?: McpHost;
}

/**
 * The plugin API the UI calls (contract §7): packages staged by opaque id,
 * install / permissions / enable / disable / uninstall, the MCP host of each
 * enabled plugin, its tools for the agent, its commands, settings and
 * secrets (write-only, in the vault under deterministic references).
 */
export class PluginService {
  readonly #deps: PluginServiceDeps;
  readonly #clock: Clock;
  readonly #staged = new StagedPackages();
  readonly #loaded = new Map<string, LoadedPlugin>();
  readonly #tools = new PluginToolRegistry();
  readonly #audit = new CommandAuditLog();
  #ready: Promise<void> | undefined;

  constructor(deps: PluginServiceDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
  }

  // ---- packages and lifecycle -------------------------------------------------

  /** Reads a picked .zip and keeps it under an opaque id until install. */
  async stagePackage(input: { name: string; bytes: Uint8Array }): Promise<{ package_id: string }> {
    const request = parseInput(stageSchema, input, 'This plugin package is not valid.');
    try {
      return { package_id: this.#staged.stage(readZipPackage(request.name, request.bytes)) };
    } catch (error) {
      if (error instanceof PackageReadError) throw packageProblem(error);
      throw error;
    }
  }

  /** A picked folder (its files with relative paths). */
  async stageFolder(input: {
    name: string;
    entries: Array<{ path: string; bytes: Uint8Array }>;
  }): Promise<{ package_id: string }> {
    const request = parseInput(stageFolderSchema, input, 'This plugin folder is not valid.');
    try {
      return { package_id: this.#staged.stage(readFolderPackage(request.name, request.entries)) };
    } catch (error) {
      if (error instanceof PackageReadError) throw packageProblem(error);
      throw error;
    }
  }

  async install(input: { package_id: string }): Promise<PluginDto> {
    await this.#restore();
    const { package_id } = parseInput(installSchema, input, 'This install request is not valid.');
    const pkg = this.#staged.get(package_id);
    if (!pkg) {
      throw new AppError('RESOURCE_NOT_FOUND', 'The staged package was not found; pick the file again.', {
        package_id,
      });
    }
    const loaded = this.#readPackage(pkg);
    const pluginId = loaded.manifest.id;
    const now = toIsoUtc(this.#clock());
    const row: PluginRow = {
      plugin_id: pluginId,
      manifest: loaded.manifest,
      commands: loaded.commands.map((command) => command.contribution),
      settings_schema: loaded.settings,
      state: loaded.manifest.permissions.length > 0 ? 'permission_required' : 'installed',
      granted_permissions: [],
      files: loaded.files,
      installed_at: now,
      updated_at: now,
      error: null,
    };
    const settings: PluginSettingsRow = {
      plugin_id: pluginId,
      schema_version: loaded.settings.schema_version,
      values: {},
      secret_refs: {},
    };
    if (!(await this.#storage(() => this.#deps.repository.add(row, settings)))) {
      throw new AppError('PLUGIN_ALREADY_INSTALLED', `The plugin "${pluginId}" is already installed.`, {
        plugin_id: pluginId,
      });
    }
    this.#staged.drop(package_id);
    this.#loaded.set(pluginId, {
      row,
      manifest: loaded.manifest,
      settings: loaded.settings,
      commands: loaded.commands,
    });
    return this.#view(this.#loaded.get(pluginId)!);
  }

  #readPackage(pkg: PackageContents): {
    manifest: PluginManifest;
    settings: SettingsSchemaFile;
    commands: PluginCommand[];
    files: Record<string, Uint8Array>;
  } {
    let raw: unknown;
    try {
      raw = readManifest(pkg, PLUGIN_MANIFEST_FILE);
    } catch (error) {
      if (error instanceof PackageReadError) {
        throw new AppError(
          'PLUGIN_MANIFEST_INVALID',
          `The package has no readable ${PLUGIN_MANIFEST_FILE}.`,
          { problem: error.problem },
        );
      }
      throw error;
    }
    const parsed = pluginManifestSchema.safeParse(raw);
    if (!parsed.success) {
      throw new AppError('PLUGIN_MANIFEST_INVALID', `${PLUGIN_MANIFEST_FILE} is not valid.`, {
        fields: parsed.error.issues
          .slice(0, 10)
          .map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })),
      });
    }
    const manifest = parsed.data;
    if (RESERVED_PLUGIN_IDS.has(manifest.id)) {
      throw new AppError('PLUGIN_MANIFEST_INVALID', `The plugin id "${manifest.id}" is reserved.`, {
        plugin_id: manifest.id,
      });
    }
    const badTool = manifest.contributes.tools.find(
      (tool) =>
        !/^[A-Za-z][\w-]{0,47}$/.test(tool.slice(manifest.id.length + 1)) ||
        !tool.startsWith(`${manifest.id}.`),
    );
    if (badTool !== undefined) {
      throw new AppError(
        'PLUGIN_MANIFEST_INVALID',
        `The tool "${badTool}" is not in the plugin's namespace.`,
        { tool: badTool },
      );
    }
    const fileOf = (path: string, what: string): Uint8Array => {
      const bytes = pkg.files.get(path);
      if (!bytes)
        throw new AppError('PLUGIN_MANIFEST_INVALID', `The package has no ${what} "${path}".`, { path });
      return bytes;
    };
    const settings = manifest.contributes.settings
      ? parseSettingsSchema(
          this.#readFile(pkg, manifest.contributes.settings, 'PLUGIN_SETTINGS_SCHEMA_INVALID'),
          manifest.id,
        )
      : EMPTY_SETTINGS_SCHEMA;
    const commands = manifest.contributes.commands
      ? parseCommands(this.#readFile(pkg, manifest.contributes.commands, 'PLUGIN_COMMAND_INVALID'), {
          pluginId: manifest.id,
          permissions: manifest.permissions,
          settings,
        })
      : [];
    const files: Record<string, Uint8Array> = {};
    const backend = manifest.backend;
    if (backend.transport === 'streamable_http' && !manifest.permissions.includes('network')) {
      throw new AppError(
        'PLUGIN_MANIFEST_INVALID',
        'A plugin with a remote MCP server must declare the network permission.',
        {
          plugin_id: manifest.id,
        },
      );
    }
    if (backend.transport === 'worker') files[backend.entry] = fileOf(backend.entry, 'server module');
    if (backend.transport === 'stdio' && backend.command.includes('/')) {
      // A path executable must be a file of this package (§7.1).
      const relative = backend.command.replace(/^\.\//, '');
      if (relative.startsWith('/') || relative.split('/').includes('..') || !pkg.files.has(relative)) {
        throw new AppError(
          'PLUGIN_MANIFEST_INVALID',
          'The server executable must be a file inside the plugin package.',
          {
            command: backend.command,
          },
        );
      }
    }
    return { manifest, settings, commands, files };
  }

  #readFile(
    pkg: PackageContents,
    path: string,
    code: 'PLUGIN_SETTINGS_SCHEMA_INVALID' | 'PLUGIN_COMMAND_INVALID',
  ): unknown {
    try {
      return readManifest(pkg, path);
    } catch (error) {
      if (error instanceof PackageReadError)
        throw new AppError(code, `The package file "${path}" is missing or not valid.`, {
          path,
          problem: error.problem,
        });
      throw error;
    }
  }

  async list(): Promise<{ items: PluginDto[] }> {
    await this.#restore();
    return {
      items: [...this.#loaded.values()]
        .sort((a, b) => a.row.plugin_id.localeCompare(b.row.plugin_id))
        .map((p) => this.#view(p)),
    };
  }

  async get(input: { plugin_id: string }): Promise<PluginDto> {
    return this.#view(await this.#plugin(input));
  }

  /** Grants what the manifest declares (all of it); the plugin can then be enabled. */
  async grantPermissions(input: { plugin_id: string; permissions: string[] }): Promise<PluginDto> {
    const request = parseInput(grantSchema, input, 'This permission request is not valid.');
    const plugin = await this.#plugin(request);
    const declared = plugin.manifest.permissions;
    const missing = declared.filter((permission) => !request.permissions.includes(permission));
    const unknown = request.permissions.filter((permission) => !(declared as string[]).includes(permission));
    if (missing.length > 0 || unknown.length > 0) {
      throw new AppError('VALIDATION_FAILED', 'Grant exactly the permissions the plugin declares.', {
        missing,
        unknown,
      });
    }
    const state = plugin.row.state === 'permission_required' ? 'installed' : plugin.row.state;
    await this.#update(plugin, { granted_permissions: [...declared], state });
    return this.#view(plugin);
  }

  /** Required settings and secrets first, then the host starts and its tools are published. */
  async enable(input: { plugin_id: string }): Promise<PluginDto> {
    const plugin = await this.#plugin(input);
    if (plugin.row.state === 'permission_required') {
      throw new AppError(
        'STATE_CONFLICT',
        `Grant the permissions of "${plugin.row.plugin_id}" before enabling it.`,
        {
          plugin_id: plugin.row.plugin_id,
          state: plugin.row.state,
        },
      );
    }
    if (plugin.row.state === 'enabled' && plugin.host?.status().status === 'ready') return this.#view(plugin);
    const stored = await this.#settingsRow(plugin.row.plugin_id);
    requireSettings(plugin.row.plugin_id, plugin.settings, stored);
    const missingSecrets = plugin.settings.fields.filter(
      (field) => field.type === 'secret' && field.required && !(field.key in stored.secret_refs),
    );
    if (missingSecrets.length > 0) {
      throw new AppError(
        'PLUGIN_SECRET_REQUIRED',
        `Set the required secrets of "${plugin.row.plugin_id}" first.`,
        {
          plugin_id: plugin.row.plugin_id,
          keys: missingSecrets.map((field) => field.key),
        },
      );
    }
    await this.#startHost(plugin);
    return this.#view(plugin);
  }

  async #startHost(plugin: LoadedPlugin): Promise<void> {
    const pluginId = plugin.row.plugin_id;
    await plugin.host?.stop();
    const host = new McpHost({
      pluginId,
      transport: plugin.manifest.backend.transport,
      agentTools: plugin.manifest.contributes.tools,
      commandTools: commandToolIds(plugin.commands),
      permissions: plugin.row.granted_permissions,
      sink: this.#tools,
      connect: () => this.#connect(plugin),
      startupTimeoutMs: plugin.manifest.backend.startup_timeout_seconds * 1000,
      toolTimeoutMs: plugin.manifest.backend.tool_timeout_seconds * 1000,
      clock: this.#clock,
      onUnhealthy: (error) => {
        void this.#update(plugin, {
          state: 'error',
          error: { code: error.code, message: error.message },
        }).catch(() => {});
      },
    });
    plugin.host = host;
    try {
      await host.start();
      for (const command of plugin.commands) {
        const target = command.contribution.target;
        if (target.type !== 'mcp_tool') continue;
        const tool = host.tools().find((candidate) => candidate.name === target.tool);
        checkTargetSchema(command, tool?.input_schema);
      }
    } catch (error) {
      await host.stop();
      const failure = isAppError(error)
        ? error
        : new AppError('PLUGIN_HOST_START_FAILED', `The plugin "${pluginId}" could not be started.`);
      await this.#update(plugin, { state: 'error', error: { code: failure.code, message: failure.message } });
      throw failure;
    }
    await this.#update(plugin, { state: 'enabled', error: null });
  }

  async #connect(plugin: LoadedPlugin): Promise<Transport> {
    const backend = plugin.manifest.backend;
    const connectors = this.#deps.connectors ?? {};
    const unavailable = (what: string) =>
      new AppError('PLUGIN_HOST_UNAVAILABLE', `${what} is not available here.`, {
        plugin_id: plugin.row.plugin_id,
        transport: backend.transport,
      });
    switch (backend.transport) {
      case 'worker': {
        if (!connectors.worker) throw unavailable('Running plugin servers in a worker');
        const code = plugin.row.files[backend.entry];
        if (!code)
          throw new AppError('PLUGIN_HOST_START_FAILED', 'The plugin server module is missing.', {
            plugin_id: plugin.row.plugin_id,
          });
        return connectors.worker(code, plugin.row.granted_permissions);
      }
      case 'stdio':
        if (connectors.stdio) return connectors.stdio(plugin.row.plugin_id, backend);
        return this.#companionTransport(plugin.row.plugin_id, backend.command, backend.args);
      case 'streamable_http':
        if (connectors.http) return connectors.http(backend.url);
        return streamableHttpTransport(backend.url, this.#deps.fetch ? { fetch: this.#deps.fetch } : {});
    }
  }

  /**
   * Pairs with the Node companion once: the code it printed buys a token,
   * kept in the vault (never in settings); its address is kept beside it.
   */
  async pairCompanion(input: { url: string; code: string }): Promise<{ paired: true }> {
    const request = parseInput(pairSchema, input, 'The companion address or code is not valid.');
    const base = request.url.replace(/\/$/, '');
    let token: unknown;
    try {
      const response = await (this.#deps.fetch ?? fetch)(`${base}/pair`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: request.code }),
      });
      if (!response.ok) {
        throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion refused the pairing code.', {
          status: response.status,
        });
      }
      token = ((await response.json()) as { token?: unknown }).token;
    } catch (error) {
      if (isAppError(error)) throw error;
      throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion could not be reached; is it running?', {
        url: base,
      });
    }
    if (typeof token !== 'string' || token.length < 20) {
      throw new AppError('PLUGIN_HOST_UNAVAILABLE', 'The companion did not answer with a token.');
    }
    await this.#secrets(() => this.#deps.vault.put(COMPANION_TOKEN, token as string));
    await this.#secrets(() => this.#deps.vault.put(COMPANION_URL, base));
    return { paired: true };
  }

  /** Whether the companion is paired, and where it listens (never the token). */
  async companion(): Promise<{ paired: boolean; url: string | null }> {
    const token = await this.#secrets(() => this.#deps.vault.status(COMPANION_TOKEN));
    const url = token.configured
      ? await this.#secrets(() => this.#deps.vault.reveal(COMPANION_URL))
      : undefined;
    return { paired: token.configured, url: url ?? null };
  }

  async #companionTransport(pluginId: string, command: string, args: readonly string[]): Promise<Transport> {
    const socket = this.#deps.connectors?.companionSocket;
    if (!socket) {
      throw new AppError(
        'PLUGIN_HOST_UNAVAILABLE',
        'stdio servers need the companion, which is not available here.',
        {
          plugin_id: pluginId,
          transport: 'stdio',
        },
      );
    }
    const token = await this.#secrets(() => this.#deps.vault.reveal(COMPANION_TOKEN));
    const base = await this.#secrets(() => this.#deps.vault.reveal(COMPANION_URL));
    if (!token || !base) {
      throw new AppError(
        'PLUGIN_HOST_UNAVAILABLE',
        'Pair the companion first (npm run companion prints a code).',
        {
          plugin_id: pluginId,
          transport: 'stdio',
        },
      );
    }
    return new CompanionTransport(
      { url: `${base.replace(/^http/, 'ws')}/`, token, pluginId, command, args },
      socket,
    );
  }

  async disable(input: { plugin_id: string }): Promise<PluginDto> {
    const plugin = await this.#plugin(input);
    await plugin.host?.stop();
    plugin.host = undefined;
    if (plugin.row.state !== 'permission_required')
      await this.#update(plugin, { state: 'disabled', error: null });
    return this.#view(plugin);
  }

  /** Never turns an installed, disabled or unpermitted plugin on: only Enable does. */
  async restart(input: { plugin_id: string }): Promise<PluginHostStatusDto> {
    const plugin = await this.#plugin(input);
    if (plugin.row.state !== 'enabled' && plugin.row.state !== 'error') {
      throw new AppError(
        'STATE_CONFLICT',
        `The plugin "${plugin.row.plugin_id}" is ${plugin.row.state}; enable it first.`,
        {
          plugin_id: plugin.row.plugin_id,
          state: plugin.row.state,
        },
      );
    }
    await this.#startHost(plugin);
    return plugin.host!.status();
  }

  async host(input: { plugin_id: string }): Promise<PluginHostStatusDto> {
    const plugin = await this.#plugin(input);
    if (plugin.host) return plugin.host.status();
    return {
      plugin_id: plugin.row.plugin_id,
      backend_type: 'mcp',
      transport: plugin.manifest.backend.transport,
      status: 'stopped',
      tools_count: 0,
      started_at: null,
      last_seen_at: null,
      protocol_version: null,
      server_name: null,
      server_version: null,
      error: null,
    };
  }

  /** Stops it, deletes its secrets from the vault, then its row and settings namespace. */
  async uninstall(input: { plugin_id: string }): Promise<void> {
    const plugin = await this.#plugin(input);
    const pluginId = plugin.row.plugin_id;
    await plugin.host?.stop();
    const stored = await this.#settingsRow(pluginId);
    for (const field of plugin.settings.fields) {
      if (field.type !== 'secret') continue;
      const reference = stored.secret_refs[field.key] ?? (await secretReference(pluginId, field.key));
      await this.#secrets(() => this.#deps.vault.delete(reference));
    }
    await this.#storage(() => this.#deps.repository.remove(pluginId));
    this.#loaded.delete(pluginId);
  }

  // ---- tools ------------------------------------------------------------------

  /** The tools the agent may use now (enabled plugins only). */
  async tools(): Promise<{ items: PluginToolDto[] }> {
    return {
      items: this.#tools.list().map(({ compiled: _compiled, ...dto }) => dto),
    };
  }

  /** Live agent tools: the agent re-reads them on every change. */
  agentTools(): { specs(): AgentToolSpec[]; onChange(listener: () => void): () => void } {
    return {
      specs: () =>
        this.#tools
          .list()
          .map((tool) => toAgentToolSpec(tool, (t, args, options) => this.#callPluginTool(t, args, options))),
      onChange: (listener) => this.#tools.onChange(listener),
    };
  }

  /** A published tool called directly (the settings page's test button, tests, benchmarks). */
  async callTool(input: { name: string; arguments?: Record<string, unknown> }): Promise<McpToolOutcome> {
    const tool = this.#tools.get(input.name);
    if (!tool)
      throw new AppError('RESOURCE_NOT_FOUND', `No enabled plugin offers the tool "${input.name}".`, {
        tool: input.name,
      });
    return this.#callPluginTool(tool, input.arguments ?? {}, { requestId: newId('call') });
  }

  async #callPluginTool(
    tool: PluginTool,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; requestId: string },
  ): Promise<McpToolOutcome> {
    const plugin = this.#loaded.get(tool.plugin_id);
    if (!plugin?.host)
      throw new AppError('PLUGIN_HOST_UNAVAILABLE', `The plugin "${tool.plugin_id}" is not running.`, {
        plugin_id: tool.plugin_id,
      });
    requireSettings(tool.plugin_id, plugin.settings, await this.#settingsRow(tool.plugin_id));
    return plugin.host.callTool(tool.name, args, options);
  }

  // ---- settings and secrets ---------------------------------------------------

  async getSettings(input: { plugin_id: string }): Promise<PluginSettingsDto> {
    const plugin = await this.#plugin(input);
    return settingsView(plugin.row.plugin_id, plugin.settings, await this.#settingsRow(plugin.row.plugin_id));
  }

  async updateSettings(input: {
    plugin_id: string;
    schema_version: number;
    values: Record<string, string | number | boolean>;
  }): Promise<PluginSettingsDto> {
    const { plugin_id, ...rest } = input;
    const plugin = await this.#plugin({ plugin_id });
    const update = parseInput(updatePluginSettingsSchema, rest, 'These settings are not valid.');
    const stored = await this.#settingsRow(plugin_id);
    const next = applySettingsUpdate(plugin_id, plugin.settings, stored, update);
    await this.#storage(() =>
      this.#deps.repository.putSettings({
        plugin_id,
        ...next,
        schema_version: plugin.settings.schema_version,
      }),
    );
    return settingsView(plugin_id, plugin.settings, next);
  }

  async putSecret(input: { plugin_id: string; key: string; secret: string }): Promise<PluginSecretStatusDto> {
    const { secret, ...keyInput } = input;
    const { plugin_id, key } = parseInput(secretKeyInput, keyInput, 'This secret request is not valid.');
    const plugin = await this.#plugin({ plugin_id });
    secretField(plugin_id, plugin.settings, key);
    const parsed = putPluginSecretSchema.safeParse({ secret });
    if (!parsed.success || parsed.data.secret.trim() === '') {
      throw new AppError(
        'PLUGIN_SECRET_VALUE_INVALID',
        'The secret must be non-empty text of at most 16 KiB.',
        { plugin_id, key },
      );
    }
    const reference = await secretReference(plugin_id, key);
    await this.#secrets(() => this.#deps.vault.put(reference, parsed.data.secret));
    const stored = await this.#settingsRow(plugin_id);
    await this.#storage(() =>
      this.#deps.repository.putSettings({
        ...stored,
        secret_refs: { ...stored.secret_refs, [key]: reference },
      }),
    );
    return { plugin_id, key, configured: true };
  }

  async deleteSecret(input: { plugin_id: string; key: string }): Promise<PluginSecretStatusDto> {
    const { plugin_id, key } = parseInput(secretKeyInput, input, 'This secret request is not valid.');
    const plugin = await this.#plugin({ plugin_id });
    secretField(plugin_id, plugin.settings, key);
    await this.#secrets(async () => this.#deps.vault.delete(await secretReference(plugin_id, key)));
    const stored = await this.#settingsRow(plugin_id);
    const { [key]: _removed, ...secret_refs } = stored.secret_refs;
    await this.#storage(() => this.#deps.repository.putSettings({ ...stored, secret_refs }));
    return { plugin_id, key, configured: false };
  }

  // ---- commands ---------------------------------------------------------------

  /** Commands of enabled plugins whose `when` holds for the context (§7.3). */
  async listCommands(
    input: { location?: CommandLocation; context?: CommandContext } = {},
  ): Promise<{ items: PluginCommandDto[] }> {
    await this.#restore();
    const request = parseInput(commandListSchema, input, 'This command query is not valid.');
    const holds = conditionsFor(request.context, { hasVault: true });
    const items: PluginCommandDto[] = [];
    for (const plugin of this.#loaded.values()) {
      if (plugin.row.state !== 'enabled') continue;
      for (const command of plugin.commands) {
        const { locations, when } = command.contribution;
        if (request.location && !locations.includes(request.location)) continue;
        if (!when.every((token) => holds.has(token))) continue;
        items.push(commandView(command, true));
      }
    }
    return { items };
  }

  async executeCommand(input: {
    command_id: string;
    arguments?: Record<string, unknown>;
    context?: CommandContext;
  }): Promise<CommandExecutionDto> {
    await this.#restore();
    const { command_id: commandId, ...body } = input;
    const found = this.#findCommand(commandId);
    const request = executeCommandSchema.safeParse(body);
    if (!request.success) {
      throw new AppError('PLUGIN_COMMAND_ARGUMENT_INVALID', 'The command request is not valid.', {
        command_id: commandId,
      });
    }
    const { plugin, command } = found;
    const pluginId = plugin.row.plugin_id;
    const issues = command.parameters.validate(request.data.arguments);
    if (issues.length > 0) {
      throw new AppError(
        'PLUGIN_COMMAND_ARGUMENT_INVALID',
        `The arguments of "${commandId}" are not valid.`,
        { command_id: commandId, fields: issues },
      );
    }
    const holds = conditionsFor(request.data.context, { hasVault: true });
    const unmet = command.contribution.when.filter((token) => !holds.has(token));
    if (unmet.length > 0) {
      throw new AppError('PLUGIN_COMMAND_CONTEXT_INVALID', `"${commandId}" cannot run here.`, {
        command_id: commandId,
        unmet,
      });
    }
    const stored = await this.#settingsRow(pluginId);
    requireSettings(pluginId, plugin.settings, stored);
    const secrets: Record<string, string> = {};
    for (const key of command.contribution.secrets) {
      if (!plugin.row.granted_permissions.includes('secrets.use')) {
        throw new AppError('PLUGIN_SECRET_ACCESS_DENIED', `"${commandId}" may not read secrets.`, {
          command_id: commandId,
          key,
        });
      }
      const reference = stored.secret_refs[key];
      const value =
        reference === undefined ? undefined : await this.#secrets(() => this.#deps.vault.reveal(reference));
      if (value === undefined) {
        const field = plugin.settings.fields.find((candidate) => candidate.key === key);
        if (field?.required) {
          throw new AppError('PLUGIN_SECRET_REQUIRED', `Set the secret "${key}" of "${pluginId}" first.`, {
            plugin_id: pluginId,
            key,
          });
        }
        continue;
      }
      secrets[key] = value;
    }
    const context = trimContext(command, request.data.context);
    const settings = effectiveValues(plugin.settings, stored);
    const target = command.contribution.target;
    const effect = await runCommand(
      command,
      async (signal) => {
        if (target.type === 'handler') {
          const handler = COMMAND_HANDLERS[target.handler as keyof typeof COMMAND_HANDLERS];
          return handler({
            title: command.contribution.title,
            arguments: request.data.arguments,
            context,
            settings,
          });
        }
        if (!plugin.host)
          throw new AppError('PLUGIN_HOST_UNAVAILABLE', `The plugin "${pluginId}" is not running.`, {
            plugin_id: pluginId,
          });
        const envelope = {
          command_id: commandId,
          arguments: request.data.arguments,
          context,
          settings,
          secrets,
        };
        let outcome: McpToolOutcome;
        try {
          outcome = await plugin.host.callTool(
            target.tool,
            { ...request.data.arguments, [ENVELOPE_KEY]: envelope },
            { signal },
          );
        } catch (error) {
          if (isAppError(error) && error.code.startsWith('PLUGIN_HOST')) throw error;
          if (isAppError(error) && error.code === 'MCP_TOOL_RESULT_TOO_LARGE') {
            throw new AppError(
              'PLUGIN_COMMAND_RESULT_TOO_LARGE',
              `The result of "${commandId}" is too large.`,
              { command_id: commandId },
            );
          }
          throw new AppError('PLUGIN_COMMAND_EXECUTION_FAILED', `The command "${commandId}" failed.`, {
            command_id: commandId,
          });
        }
        const structured = outcome.structured_content;
        return structured && 'effect' in structured ? structured.effect : structured;
      },
      {
        audit: this.#audit,
        clock: this.#clock,
        ...(this.#deps.schedule && { schedule: this.#deps.schedule }),
      },
    );
    return { command_id: commandId, status: 'completed', effect };
  }

  #findCommand(commandId: string): { plugin: LoadedPlugin; command: PluginCommand } {
    for (const plugin of this.#loaded.values()) {
      const command = plugin.commands.find((candidate) => candidate.command_id === commandId);
      if (command && plugin.row.state === 'enabled') return { plugin, command };
    }
    throw new AppError('PLUGIN_COMMAND_NOT_FOUND', `No enabled plugin offers the command "${commandId}".`, {
      command_id: commandId,
    });
  }

  /** The last 500 command executions (no arguments, context, effects or secrets). */
  async audit(): Promise<{ items: CommandAuditEntry[] }> {
    return { items: this.#audit.list() };
  }

  // ---- start-up ---------------------------------------------------------------

  /** Loads the installed plugins and starts the enabled ones; a failing one goes to `error`. */
  async recover(): Promise<void> {
    await this.#restore();
    for (const plugin of this.#loaded.values()) {
      if (plugin.row.state === 'enabled') await this.#startHost(plugin).catch(() => {});
    }
  }

  #restore(): Promise<void> {
    this.#ready ??= (async () => {
      const rows = await this.#storage(() => this.#deps.repository.list());
      for (const row of rows) {
        const manifest = pluginManifestSchema.parse(row.manifest);
        const settings = parseSettingsSchema(row.settings_schema, row.plugin_id);
        const commands = parseCommands(
          { commands: row.commands },
          { pluginId: row.plugin_id, permissions: manifest.permissions, settings },
        );
        this.#loaded.set(row.plugin_id, { row, manifest, settings, commands });
      }
    })().catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async #plugin(input: { plugin_id: string }): Promise<LoadedPlugin> {
    await this.#restore();
    const { plugin_id } = parseInput(
      pluginIdInput,
      { plugin_id: input.plugin_id },
      'This plugin id is not valid.',
    );
    const plugin = this.#loaded.get(plugin_id);
    if (!plugin) throw pluginNotFound(plugin_id);
    return plugin;
  }

  async #settingsRow(pluginId: string): Promise<PluginSettingsRow> {
    return (
      (await this.#storage(() => this.#deps.repository.getSettings(pluginId))) ?? {
        plugin_id: pluginId,
        schema_version: 1,
        values: {},
        secret_refs: {},
      }
    );
  }

  async #update(plugin: LoadedPlugin, patch: Partial<Omit<PluginRow, 'plugin_id'>>): Promise<void> {
    const next = { ...patch, updated_at: toIsoUtc(this.#clock()) };
    Object.assign(plugin.row, next);
    await this.#storage(() => this.#deps.repository.update(plugin.row.plugin_id, next));
  }

  async #storage<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isAppError(error)) throw error;
      throw new AppError(
        'PLUGIN_STORAGE_ERROR',
        'The plugin data could not be saved or read.',
        {},
        { cause: error },
      );
    }
  }

  async #secrets<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new AppError(
        'PLUGIN_SECRET_STORE_ERROR',
        'The plugin secret could not be stored or read.',
        {},
        { cause: error },
      );
    }
  }

  #view(plugin: LoadedPlugin): PluginDto {
    const { row, manifest } = plugin;
    return {
      plugin_id: row.plugin_id,
      name: manifest.name,
      version: manifest.version,
      description: manifest.description,
      state: row.state,
      permissions: [...manifest.permissions],
      granted_permissions: [...row.granted_permissions],
      transport: manifest.backend.transport,
      tools: [...manifest.contributes.tools],
      commands: plugin.commands.map((command) => command.command_id),
      installed_at: row.installed_at,
      updated_at: row.updated_at,
      error: row.error,
    };
  }
}
