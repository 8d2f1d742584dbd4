import { describe, expect, it } from 'vitest';
import { AppError } from '../contracts/errors';
import { demoPlugin } from './__fixtures__/demo-plugin';
import {
  availableCommands,
  checkCommandCall,
  commandSecrets,
  commandToolFailure,
  findEnabledCommand,
  runPluginCommand,
  type CommandRunOptions,
} from './command-execution';
import { CommandAuditLog, ENVELOPE_KEY } from './commands';
import type { LoadedPlugin } from './plugin-lifecycle';
import type { McpHost } from './mcp-host';

/** The demo, enabled and granted, with a host double that records the calls it gets. */
function enabledDemo(
  reply: () => Promise<unknown> = async () => ({ effect: { type: 'none', payload: {} } }),
) {
  const plugin = demoPlugin();
  plugin.row.state = 'enabled';
  plugin.row.granted_permissions = ['secrets.use'];
  const calls: Array<{ tool: string; args: Record<string, unknown> }> = [];
  plugin.host = {
    async callTool(tool: string, args: Record<string, unknown>) {
      calls.push({ tool, args });
      return { content: [], structured_content: (await reply()) as Record<string, unknown>, text: '' };
    },
  } as unknown as McpHost;
  return { plugin, calls };
}

const command = (plugin: LoadedPlugin, id: string) => plugin.commands.find((c) => c.command_id === id)!;
const configured = { schema_version: 2, values: { greeting: 'Hi' }, secret_refs: { token: 'ref.token' } };
const vault: Record<string, string> = { 'ref.token': 'sk-1' };
const options = (extra: Partial<CommandRunOptions> = {}): CommandRunOptions => ({
  stored: configured,
  reveal: async (reference) => vault[reference],
  audit: new CommandAuditLog(),
  clock: () => 0,
  ...extra,
});

describe('which commands are offered', () => {
  it('only enabled plugins, the asked location, and when their conditions hold', () => {
    const { plugin } = enabledDemo();
    const ids = (location?: 'command_palette' | 'context_menu', selection?: string) =>
      availableCommands([plugin], {
        ...(location && { location }),
        context: selection ? { selection } : {},
      }).map((item) => item.command_id);
    expect(ids()).toEqual(['demo.hello']);
    expect(ids(undefined, 'text')).toEqual(['demo.hello', 'demo.shout']);
    expect(ids('context_menu', 'text')).toEqual(['demo.shout']);
    plugin.row.state = 'disabled';
    expect(ids(undefined, 'text')).toEqual([]);
  });

  it('a command of a plugin that is not enabled is not found', () => {
    const { plugin } = enabledDemo();
    expect(findEnabledCommand([plugin], 'demo.hello').command.command_id).toBe('demo.hello');
    plugin.row.state = 'error';
    expect(() => findEnabledCommand([plugin], 'demo.hello')).toThrow(
      expect.objectContaining({ code: 'PLUGIN_COMMAND_NOT_FOUND', details: { command_id: 'demo.hello' } }),
    );
  });
});

describe('checking a call', () => {
  it('refuses arguments against the schema, then an unmet context', () => {
    const { plugin } = enabledDemo();
    expect(() =>
      checkCommandCall(command(plugin, 'demo.hello'), { arguments: { message: 7 }, context: {} }),
    ).toThrow(expect.objectContaining({ code: 'PLUGIN_COMMAND_ARGUMENT_INVALID' }));
    expect(() => checkCommandCall(command(plugin, 'demo.shout'), { arguments: {}, context: {} })).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_COMMAND_CONTEXT_INVALID',
        details: { command_id: 'demo.shout', unmet: ['editor.has_selection'] },
      }),
    );
    expect(() =>
      checkCommandCall(command(plugin, 'demo.shout'), { arguments: {}, context: { selection: 'x' } }),
    ).not.toThrow();
  });
});

