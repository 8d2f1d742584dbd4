import { describe, expect, it } from 'vitest';
import type { Scheduler } from './commands';
import {
  CommandAuditLog,
  MAX_AUDIT_ENTRIES,
  checkEffect,
  checkTargetSchema,
  parseCommands,
  runCommand,
  trimContext,
} from './commands';
import { EMPTY_SETTINGS_SCHEMA } from './plugin-settings';

const settings = {
  schema_version: 1,
  fields: [
    { key: 'token', label: 'Token', type: 'secret' as const, required: true, options: [] },
    { key: 'limit', label: 'Limit', type: 'number' as const, required: false, options: [] },
  ],
};
const handlerCommand = (extra: Record<string, unknown> = {}) => ({
  id: 'run',
  title: 'Run',
  target: { type: 'handler', handler: 'notify' },
  ...extra,
});
const parse = (commands: unknown[], permissions: string[] = []) =>
  parseCommands({ commands }, { pluginId: 'demo', permissions, settings });

/** A scheduler the test fires by hand: no wall clock. */
function manualScheduler() {
  const pending: Array<() => void> = [];
  const schedule: Scheduler = (callback) => {
    pending.push(callback);
    return () => pending.splice(pending.indexOf(callback), 1);
  };
  return { schedule, fire: () => pending.shift()?.() };
}

describe('command contributions', () => {
  it('namespaces commands and keeps the declared context keys only', () => {
    const [command] = parse([handlerCommand({ context: ['selection'] })]);
    expect(command?.command_id).toBe('demo.run');
    expect(trimContext(command!, { note_id: 'n1', selection: 'text' })).toEqual({ selection: 'text' });
  });

  it.each([
    ['a duplicate id', [handlerCommand(), handlerCommand()], 'PLUGIN_COMMAND_CONFLICT'],
    [
      'an unknown handler',
      [handlerCommand({ target: { type: 'handler', handler: 'eval' } })],
      'PLUGIN_COMMAND_INVALID',
    ],
    [
      'a tool of another plugin',
      [handlerCommand({ target: { type: 'mcp_tool', tool: 'other.x' } })],
      'PLUGIN_COMMAND_INVALID',
    ],
    ['a when expression', [handlerCommand({ when: ['document.cookie'] })], 'PLUGIN_COMMAND_INVALID'],
    [
      'an external $ref',
      [handlerCommand({ parameters: { type: 'object', properties: { a: { $ref: 'file:///x' } } } })],
      'PLUGIN_COMMAND_INVALID',
    ],
    [
      'a secret that is not a secret field',
      [handlerCommand({ secrets: ['limit'] })],
      'PLUGIN_SECRET_FIELD_NOT_FOUND',
    ],
  ])('refuses %s', (_what, commands, code) => {
    expect(() => parse(commands, ['secrets.use'])).toThrow(expect.objectContaining({ code }));
  });

  it('refuses declared secrets without the secrets.use permission', () => {
    expect(() => parse([handlerCommand({ secrets: ['token'] })])).toThrow(
      expect.objectContaining({ code: 'PLUGIN_SECRET_ACCESS_DENIED' }),
    );
    expect(parse([handlerCommand({ secrets: ['token'] })], ['secrets.use'])).toHaveLength(1);
    expect(() =>
      parseCommands(
        { commands: [handlerCommand({ secrets: ['token'] })] },
        { pluginId: 'demo', permissions: ['secrets.use'], settings: EMPTY_SETTINGS_SCHEMA },
      ),
    ).toThrow(expect.objectContaining({ code: 'PLUGIN_SECRET_FIELD_NOT_FOUND' }));
  });

  it('requires the _notesagent object marker on an mcp_tool target', () => {
    const [command] = parse([handlerCommand({ target: { type: 'mcp_tool', tool: 'demo.x' } })]);
    expect(() => checkTargetSchema(command!, { type: 'object', properties: {} })).toThrow(
      expect.objectContaining({ code: 'PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH' }),
    );
    expect(() =>
      checkTargetSchema(command!, {
        type: 'object',
        allOf: [{ properties: { _notesagent: { type: 'object' } } }],
      }),
    ).toThrow(expect.objectContaining({ code: 'PLUGIN_COMMAND_TARGET_SCHEMA_MISMATCH' }));
    expect(() =>
      checkTargetSchema(command!, { type: 'object', properties: { _notesagent: { type: 'object' } } }),
    ).not.toThrow();
  });
});

