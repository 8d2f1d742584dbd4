import { AppError, isAppError } from '../contracts/errors';
import type {
  CommandContext,
  CommandEffect,
  CommandLocation,
  PluginCommandDto,
} from '../contracts/plugin-types';
import type { Clock } from '../core/ids';
import {
  COMMAND_HANDLERS,
  ENVELOPE_KEY,
  commandView,
  conditionsFor,
  runCommand,
  trimContext,
  type CommandAuditLog,
  type PluginCommand,
  type Scheduler,
} from './commands';
import type { LoadedPlugin } from './plugin-lifecycle';
import { effectiveValues, requireSettings, type StoredSettings } from './plugin-settings';

/** A command call after its envelope was parsed: the arguments and the context it runs in. */
export interface CommandCall {
  arguments: Record<string, unknown>;
  context: CommandContext;
}

/** Commands of enabled plugins whose location matches and whose `when` holds for the context (§7.3). */
export function availableCommands(
  plugins: Iterable<LoadedPlugin>,
  request: { location?: CommandLocation; context: CommandContext },
): PluginCommandDto[] {
  const holds = conditionsFor(request.context, { hasVault: true });
  const items: PluginCommandDto[] = [];
  for (const plugin of plugins) {
    if (plugin.row.state !== 'enabled') continue;
    for (const command of plugin.commands) {
      const { locations, when } = command.contribution;
      if (request.location && !locations.includes(request.location)) continue;
      if (!when.every((token) => holds.has(token))) continue;
      items.push(commandView(command, true));
    }
  }
  return items;
}

/** A command runs only while its plugin is enabled; otherwise it does not exist for the caller. */
export function findEnabledCommand(
  plugins: Iterable<LoadedPlugin>,
  commandId: string,
): { plugin: LoadedPlugin; command: PluginCommand } {
  for (const plugin of plugins) {
    const command = plugin.commands.find((candidate) => candidate.command_id === commandId);
    if (command && plugin.row.state === 'enabled') return { plugin, command };
  }
  throw new AppError('PLUGIN_COMMAND_NOT_FOUND', `No enabled plugin offers the command "${commandId}".`, {
    command_id: commandId,
  });
}

/** The arguments against the command's schema, then its `when` against the context. */
export function checkCommandCall(command: PluginCommand, call: CommandCall): void {
  const commandId = command.command_id;
  const issues = command.parameters.validate(call.arguments);
  if (issues.length > 0) {
    throw new AppError('PLUGIN_COMMAND_ARGUMENT_INVALID', `The arguments of "${commandId}" are not valid.`, {
      command_id: commandId,
      fields: issues,
    });
  }
  const holds = conditionsFor(call.context, { hasVault: true });
  const unmet = command.contribution.when.filter((token) => !holds.has(token));
  if (unmet.length > 0) {
    throw new AppError('PLUGIN_COMMAND_CONTEXT_INVALID', `"${commandId}" cannot run here.`, {
      command_id: commandId,
      unmet,
    });
  }
}

/**
 * The secrets a command declared, read from the vault only when the plugin
 * was granted `secrets.use`. A missing optional secret is left out; a
 * missing required one is PLUGIN_SECRET_REQUIRED.
 */
export async function commandSecrets(
  plugin: LoadedPlugin,
  command: PluginCommand,
  stored: StoredSettings,
  reveal: (reference: string) => Promise<string | undefined>,
): Promise<Record<string, string>> {
  const pluginId = plugin.row.plugin_id;
  const secrets: Record<string, string> = {};
  for (const key of command.contribution.secrets) {
    if (!plugin.row.granted_permissions.includes('secrets.use')) {
      throw new AppError('PLUGIN_SECRET_ACCESS_DENIED', `"${command.command_id}" may not read secrets.`, {
        command_id: command.command_id,
        key,
      });
    }
    const reference = stored.secret_refs[key];
    const value = reference === undefined ? undefined : await reveal(reference);
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
  return secrets;
}

export interface CommandRunOptions {
  /** The plugin's stored settings: required ones are checked, effective values handed on. */
  stored: StoredSettings;
  reveal: (reference: string) => Promise<string | undefined>;
  audit: CommandAuditLog;
  clock: Clock;
  schedule?: Scheduler;
}

/**
 * Runs a checked command: a host handler in the app, or the target tool of
 * the plugin's server with the `_notesagent` envelope (context trimmed to
 * what the command declared, settings, its secrets). Failures of the tool
 * become command codes; the host's own codes pass through.
 */
export async function runPluginCommand(
  plugin: LoadedPlugin,
  command: PluginCommand,
  call: CommandCall,
  options: CommandRunOptions,
): Promise<CommandEffect> {
  const pluginId = plugin.row.plugin_id;
  const commandId = command.command_id;
  requireSettings(pluginId, plugin.settings, options.stored);
  const secrets = await commandSecrets(plugin, command, options.stored, options.reveal);
  const context = trimContext(command, call.context);
  const settings = effectiveValues(plugin.settings, options.stored);
  const target = command.contribution.target;
  return runCommand(
    command,
    async (signal) => {
      if (target.type === 'handler') {
        const handler = COMMAND_HANDLERS[target.handler as keyof typeof COMMAND_HANDLERS];
        return handler({ title: command.contribution.title, arguments: call.arguments, context, settings });
      }
      if (!plugin.host)
        throw new AppError('PLUGIN_HOST_UNAVAILABLE', `The plugin "${pluginId}" is not running.`, {
          plugin_id: pluginId,
        });
      const envelope = { command_id: commandId, arguments: call.arguments, context, settings, secrets };
      const outcome = await plugin.host
        .callTool(target.tool, { ...call.arguments, [ENVELOPE_KEY]: envelope }, { signal })
        .catch((error: unknown) => {
          throw commandToolFailure(commandId, error);
        });
      const structured = outcome.structured_content;
      return structured && 'effect' in structured ? structured.effect : structured;
    },
    { audit: options.audit, clock: options.clock, ...(options.schedule && { schedule: options.schedule }) },
  );
}

/** A failed target tool: host problems keep their code, an oversized result and anything else get the command's. */
export function commandToolFailure(commandId: string, error: unknown): AppError {
  if (isAppError(error) && error.code.startsWith('PLUGIN_HOST')) return error;
  if (isAppError(error) && error.code === 'MCP_TOOL_RESULT_TOO_LARGE') {
    return new AppError('PLUGIN_COMMAND_RESULT_TOO_LARGE', `The result of "${commandId}" is too large.`, {
      command_id: commandId,
    });
  }
  return new AppError('PLUGIN_COMMAND_EXECUTION_FAILED', `The command "${commandId}" failed.`, {
    command_id: commandId,
  });
}
