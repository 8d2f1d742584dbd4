import { AppError, isAppError } from '../contracts/errors';
import type { ErrorCode } from '../contracts/error-codes';
import type {
  CommandAuditEntry,
  CommandContext,
  CommandEffect,
  PluginCommandDto,
  PluginSettingValue,
  WhenToken,
} from '../contracts/plugin-types';
import {
  commandEffectSchema,
  commandsFileSchema,
  type CommandContribution,
  type SettingsSchemaFile,
} from '../contracts/plugins-schemas';
import { toIsoUtc } from '../contracts/time';
import { systemClock, type Clock } from '../core/ids';
import { compileSchema, SchemaProblem, type CompiledSchema, type JsonObject } from './json-schema';
import { utf8Length } from './transport-fault';

export const COMMAND_TIMEOUT_MS = 30_000;
export const MAX_COMMAND_RESULT_BYTES = 64 * 1024;
export const MAX_AUDIT_ENTRIES = 500;
export const ENVELOPE_KEY = '_notesagent';

/** Handlers the host ships; a plugin can only name one of these (§7.4). */
export const COMMAND_HANDLERS = {
  /** A notification with `arguments.message` (or the command title). */
  notify: (input: HandlerInput): unknown => ({
    type: 'notification',
    payload: {
      level: 'info',
      message: typeof input.arguments.message === 'string' ? input.arguments.message : input.title,
    },
  }),
  /** Asks the app to reload a part of its state. */
  refresh: (): unknown => ({ type: 'refresh', payload: { scope: 'plugins' } }),
} as const;

export interface HandlerInput {
  title: string;
  arguments: Record<string, unknown>;
  context: CommandContext;
  settings: Record<string, PluginSettingValue>;
}

/** A validated command, ready to be listed and run. */
export interface PluginCommand {
  command_id: string;
  plugin_id: string;
  contribution: CommandContribution;
  parameters: CompiledSchema;
}

function commandInvalid(pluginId: string, reason: string, commandId?: string): AppError {
  return new AppError('PLUGIN_COMMAND_INVALID', `A command of "${pluginId}" is not valid: ${reason}.`, {
    plugin_id: pluginId,
    ...(commandId !== undefined && { command_id: commandId }),
    reason,
  });
}

/**
 * `commands.yaml` at install: its shape, argument schemas (in-document
 * references only), targets (a host handler or a tool of this plugin), and
 * declared secrets (secret fields of this plugin's schema, with `secrets.use`).
 */
