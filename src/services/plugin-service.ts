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
  type PluginErrorDto,
  type PluginHostStatusDto,
  type PluginSecretStatusDto,
  type PluginSettingsDto,
  type PluginToolDto,
} from '../contracts';
import {
  executeCommandSchema,
  pluginIdSchema,
  updatePluginSettingsSchema,
} from '../contracts/plugins-schemas';
import { COMMAND_LOCATIONS } from '../contracts/plugin-types';
import { newId, systemClock, type Clock } from '../core/ids';
import type { SecretsVault } from '../db';
import type { PluginRepository, PluginRow, PluginSettingsRow } from '../db/plugin-stores';
import { StagedPackages } from '../packages';
import { EXAMPLE_PLUGIN_FILE_NAME, examplePluginZip } from '../plugins/example/example-package';
import {
  COMPANION_TOKEN_SECRET,
  COMPANION_URL_PATTERN,
  COMPANION_URL_SECRET,
  CommandAuditLog,
  PluginToolRegistry,
  applySettingsUpdate,
  availableCommands,
  checkCommandCall,
  checkPluginPackage,
  checkSecretValue,
  companionServerTransport,
  connectPlugin,
  disabledState,
  exchangePairingCode,
  findEnabledCommand,
  grantPermissions,
  hostView,
  installRows,
  isRunning,
  pluginNotFound,
  pluginView,
  readPluginPackage,
  requireConfigured,
  requireEnableable,
  requireRestartable,
  requireSettings,
  restorePlugin,
  runPluginCommand,
  secretField,
  secretReference,
  secretReferences,
  settingsView,
  startPluginHost,
  toAgentToolSpec,
  unsetSettings,
  withSecret,
  withoutSecret,
  type LoadedPlugin,
  type McpToolOutcome,
  type PluginConnectors,
  type PluginTool,
  type Scheduler,
} from '../plugins';

export type { PluginConnectors } from '../plugins';

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
const pairSchema = z
  .object({
    url: z.string().regex(COMPANION_URL_PATTERN, 'http://127.0.0.1:<port>'),
    code: z.string().regex(/^\d{8}$/, 'the 8-digit code the companion printed'),
  })
  .strict();
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

/** Details beyond this size are dropped from the stored row: they are for one line on the page. */
const MAX_STORED_ERROR_DETAILS_CHARS = 2_000;

/** The error a plugin row keeps, with its details so the page can word it again after a reload. */
function storedError(error: AppError): PluginErrorDto {
  const details = error.details;
  const keep =
    Object.keys(details).length > 0 && JSON.stringify(details).length <= MAX_STORED_ERROR_DETAILS_CHARS;
  return { code: error.code, message: error.message, ...(keep && { details }) };
}

/**
 * The plugin API the UI calls (contract §7): it parses the input, keeps the
 * loaded plugins and their hosts, and stores what the plugin domain
 * (`src/plugins/`) decides: package checks, lifecycle rules, settings and
 * secrets, tool publication, command execution, companion pairing.
 */
export class PluginService {
  readonly #deps: PluginServiceDeps;
  readonly #clock: Clock;
  readonly #staged = new StagedPackages();
  readonly #loaded = new Map<string, LoadedPlugin>();
  readonly #tools = new PluginToolRegistry();
  readonly #audit = new CommandAuditLog();
  readonly #watchers = new Set<() => unknown>();
  #ready: Promise<void> | undefined;

  constructor(deps: PluginServiceDeps) {
    this.#deps = deps;
    this.#clock = deps.clock ?? systemClock;
    this.#tools.onChange(() => this.#changed());
  }

  /**
   * Calls `listener` after a plugin's row or its published tools changed: a host that became
   * ready, stopped or failed. Plugins start one after another in the background after a
   * reload, so a page that read them once would miss the ones that were not running yet; it
   * reads them again on each call. A listener that throws or rejects (a closed page's
   * callback) is dropped.
   */
  watch(listener: () => unknown): void {
    this.#watchers.add(listener);
  }

