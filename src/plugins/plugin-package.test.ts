import { describe, expect, it } from 'vitest';
import { PackageReadError } from '../packages';
import { DEMO_FILES, demoPackage } from './__fixtures__/demo-plugin';
import type { PackageContents } from '../packages';
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
    [
      'no manifest',
      { 'plugin.yaml': undefined },
      { reason: 'manifest_missing', file: 'plugin.yaml', problem: 'manifest_missing' },
    ],
    [
      'a manifest that is not YAML',
      { 'plugin.yaml': 'id: [' },
      { reason: 'manifest_yaml', problem: 'manifest_invalid', line: 1, column: 6 },
    ],
    [
      'a manifest with a bad field',
      {
        'plugin.yaml': manifestWith('backend: { type: mcp, transport: worker, entry: server.js }').replace(
          '1.0.0',
          'one',
        ),
      },
      {
        reason: 'manifest_invalid',
        fields: [expect.objectContaining({ path: 'version', problem: 'invalid' })],
      },
    ],
    [
      'a reserved id',
      {
        'plugin.yaml': manifestWith('backend: { type: mcp, transport: worker, entry: server.js }').replace(
          'id: demo',
          'id: notes',
        ),
      },
      { reason: 'reserved_id', plugin_id: 'notes' },
    ],
    [
      "a tool outside the plugin's namespace",
      {
        'plugin.yaml': manifestWith(
          'backend: { type: mcp, transport: worker, entry: server.js }',
          'contributes: { tools: [other.echo] }',
        ),
      },
      { reason: 'tool_namespace', tool: 'other.echo' },
    ],
    [
      'a remote server without the network permission',
      {
        'plugin.yaml': manifestWith(
          'backend: { type: mcp, transport: streamable_http, url: "https://e.com/mcp" }',
        ),
      },
      { reason: 'network_permission', plugin_id: 'demo' },
    ],
    ['a missing server module', { 'server.js': undefined }, { reason: 'server_missing', path: 'server.js' }],
    [
      'an executable outside the package',
      { 'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: ../bin/server }') },
      { reason: 'executable_outside', command: '../bin/server' },
    ],
    [
      'an executable path the package lacks',
      { 'plugin.yaml': manifestWith('backend: { type: mcp, transport: stdio, command: ./bin/server }') },
      { reason: 'executable_outside', command: './bin/server' },
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

/** What a refusal carries for the UI to word: its code and structured details, never only English. */
function refusalOf(pkg: PackageContents): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  try {
    checkPluginPackage(pkg);
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('the package was accepted');
}

describe('manifest refusals name what to fix', () => {
  it('a YAML syntax error is "could not be parsed" with its line and column, not "no readable plugin.yaml"', () => {
    const refused = refusalOf(demoPackage({ 'plugin.yaml': 'name: Demo\nplugin_id: [oops' }));
    expect(refused).toMatchObject({
      code: 'PLUGIN_MANIFEST_INVALID',
      details: { reason: 'manifest_yaml', file: 'plugin.yaml', line: 2, column: 17 },
    });
    expect(refused.message).toMatch(/^plugin\.yaml could not be parsed at line 2, column 17: /);
    expect(refused.message).not.toContain('\n');
  });

  it('a duplicate key is a syntax error at the second one', () => {
    expect(refusalOf(demoPackage({ 'plugin.yaml': 'id: demo\nid: other' })).details).toMatchObject({
      reason: 'manifest_yaml',
      line: 2,
      column: 1,
    });
  });

  it('names each missing field as required', () => {
    const refused = refusalOf(demoPackage({ 'plugin.yaml': 'id: demo\nname: Demo' }));
    expect(refused.details).toEqual({
      reason: 'manifest_invalid',
      file: 'plugin.yaml',
      fields: [
        expect.objectContaining({ path: 'version', problem: 'required' }),
        expect.objectContaining({ path: 'backend', problem: 'required' }),
      ],
    });
    expect(refused.message).toBe('plugin.yaml is not valid: version: required; backend: required.');
  });

  it('names unknown keys, closed lists with their values, and nested fields', () => {
    const refused = refusalOf(
      demoPackage({
        'plugin.yaml': [
          'plugin_id: demo',
          'name: Demo',
          'version: 1.0.0',
          'permissions: [secrets.use, disk]',
          'backend: { type: mcp, transport: ftp }',
        ].join('\n'),
      }),
    );
    expect(refused.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'id', problem: 'required' }),
        expect.objectContaining({ path: 'plugin_id', problem: 'unknown' }),
        expect.objectContaining({
          path: 'permissions.1',
          problem: 'one_of',
          allowed: ['notes.read', 'notes.write', 'memory.write', 'network', 'secrets.use'],
        }),
        expect.objectContaining({
          path: 'backend.transport',
          problem: 'one_of',
          allowed: ['worker', 'stdio', 'streamable_http'],
        }),
      ]),
    );
  });

  it('names a field of the wrong shape as invalid', () => {
    const refused = refusalOf(
      demoPackage({ 'plugin.yaml': DEMO_FILES['plugin.yaml']!.replace('1.0.0', 'one') }),
    );
    expect(refused.details.fields).toEqual([
      { path: 'version', problem: 'invalid', message: 'a semantic version' },
    ]);
  });

  it('tells an empty file, a list, text that is not UTF-8 and an oversized file apart', () => {
    expect(refusalOf(demoPackage({ 'plugin.yaml': '' })).details).toMatchObject({
      reason: 'manifest_not_mapping',
    });
    expect(refusalOf(demoPackage({ 'plugin.yaml': '- id: demo' })).details).toMatchObject({
      reason: 'manifest_not_mapping',
    });
    const files = new Map(demoPackage().files);
    files.set('plugin.yaml', new Uint8Array([0x69, 0x64, 0x3a, 0x20, 0xe9, 0xff]));
    const latin1: PackageContents = { name: 'demo.zip', files };
    expect(refusalOf(latin1).details).toMatchObject({ reason: 'manifest_encoding', file: 'plugin.yaml' });
    const huge = demoPackage({ 'plugin.yaml': `description: ${'x'.repeat(300 * 1024)}` });
    expect(refusalOf(huge).details).toMatchObject({ reason: 'manifest_too_large', limit: 256 * 1024 });
  });

  it('a broken settings or commands file keeps its own code and says where', () => {
    expect(refusalOf(demoPackage({ 'settings.yaml': 'schema_version: 1\nfields: [' }))).toMatchObject({
      code: 'PLUGIN_SETTINGS_SCHEMA_INVALID',
      details: { reason: 'manifest_yaml', file: 'settings.yaml', path: 'settings.yaml', line: 2 },
    });
    expect(refusalOf(demoPackage({ 'commands.yaml': undefined }))).toMatchObject({
      code: 'PLUGIN_COMMAND_INVALID',
      details: { reason: 'manifest_missing', file: 'commands.yaml' },
    });
  });
});

describe('package refusals', () => {
  it('each reader problem has a reason; a file that is not a zip is not_zip', () => {
    expect(() => readPluginPackage({ name: 'x.zip', bytes: new TextEncoder().encode('not a zip') })).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_PACKAGE_INVALID',
        details: expect.objectContaining({ reason: 'not_zip', problem: 'not_an_archive' }),
      }),
    );
    expect(
      packageProblem(new PackageReadError('not_an_archive', 'encrypted', { entry: 'server.js' })).details,
    ).toMatchObject({ reason: 'entry_unreadable', entry: 'server.js' });
    expect(packageProblem(new PackageReadError('symlink', 'a link', { entry: 'a' })).details).toMatchObject({
      reason: 'symlink',
      entry: 'a',
    });
    expect(
      packageProblem(new PackageReadError('too_many_entries', 'many', { limit: 500 })).details,
    ).toMatchObject({ reason: 'too_many_entries', limit: 500 });
  });

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
