import { describe, expect, it } from 'vitest';
import { PackageReadError } from '../packages';
import { DEMO_FILES, demoPackage } from './__fixtures__/demo-plugin';
import { checkPluginPackage, packageProblem, readPluginPackage, RESERVED_PLUGIN_IDS } from './plugin-package';

const manifestWith = (...lines: string[]) =>
  ['id: demo', 'name: Demo', 'version: 1.0.0', ...lines].join('\n');

describe('checkPluginPackage', () => {
  it('keeps the manifest, settings, namespaced commands and only the server module', () => {
    const checked = checkPluginPackage(demoPackage());
    expect(checked.manifest).toMatchObject({ id: 'demo', permissions: ['secrets.use'] });
    expect(checked.settings.schema_version).toBe(2);
    expect(checked.commands.map((command) => command.command_id)).toEqual(['demo.hello', 'demo.shout']);
    expect(Object.keys(checked.files)).toEqual(['server.js']);
    expect(new TextDecoder().decode(checked.files['server.js'])).toBe(DEMO_FILES['server.js']);
  });

  it('a package without settings or commands gets the empty schema and no commands', () => {
    const checked = checkPluginPackage(
      demoPackage({
        'plugin.yaml': manifestWith('backend: { type: mcp, transport: worker, entry: server.js }'),
      }),
    );
    expect(checked.settings).toEqual({ schema_version: 1, fields: [] });
    expect(checked.commands).toEqual([]);
  });

  it.each([
    ['no manifest', { 'plugin.yaml': undefined }, { problem: 'manifest_missing' }],
    ['a manifest that is not YAML', { 'plugin.yaml': 'id: [' }, { problem: 'manifest_invalid' }],
    [
      'a manifest with a bad field',
      {
        'plugin.yaml': manifestWith('backend: { type: mcp, transport: worker, entry: server.js }').replace(
          '1.0.0',
          'one',
        ),
      },
      { fields: expect.any(Array) },
    ],
    [
      'a reserved id',
      {
        'plugin.yaml': manifestWith('backend: { type: mcp, transport: worker, entry: server.js }').replace(
          'id: demo',
          'id: notes',
        ),
      },
      { plugin_id: 'notes' },
    ],
    [
      "a tool outside the plugin's namespace",
      {
        'plugin.yaml': manifestWith(
          'backend: { type: mcp, transport: worker, entry: server.js }',
          'contributes: { tools: [other.echo] }',
        ),
      },
      { tool: 'other.echo' },
    ],
    [
      'a remote server without the network permission',
      {
        'plugin.yaml': manifestWith(
          'backend: { type: mcp, transport: streamable_http, url: "https://e.com/mcp" }',
        ),
      },
      { plugin_id: 'demo' },
    ],
    ['a missing server module', { 'server.js': undefined }, { path: 'server.js' }],
    [
      'an executable outside the package',
      { 'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: ../bin/server }') },
      { command: '../bin/server' },
    ],
    [
      'an executable path the package lacks',
      { 'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: ./bin/server }') },
      { command: './bin/server' },
    ],
  ])('refuses %s as PLUGIN_MANIFEST_INVALID', (_case, overrides, details) => {
    expect(() => checkPluginPackage(demoPackage(overrides))).toThrow(
      expect.objectContaining({ code: 'PLUGIN_MANIFEST_INVALID', details: expect.objectContaining(details) }),
    );
  });

  it('accepts a bare executable name and a packaged executable for stdio', () => {
    const packaged = demoPackage({
      'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: ./bin/server }'),
      'bin/server': '#!/bin/sh',
    });
    expect(checkPluginPackage(packaged).files).toEqual({});
    const bare = demoPackage({
      'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: node }'),
    });
    expect(checkPluginPackage(bare).manifest.backend.transport).toBe('stdio');
  });

  it('a missing settings or commands file has the code of what is missing', () => {
    expect(() => checkPluginPackage(demoPackage({ 'settings.yaml': undefined }))).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_SETTINGS_SCHEMA_INVALID',
        details: expect.objectContaining({ path: 'settings.yaml' }),
      }),
    );
    expect(() => checkPluginPackage(demoPackage({ 'commands.yaml': undefined }))).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_COMMAND_INVALID',
        details: expect.objectContaining({ path: 'commands.yaml' }),
      }),
    );
  });

  it('reserves the built-in tool namespaces', () => {
    for (const id of ['notes', 'memory', 'mcp', 'plugins']) expect(RESERVED_PLUGIN_IDS.has(id)).toBe(true);
  });
});

describe('package refusals', () => {
  it('size and bomb limits are PAYLOAD_TOO_LARGE, the rest PLUGIN_PACKAGE_INVALID, with entry and limit', () => {
    const big = packageProblem(new PackageReadError('total_too_large', 'too big', { limit: 10 }));
    expect(big).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      status: 413,
      details: { problem: 'total_too_large', limit: 10 },
    });
    const link = packageProblem(new PackageReadError('symlink', 'a link', { entry: 'a' }));
    expect(link).toMatchObject({
      code: 'PLUGIN_PACKAGE_INVALID',
      details: { problem: 'symlink', entry: 'a' },
    });
  });

  it('reads a folder, and refuses a path that leaves it', () => {
    const bytes = new TextEncoder().encode('x');
    expect([
      ...readPluginPackage({ name: 'demo', entries: [{ path: 'demo/plugin.yaml', bytes }] }).files.keys(),
    ]).toEqual(['plugin.yaml']);
    expect(() => readPluginPackage({ name: 'demo', entries: [{ path: '../evil.js', bytes }] })).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_PACKAGE_INVALID',
        details: expect.objectContaining({ problem: 'path_outside_package' }),
      }),
    );
    expect(() => readPluginPackage({ name: 'x.zip', bytes })).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_PACKAGE_INVALID',
        details: expect.objectContaining({ problem: 'not_an_archive' }),
      }),
    );
  });
});