  #changed(): void {
    for (const listener of this.#watchers) {
      const drop = () => this.#watchers.delete(listener);
      try {
        void Promise.resolve(listener()).catch(drop);
      } catch {
        drop();
      }
    }
  }

  // ---- packages and lifecycle -------------------------------------------------

  /** Reads a picked .zip and keeps it under an opaque id until install. */
  async stagePackage(input: { name: string; bytes: Uint8Array }): Promise<{ package_id: string }> {
    const request = parseInput(stageSchema, input, 'This plugin package is not valid.');
    return { package_id: this.#staged.stage(readPluginPackage(request)) };
  }

  /**
   * The example plugin, as a .zip to download (Settings → Plugins): installed
   * as it is it gives the agent a word count; unpacked, its commented
   * plugin.yaml and server.js show how a plugin is made.
   */
  async examplePackage(): Promise<{ file_name: string; mime_type: string; data: Uint8Array }> {
    return { file_name: EXAMPLE_PLUGIN_FILE_NAME, mime_type: 'application/zip', data: examplePluginZip() };
  }

  /** A picked folder (its files with relative paths). */
  async stageFolder(input: {
    name: string;
    entries: Array<{ path: string; bytes: Uint8Array }>;
  }): Promise<{ package_id: string }> {
    const request = parseInput(stageFolderSchema, input, 'This plugin folder is not valid.');
    return { package_id: this.#staged.stage(readPluginPackage(request)) };
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
    let checked: ReturnType<typeof checkPluginPackage>;
    try {
      checked = checkPluginPackage(pkg);
    } catch (error) {
      // Refused as it is, it can never be installed: its bytes need not wait for another try.
      this.#staged.drop(package_id);
      throw error;
    }
    const { row, settings } = installRows(checked, toIsoUtc(this.#clock()));
    if (!(await this.#storage(() => this.#deps.repository.add(row, settings)))) {
      throw new AppError('PLUGIN_ALREADY_INSTALLED', `The plugin "${row.plugin_id}" is already installed.`, {
        plugin_id: row.plugin_id,
      });
    }
    this.#staged.drop(package_id);
    const plugin: LoadedPlugin = {
      row,
      manifest: checked.manifest,
      settings: checked.settings,
      commands: checked.commands,
    };
    this.#loaded.set(row.plugin_id, plugin);
    this.#changed();
    return pluginView(plugin);
  }

  async list(): Promise<{ items: PluginDto[] }> {
    await this.#restore();
    return {
      items: [...this.#loaded.values()]
        .sort((a, b) => a.row.plugin_id.localeCompare(b.row.plugin_id))
        .map(pluginView),
    };
  }

  async get(input: { plugin_id: string }): Promise<PluginDto> {
    return pluginView(await this.#plugin(input));
  }

  /** Grants what the manifest declares (all of it); the plugin can then be enabled. */
  async grantPermissions(input: { plugin_id: string; permissions: string[] }): Promise<PluginDto> {
    const request = parseInput(grantSchema, input, 'This permission request is not valid.');
    const plugin = await this.#plugin(request);
    await this.#update(plugin, grantPermissions(plugin, request.permissions));
    return pluginView(plugin);
  }

  /** Required settings and secrets first, then the host starts and its tools are published. */
  async enable(input: { plugin_id: string }): Promise<PluginDto> {
    const plugin = await this.#plugin(input);
    requireEnableable(plugin);
    if (isRunning(plugin)) return pluginView(plugin);
    requireConfigured(plugin.row.plugin_id, plugin.settings, await this.#settingsRow(plugin.row.plugin_id));
    await this.#startHost(plugin);
    return pluginView(plugin);
  }

  async disable(input: { plugin_id: string }): Promise<PluginDto> {
    const plugin = await this.#plugin(input);
    await plugin.host?.stop();
    plugin.host = undefined;
    const state = disabledState(plugin.row.state);
    if (state) await this.#update(plugin, { state, error: null });
    else this.#changed();
    return pluginView(plugin);
  }

  /** Never turns an installed, disabled or unpermitted plugin on: only Enable does. */
  async restart(input: { plugin_id: string }): Promise<PluginHostStatusDto> {
    const plugin = await this.#plugin(input);
    requireRestartable(plugin);
    await this.#startHost(plugin);
    return hostView(plugin);
  }

  async host(input: { plugin_id: string }): Promise<PluginHostStatusDto> {
    return hostView(await this.#plugin(input));
  }

  /** Stops it, deletes its secrets from the vault, then its row and settings namespace. */
  async uninstall(input: { plugin_id: string }): Promise<void> {
    const plugin = await this.#plugin(input);
    const pluginId = plugin.row.plugin_id;
    await plugin.host?.stop();
    const stored = await this.#settingsRow(pluginId);
    for (const reference of await secretReferences(pluginId, plugin.settings, stored)) {
      await this.#secrets(() => this.#deps.vault.delete(reference));
    }
    await this.#storage(() => this.#deps.repository.remove(pluginId));
    this.#loaded.delete(pluginId);
    this.#changed();
  }

  async #startHost(plugin: LoadedPlugin): Promise<void> {
    try {
      await startPluginHost(plugin, {
        sink: this.#tools,
        clock: this.#clock,
        connect: () =>
          connectPlugin(plugin, {
            connectors: this.#deps.connectors ?? {},
            companion: (server) => this.#companionTransport(server),
            ...(this.#deps.fetch && { fetch: this.#deps.fetch }),
          }),
        onUnhealthy: (error) => {
          void this.#update(plugin, {
            state: 'error',
            error: storedError(error),
          }).catch(() => {});
        },
      });
    } catch (failure) {
      if (!isAppError(failure)) throw failure;
      await this.#update(plugin, { state: 'error', error: storedError(failure) });
      throw failure;
    }
    await this.#update(plugin, { state: 'enabled', error: null });
  }

  // ---- companion --------------------------------------------------------------

  /**
   * Pairs with the Node companion once: the code it printed buys a token,
   * kept in the vault (never in settings); its address is kept beside it.
   */
  async pairCompanion(input: { url: string; code: string }): Promise<{ paired: true }> {
    const request = parseInput(pairSchema, input, 'The companion address or code is not valid.');
    const { base, token } = await exchangePairingCode(request, this.#deps.fetch ?? fetch);
    await this.#secrets(() => this.#deps.vault.put(COMPANION_TOKEN_SECRET, token));
    await this.#secrets(() => this.#deps.vault.put(COMPANION_URL_SECRET, base));
    return { paired: true };
  }

  /** Whether the companion is paired, and where it listens (never the token). */
  async companion(): Promise<{ paired: boolean; url: string | null }> {
    const token = await this.#secrets(() => this.#deps.vault.status(COMPANION_TOKEN_SECRET));
    const url = token.configured
      ? await this.#secrets(() => this.#deps.vault.reveal(COMPANION_URL_SECRET))
      : undefined;
    return { paired: token.configured, url: url ?? null };
  }

  #companionTransport(server: { pluginId: string; command: string; args: readonly string[] }) {
    return companionServerTransport(server, this.#deps.connectors?.companionSocket, async () => ({
      token: await this.#secrets(() => this.#deps.vault.reveal(COMPANION_TOKEN_SECRET)),
      base: await this.#secrets(() => this.#deps.vault.reveal(COMPANION_URL_SECRET)),
    }));
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
    const value = checkSecretValue(plugin_id, key, secret);
    const reference = await secretReference(plugin_id, key);
    await this.#secrets(() => this.#deps.vault.put(reference, value));
    const stored = await this.#settingsRow(plugin_id);
    await this.#storage(() => this.#deps.repository.putSettings(withSecret(stored, key, reference)));
    return { plugin_id, key, configured: true };
  }

  async deleteSecret(input: { plugin_id: string; key: string }): Promise<PluginSecretStatusDto> {
    const { plugin_id, key } = parseInput(secretKeyInput, input, 'This secret request is not valid.');
    const plugin = await this.#plugin({ plugin_id });
    secretField(plugin_id, plugin.settings, key);
    await this.#secrets(async () => this.#deps.vault.delete(await secretReference(plugin_id, key)));
    const stored = await this.#settingsRow(plugin_id);
    await this.#storage(() => this.#deps.repository.putSettings(withoutSecret(stored, key)));
    return { plugin_id, key, configured: false };
  }

  // ---- commands ---------------------------------------------------------------

  /** Commands of enabled plugins whose `when` holds for the context (§7.3). */
  async listCommands(
    input: { location?: CommandLocation; context?: CommandContext } = {},
  ): Promise<{ items: PluginCommandDto[] }> {
    await this.#restore();
    const request = parseInput(commandListSchema, input, 'This command query is not valid.');
    return { items: availableCommands(this.#loaded.values(), request) };
  }

  async executeCommand(input: {
    command_id: string;
    arguments?: Record<string, unknown>;
    context?: CommandContext;
  }): Promise<CommandExecutionDto> {
    await this.#restore();
    const { command_id: commandId, ...body } = input;
    const { plugin, command } = findEnabledCommand(this.#loaded.values(), commandId);
    const request = executeCommandSchema.safeParse(body);
    if (!request.success) {
      throw new AppError('PLUGIN_COMMAND_ARGUMENT_INVALID', 'The command request is not valid.', {
        command_id: commandId,
      });
    }
    checkCommandCall(command, request.data);
    const effect = await runPluginCommand(plugin, command, request.data, {
      stored: await this.#settingsRow(plugin.row.plugin_id),
      reveal: (reference) => this.#secrets(() => this.#deps.vault.reveal(reference)),
      audit: this.#audit,
      clock: this.#clock,
      ...(this.#deps.schedule && { schedule: this.#deps.schedule }),
    });
    return { command_id: commandId, status: 'completed', effect };
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
      for (const row of rows) this.#loaded.set(row.plugin_id, restorePlugin(row));
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
      (await this.#storage(() => this.#deps.repository.getSettings(pluginId))) ?? unsetSettings(pluginId)
    );
  }

  async #update(plugin: LoadedPlugin, patch: Partial<Omit<PluginRow, 'plugin_id'>>): Promise<void> {
    const next = { ...patch, updated_at: toIsoUtc(this.#clock()) };
    Object.assign(plugin.row, next);
    try {
      await this.#storage(() => this.#deps.repository.update(plugin.row.plugin_id, next));
    } finally {
      // The row in memory, which `list` shows, changed even if storing it failed.
      this.#changed();
    }
  }

  /** Storage failures are PLUGIN_STORAGE_ERROR; the domain's own errors pass through. */
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

  /** Every vault failure is PLUGIN_SECRET_STORE_ERROR. */
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
}
