import { describe, expect, it } from 'vitest';
import type { PluginState } from '../contracts/plugin-types';
import { demoPackage, demoPlugin } from './__fixtures__/demo-plugin';
import {
  disabledState,
  grantPermissions,
  hostStartFailure,
  hostView,
  installRows,
  pluginView,
  requireEnableable,
  requireRestartable,
  restorePlugin,
} from './plugin-lifecycle';
import { checkPluginPackage } from './plugin-package';
import { AppError } from '../contracts/errors';

const NOW = '2026-01-01T00:00:00.000Z';
const inState = (state: PluginState) => {
  const plugin = demoPlugin();
  plugin.row.state = state;
  return plugin;
};

describe('install and restore', () => {
  it('a plugin that declares permissions waits for them; empty settings at its schema version', () => {
    const { row, settings } = installRows(checkPluginPackage(demoPackage()), NOW);
    expect(row).toMatchObject({
      plugin_id: 'demo',
      state: 'permission_required',
      granted_permissions: [],
      installed_at: NOW,
      updated_at: NOW,
      error: null,
    });
    expect(settings).toEqual({ plugin_id: 'demo', schema_version: 2, values: {}, secret_refs: {} });
  });

  it('a plugin without permissions is installed at once', () => {
    const manifest =
      'id: quiet\nname: Q\nversion: 1.0.0\nbackend: { type: mcp, transport: worker, entry: server.js }';
    const { row } = installRows(checkPluginPackage(demoPackage({ 'plugin.yaml': manifest })), NOW);
    expect(row.state).toBe('installed');
  });

  it('a stored row loads back to the same contributions', () => {
    const { row } = installRows(checkPluginPackage(demoPackage()), NOW);
    const restored = restorePlugin(structuredClone(row));
    expect(restored.commands.map((command) => command.command_id)).toEqual(['demo.hello', 'demo.shout']);
    expect(restored.settings.fields.map((field) => field.key)).toEqual(['greeting', 'loud', 'token', 'note']);
    expect(pluginView(restored)).toMatchObject({
      plugin_id: 'demo',
      name: 'Demo',
      version: '1.0.0',
      transport: 'worker',
      tools: ['demo.echo'],
      commands: ['demo.hello', 'demo.shout'],
    });
  });
});

describe('permissions', () => {
  it('granting exactly the declared permissions lifts permission_required', () => {
    expect(grantPermissions(demoPlugin(), ['secrets.use'])).toEqual({
      granted_permissions: ['secrets.use'],
      state: 'installed',
    });
    expect(grantPermissions(inState('disabled'), ['secrets.use']).state).toBe('disabled');
  });

  it.each([
    [[], { missing: ['secrets.use'], unknown: [] }],
    [['secrets.use', 'network'], { missing: [], unknown: ['network'] }],
  ])('refuses a partial or wider grant %j', (requested, details) => {
    expect(() => grantPermissions(demoPlugin(), requested)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details }),
    );
  });
});

describe('state rules', () => {
  it('enable needs the grants first', () => {
    expect(() => requireEnableable(demoPlugin())).toThrow(
      expect.objectContaining({
        code: 'STATE_CONFLICT',
        details: { plugin_id: 'demo', state: 'permission_required' },
      }),
    );
    for (const state of ['installed', 'disabled', 'enabled', 'error'] as const) {
      expect(() => requireEnableable(inState(state))).not.toThrow();
    }
  });

  it('restart only restarts a plugin that is on (or failed), never turns one on', () => {
    for (const state of ['enabled', 'error'] as const)
      expect(() => requireRestartable(inState(state))).not.toThrow();
    for (const state of ['installed', 'disabled', 'permission_required'] as const) {
      expect(() => requireRestartable(inState(state))).toThrow(
        expect.objectContaining({ code: 'STATE_CONFLICT' }),
      );
    }
  });

  it('disable leaves a plugin waiting for grants as it is', () => {
    expect(disabledState('permission_required')).toBeNull();
    for (const state of ['installed', 'enabled', 'error', 'disabled'] as const) {
      expect(disabledState(state)).toBe('disabled');
    }
  });

  it('a start failure keeps its code; anything else is PLUGIN_HOST_START_FAILED', () => {
    const timeout = new AppError('PLUGIN_HOST_UNAVAILABLE', 'not here');
    expect(hostStartFailure('demo', timeout)).toBe(timeout);
    expect(hostStartFailure('demo', new Error('boom'))).toMatchObject({ code: 'PLUGIN_HOST_START_FAILED' });
  });

  it('a plugin without a host reads as stopped, nothing known about its server', () => {
    const { plugin_id, backend_type, transport, status, tools_count, ...unknown } = hostView(demoPlugin());
    expect({ plugin_id, backend_type, transport, status, tools_count }).toEqual({
      plugin_id: 'demo',
      backend_type: 'mcp',
      transport: 'worker',
      status: 'stopped',
      tools_count: 0,
    });
    expect(Object.keys(unknown).sort()).toEqual([
      'error',
      'last_seen_at',
      'protocol_version',
      'server_name',
      'server_version',
      'started_at',
    ]);
    expect(Object.values(unknown).every((value) => value === null)).toBe(true);
  });
});