describe('command effects (§7.4 whitelist)', () => {
  it.each([
    [{ type: 'none', payload: {} }],
    [{ type: 'notification', payload: { level: 'success', message: 'Done' } }],
    [{ type: 'navigate', payload: { route: 'search' } }],
    [{ type: 'refresh', payload: { scope: 'commands' } }],
    [{ type: 'job', payload: { job_id: 'job_123' } }],
  ])('accepts %j', (effect) => {
    expect(checkEffect('demo.run', effect)).toEqual(effect);
  });

  it.each([
    [
      'an extra payload field',
      { type: 'notification', payload: { level: 'info', message: 'x', html: '<b>' } },
    ],
    ['an extra top-level field', { type: 'none', payload: {}, script: 'alert(1)' }],
    ['a payload on none', { type: 'none', payload: { a: 1 } }],
    ['an empty message', { type: 'notification', payload: { level: 'info', message: '' } }],
    ['an unknown level', { type: 'notification', payload: { level: 'fatal', message: 'x' } }],
    ['a URL as route', { type: 'navigate', payload: { route: 'https://evil.example' } }],
    ['an unknown scope', { type: 'refresh', payload: { scope: 'everything' } }],
    ['a bad job id', { type: 'job', payload: { job_id: '../../etc' } }],
    ['an unknown type', { type: 'eval', payload: { code: '1' } }],
  ])('refuses %s', (_what, effect) => {
    expect(() => checkEffect('demo.run', effect)).toThrow(
      expect.objectContaining({ code: 'PLUGIN_COMMAND_RESULT_INVALID' }),
    );
  });

  it('refuses a result over 64 KiB', () => {
    const effect = { type: 'notification', payload: { level: 'info', message: 'x'.repeat(70 * 1024) } };
    expect(() => checkEffect('demo.run', effect)).toThrow(
      expect.objectContaining({ code: 'PLUGIN_COMMAND_RESULT_TOO_LARGE', status: 413 }),
    );
  });
});

describe('runCommand', () => {
  const [command] = parse([handlerCommand()]);

  it('times out through the injected scheduler and aborts the work', async () => {
    const { schedule, fire } = manualScheduler();
    const audit = new CommandAuditLog();
    let aborted = false;
    const running = runCommand(
      command!,
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ type: 'none', payload: {} });
          });
        }),
      { audit, schedule, clock: () => 0 },
    );
    fire();
    await expect(running).rejects.toMatchObject({ code: 'PLUGIN_COMMAND_TIMEOUT', status: 504 });
    expect(aborted).toBe(true);
    expect(audit.list()).toEqual([
      expect.objectContaining({ status: 'failed', error_code: 'PLUGIN_COMMAND_TIMEOUT' }),
    ]);
  });

  it('maps an unexpected failure to PLUGIN_COMMAND_EXECUTION_FAILED without its text', async () => {
    const audit = new CommandAuditLog();
    const failing = runCommand(
      command!,
      async () => {
        throw new Error('/home/user/secret path');
      },
      { audit, schedule: manualScheduler().schedule },
    );
    await expect(failing).rejects.toMatchObject({
      code: 'PLUGIN_COMMAND_EXECUTION_FAILED',
      message: expect.not.stringContaining('secret'),
    });
  });

  it('keeps the last 500 audit entries, without arguments or effects', async () => {
    const audit = new CommandAuditLog();
    let now = 0;
    for (let i = 0; i < MAX_AUDIT_ENTRIES + 5; i++) {
      await runCommand(
        command!,
        async () => ({ type: 'notification', payload: { level: 'info', message: `m${i}` } }),
        {
          audit,
          schedule: manualScheduler().schedule,
          clock: () => (now += 1),
        },
      );
    }
    const entries = audit.list();
    expect(entries).toHaveLength(MAX_AUDIT_ENTRIES);
    expect(Object.keys(entries[0]!).sort()).toEqual([
      'command_id',
      'duration_ms',
      'error_code',
      'plugin_id',
      'status',
      'timestamp',
    ]);
    expect(JSON.stringify(entries)).not.toContain('m504');
  });
});