describe('secrets for a command', () => {
  it('reads the declared secrets that are set, leaving out an optional one that is not', async () => {
    const { plugin } = enabledDemo();
    expect(
      await commandSecrets(plugin, command(plugin, 'demo.shout'), configured, async (r) => vault[r]),
    ).toEqual({
      token: 'sk-1',
    });
  });

  it('a required secret that is not set, or no secrets.use grant, refuses the run', async () => {
    const { plugin } = enabledDemo();
    const shout = command(plugin, 'demo.shout');
    const unset = { ...configured, secret_refs: {} };
    await expect(commandSecrets(plugin, shout, unset, async () => undefined)).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_REQUIRED',
      details: { plugin_id: 'demo', key: 'token' },
    });
    plugin.row.granted_permissions = [];
    await expect(commandSecrets(plugin, shout, configured, async (r) => vault[r])).rejects.toMatchObject({
      code: 'PLUGIN_SECRET_ACCESS_DENIED',
    });
  });
});

describe('running a command', () => {
  it('a handler command runs in the app, without the plugin host', async () => {
    const { plugin, calls } = enabledDemo();
    plugin.host = undefined;
    const effect = await runPluginCommand(
      plugin,
      command(plugin, 'demo.hello'),
      { arguments: { message: 'yo' }, context: {} },
      options(),
    );
    expect(effect).toEqual({ type: 'notification', payload: { level: 'info', message: 'yo' } });
    expect(calls).toEqual([]);
  });

  it('an MCP command gets the envelope: trimmed context, effective settings, its secrets', async () => {
    const { plugin, calls } = enabledDemo();
    const audit = new CommandAuditLog();
    const effect = await runPluginCommand(
      plugin,
      command(plugin, 'demo.shout'),
      { arguments: { level: 2 }, context: { selection: 'abc', note_id: 'n1' } },
      options({ audit }),
    );
    expect(effect).toEqual({ type: 'none', payload: {} });
    expect(calls).toEqual([
      {
        tool: 'demo.shout',
        args: {
          level: 2,
          [ENVELOPE_KEY]: {
            command_id: 'demo.shout',
            arguments: { level: 2 },
            context: { selection: 'abc' },
            settings: { greeting: 'Hi', loud: false },
            secrets: { token: 'sk-1' },
          },
        },
      },
    ]);
    expect(audit.list()).toEqual([
      expect.objectContaining({ command_id: 'demo.shout', status: 'completed' }),
    ]);
  });

  it('a missing required setting stops the run before anything is called', async () => {
    const { plugin, calls } = enabledDemo();
    const call = { arguments: {}, context: { selection: 'abc' } };
    await expect(
      runPluginCommand(
        plugin,
        command(plugin, 'demo.shout'),
        call,
        options({ stored: { ...configured, values: {} } }),
      ),
    ).rejects.toMatchObject({ code: 'PLUGIN_SETTINGS_REQUIRED' });
    expect(calls).toEqual([]);
  });

  it('a stopped host is PLUGIN_HOST_UNAVAILABLE; a failing tool is the command failing, audited', async () => {
    const { plugin } = enabledDemo(async () => {
      throw new Error('server crashed');
    });
    const call = { arguments: {}, context: { selection: 'abc' } };
    const audit = new CommandAuditLog();
    await expect(
      runPluginCommand(plugin, command(plugin, 'demo.shout'), call, options({ audit })),
    ).rejects.toMatchObject({
      code: 'PLUGIN_COMMAND_EXECUTION_FAILED',
    });
    expect(audit.list()).toEqual([
      expect.objectContaining({ status: 'failed', error_code: 'PLUGIN_COMMAND_EXECUTION_FAILED' }),
    ]);
    plugin.host = undefined;
    await expect(
      runPluginCommand(plugin, command(plugin, 'demo.shout'), call, options()),
    ).rejects.toMatchObject({
      code: 'PLUGIN_HOST_UNAVAILABLE',
    });
  });

  it('tool failures map to command codes; the host keeps its own', () => {
    const host = new AppError('PLUGIN_HOST_UNHEALTHY', 'gone');
    expect(commandToolFailure('demo.shout', host)).toBe(host);
    expect(commandToolFailure('demo.shout', new AppError('MCP_TOOL_RESULT_TOO_LARGE', 'big'))).toMatchObject({
      code: 'PLUGIN_COMMAND_RESULT_TOO_LARGE',
      details: { command_id: 'demo.shout' },
    });
    expect(commandToolFailure('demo.shout', new AppError('VALIDATION_FAILED', 'x'))).toMatchObject({
      code: 'PLUGIN_COMMAND_EXECUTION_FAILED',
    });
  });
});