export function parseCommands(
  raw: unknown,
  options: { pluginId: string; permissions: readonly string[]; settings: SettingsSchemaFile },
): PluginCommand[] {
  const { pluginId } = options;
  const parsed = commandsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw commandInvalid(pluginId, `${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const commands: PluginCommand[] = [];
  const seen = new Set<string>();
  for (const contribution of parsed.data.commands) {
    const commandId = `${pluginId}.${contribution.id}`;
    if (seen.has(commandId)) {
      throw new AppError('PLUGIN_COMMAND_CONFLICT', `The command "${commandId}" is declared twice.`, {
        plugin_id: pluginId,
        command_id: commandId,
      });
    }
    seen.add(commandId);
    let parameters: CompiledSchema;
    try {
      if (contribution.parameters.type !== 'object')
        throw new SchemaProblem('parameters must be an object schema', '');
      parameters = compileSchema(contribution.parameters);
    } catch (error) {
      throw commandInvalid(
        pluginId,
        error instanceof Error ? error.message : 'invalid parameters',
        commandId,
      );
    }
    const target = contribution.target;
    if (target.type === 'handler' && !(target.handler in COMMAND_HANDLERS)) {
      throw commandInvalid(pluginId, `the handler "${target.handler}" is not a host handler`, commandId);
    }
    if (target.type === 'mcp_tool' && !target.tool.startsWith(`${pluginId}.`)) {
      throw commandInvalid(pluginId, `the tool "${target.tool}" is outside the plugin`, commandId);
    }
    for (const key of contribution.secrets) {
      const field = options.settings.fields.find((candidate) => candidate.key === key);
      if (!field || field.type !== 'secret') {
        throw new AppError(
          'PLUGIN_SECRET_FIELD_NOT_FOUND',
          `The command "${commandId}" uses "${key}", which is not a secret setting.`,
          {
            plugin_id: pluginId,
            command_id: commandId,
            key,
          },
        );
      }
      if (!options.permissions.includes('secrets.use')) {
        throw new AppError(
          'PLUGIN_SECRET_ACCESS_DENIED',
          `The command "${commandId}" uses secrets without the secrets.use permission.`,
          {
            plugin_id: pluginId,
            command_id: commandId,
            key,
          },
        );
      }
    }
    commands.push({ command_id: commandId, plugin_id: pluginId, contribution, parameters });
  }
  return commands;
}

/** The MCP tools commands target: the server must list them (and they stay off the agent). */
export function commandToolIds(commands: readonly PluginCommand[]): string[] {
  return [
    ...new Set(
      commands.flatMap((c) =>
        c.contribution.target.type === 'mcp_tool' ? [c.contribution.target.tool] : [],
      ),
    ),
  ];
}

/** §7.4 protocol marker: the target's schema names `_notesagent: { type: object }` at the top level. */
export function checkTargetSchema(command: PluginCommand, inputSchema: JsonObject | undefined): void {
  const properties = inputSchema?.properties as JsonObject | undefined;
  const marker = properties?.[ENVELOPE_KEY] as JsonObject | undefined;
  if (!marker || typeof marker !== 'object' || marker.type !== 'object') {
    throw new AppError(
      'PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH',
      `The tool behind "${command.command_id}" does not declare the ${ENVELOPE_KEY} object.`,
      { command_id: command.command_id },
    );
  }
}

export function commandView(command: PluginCommand, enabled: boolean): PluginCommandDto {
  const { contribution } = command;
  return {
    command_id: command.command_id,
    plugin_id: command.plugin_id,
    title: contribution.title,
    description: contribution.description,
    icon: contribution.icon ?? null,
    locations: contribution.locations,
    when: contribution.when,
    parameters: contribution.parameters,
    enabled,
  };
}

/** Which host conditions hold for a context; never plugin code. */
export function conditionsFor(context: CommandContext, state: { hasVault: boolean }): Set<WhenToken> {
  const tokens = new Set<WhenToken>();
  if (state.hasVault) tokens.add('workspace.has_vault');
  if (context.note_id) tokens.add('editor.has_note');
  if (context.selection) tokens.add('editor.has_selection');
  return tokens;
}

/** Only the context keys the command declares reach it. */
export function trimContext(command: PluginCommand, context: CommandContext): CommandContext {
  const trimmed: CommandContext = {};
  for (const key of command.contribution.context) {
    const value = context[key];
    if (value !== undefined) trimmed[key] = value;
  }
  return trimmed;
}

/** A command's raw result → the whitelisted effect, within 64 KiB. */
export function checkEffect(commandId: string, raw: unknown): CommandEffect {
  let size: number;
  try {
    size = utf8Length(JSON.stringify(raw) ?? '');
  } catch {
    throw new AppError(
      'PLUGIN_COMMAND_RESULT_INVALID',
      `The command "${commandId}" returned something that is not JSON.`,
      {
        command_id: commandId,
      },
    );
  }
  if (size > MAX_COMMAND_RESULT_BYTES) {
    throw new AppError(
      'PLUGIN_COMMAND_RESULT_TOO_LARGE',
      `The result of "${commandId}" is larger than 64 KiB.`,
      {
        command_id: commandId,
        size,
        limit: MAX_COMMAND_RESULT_BYTES,
      },
    );
  }
  const parsed = commandEffectSchema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError(
      'PLUGIN_COMMAND_RESULT_INVALID',
      `The command "${commandId}" returned an effect the app does not accept.`,
      {
        command_id: commandId,
      },
    );
  }
  return parsed.data as CommandEffect;
}

/** The last 500 executions: command, plugin, status, duration, error code. Nothing else. */
export class CommandAuditLog {
  readonly #entries: CommandAuditEntry[] = [];

  record(entry: CommandAuditEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_AUDIT_ENTRIES)
      this.#entries.splice(0, this.#entries.length - MAX_AUDIT_ENTRIES);
  }

  list(): CommandAuditEntry[] {
    return [...this.#entries];
  }
}

/** A timer the tests can drive: `schedule` returns the cancel function. */
export type Scheduler = (callback: () => void, ms: number) => () => void;
export const realScheduler: Scheduler = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
};

/**
 * Runs `work` under the command timeout and the audit log: a timeout aborts
 * `work` and is PLUGIN_COMMAND_TIMEOUT; an unexpected failure is
 * PLUGIN_COMMAND_EXECUTION_FAILED; the effect is checked before it returns.
 */
export async function runCommand(
  command: PluginCommand,
  work: (signal: AbortSignal) => Promise<unknown>,
  options: { audit: CommandAuditLog; clock?: Clock; schedule?: Scheduler; timeoutMs?: number },
): Promise<CommandEffect> {
  const clock = options.clock ?? systemClock;
  const started = clock();
  const controller = new AbortController();
  let cancelTimer: () => void = () => {};
  const timeout = new Promise<never>((_, reject) => {
    cancelTimer = (options.schedule ?? realScheduler)(() => {
      // Rejected before the abort, so a work that settles on abort cannot win the race.
      reject(
        new AppError(
          'PLUGIN_COMMAND_TIMEOUT',
          `The command "${command.command_id}" did not finish in time.`,
          {
            command_id: command.command_id,
          },
        ),
      );
      controller.abort(new DOMException('timed out', 'TimeoutError'));
    }, options.timeoutMs ?? COMMAND_TIMEOUT_MS);
  });
  let code: ErrorCode | null = null;
  try {
    const raw = await Promise.race([work(controller.signal), timeout]);
    return checkEffect(command.command_id, raw);
  } catch (error) {
    const failure = isAppError(error)
      ? error
      : new AppError('PLUGIN_COMMAND_EXECUTION_FAILED', `The command "${command.command_id}" failed.`, {
          command_id: command.command_id,
        });
    code = failure.code;
    throw failure;
  } finally {
    cancelTimer();
    options.audit.record({
      command_id: command.command_id,
      plugin_id: command.plugin_id,
      status: code === null ? 'completed' : 'failed',
      duration_ms: Math.max(0, clock() - started),
      error_code: code,
      timestamp: toIsoUtc(clock()),
    });
  }
}
