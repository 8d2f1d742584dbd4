import { AppError, isAppError } from '../contracts/errors';
import type { PluginDto, PluginHostStatusDto, PluginState } from '../contracts/plugin-types';
import {
  pluginManifestSchema,
  type PluginManifest,
  type SettingsSchemaFile,
} from '../contracts/plugins-schemas';
import type { PluginRow, PluginSettingsRow } from '../db/plugin-stores';
import { parseCommands, type PluginCommand } from './commands';
import type { McpHost } from './mcp-host';
import type { CheckedPluginPackage } from './plugin-package';
import { parseSettingsSchema } from './plugin-settings';

/**
 * A plugin's lifecycle (§7.2): installed (or permission_required while it
 * declares permissions not yet granted) → enabled ⇄ disabled, with error when
 * its host fails. Only Enable turns a plugin on; these rules are pure, the
 * service stores what they return.
 */

/** A loaded plugin: its row, checked contributions, and its host while it runs. */
export interface LoadedPlugin {
  row: PluginRow;
  manifest: PluginManifest;
  settings: SettingsSchemaFile;
  commands: PluginCommand[];
  host?: McpHost;
}

export function pluginNotFound(pluginId: string): AppError {
  return new AppError('PLUGIN_NOT_FOUND', `The plugin "${pluginId}" is not installed.`, {
    plugin_id: pluginId,
  });
}

/** The rows a fresh install writes: no grants yet, empty settings of the package's schema version. */
export function installRows(
  checked: CheckedPluginPackage,
  now: string,
): { row: PluginRow; settings: PluginSettingsRow } {
  const pluginId = checked.manifest.id;
  return {
    row: {
      plugin_id: pluginId,
      manifest: checked.manifest,
      commands: checked.commands.map((command) => command.contribution),
      settings_schema: checked.settings,
      state: checked.manifest.permissions.length > 0 ? 'permission_required' : 'installed',
      granted_permissions: [],
      files: checked.files,
      installed_at: now,
      updated_at: now,
      error: null,
    },
    settings: {
      plugin_id: pluginId,
      schema_version: checked.settings.schema_version,
      values: {},
      secret_refs: {},
    },
  };
}

/** A stored row back in memory, its contributions checked again as at install. */
export function restorePlugin(row: PluginRow): LoadedPlugin {
  const manifest = pluginManifestSchema.parse(row.manifest);
  const settings = parseSettingsSchema(row.settings_schema, row.plugin_id);
  const commands = parseCommands(
    { commands: row.commands },
    { pluginId: row.plugin_id, permissions: manifest.permissions, settings },
  );
  return { row, manifest, settings, commands };
}

/**
 * Grants are all or nothing: exactly what the manifest declares. Granting
 * lifts permission_required; any other state stays as it is.
 */
export function grantPermissions(
  plugin: LoadedPlugin,
  requested: readonly string[],
): { granted_permissions: string[]; state: PluginState } {
  const declared: readonly string[] = plugin.manifest.permissions;
  const missing = declared.filter((permission) => !requested.includes(permission));
  const unknown = requested.filter((permission) => !declared.includes(permission));
  if (missing.length > 0 || unknown.length > 0) {
    throw new AppError('VALIDATION_FAILED', 'Grant exactly the permissions the plugin declares.', {
      missing,
      unknown,
    });
  }
  const state = plugin.row.state === 'permission_required' ? 'installed' : plugin.row.state;
  return { granted_permissions: [...declared], state };
}

export function requireEnableable(plugin: LoadedPlugin): void {
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
}

/** Enable of a plugin whose host is up is a no-op. */
export function isRunning(plugin: LoadedPlugin): boolean {
  return plugin.row.state === 'enabled' && plugin.host?.status().status === 'ready';
}

/** Restart never turns an installed, disabled or unpermitted plugin on: only Enable does. */
export function requireRestartable(plugin: LoadedPlugin): void {
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
}

/**
 * The state Disable leaves: disabled, with the error cleared; a plugin still
 * waiting for its grants stays as it is (null: nothing to store).
 */
export function disabledState(state: PluginState): 'disabled' | null {
  return state === 'permission_required' ? null : 'disabled';
}

/** A host that failed to start, as the error the plugin is left in; unknown failures get the generic code. */
export function hostStartFailure(pluginId: string, error: unknown): AppError {
  return isAppError(error)
    ? error
    : new AppError('PLUGIN_HOST_START_FAILED', `The plugin "${pluginId}" could not be started.`);
}

export function pluginView(plugin: LoadedPlugin): PluginDto {
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

/** The host's status; a plugin without a host is stopped, nothing known about its server. */
export function hostView(plugin: LoadedPlugin): PluginHostStatusDto {
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
