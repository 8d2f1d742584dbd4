import { describe, expect, it } from 'vitest';
import { demoPlugin } from './__fixtures__/demo-plugin';
import {
  checkSecretValue,
  requireConfigured,
  secretReference,
  secretReferences,
  unsetSettings,
  withSecret,
  withoutSecret,
} from './plugin-settings';

const schema = demoPlugin().settings;
const stored = (values: Record<string, string>, secret_refs: Record<string, string> = {}) => ({
  schema_version: 2,
  values,
  secret_refs,
});

describe('what enable requires', () => {
  it('every required setting first, then every required secret', () => {
    expect(() => requireConfigured('demo', schema, stored({}))).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_SETTINGS_REQUIRED',
        details: { plugin_id: 'demo', keys: ['greeting'] },
      }),
    );
    expect(() => requireConfigured('demo', schema, stored({ greeting: 'Hi' }))).toThrow(
      expect.objectContaining({
        code: 'PLUGIN_SECRET_REQUIRED',
        details: { plugin_id: 'demo', keys: ['token'] },
      }),
    );
    expect(() =>
      requireConfigured('demo', schema, stored({ greeting: 'Hi' }, { token: 'plugin.x' })),
    ).not.toThrow();
  });

  it('a plugin never configured reads as nothing set', () => {
    expect(unsetSettings('demo')).toEqual({
      plugin_id: 'demo',
      schema_version: 1,
      values: {},
      secret_refs: {},
    });
  });
});

describe('secrets', () => {
  it('a secret is non-blank text of at most 16 KiB', () => {
    expect(checkSecretValue('demo', 'token', 'sk-1')).toBe('sk-1');
    for (const bad of ['', '   ', 'x'.repeat(16 * 1024 + 1), 42]) {
      expect(() => checkSecretValue('demo', 'token', bad)).toThrow(
        expect.objectContaining({
          code: 'PLUGIN_SECRET_VALUE_INVALID',
          details: { plugin_id: 'demo', key: 'token' },
        }),
      );
    }
  });

  it('references are fixed-length digests of plugin and key, different per plugin', async () => {
    const reference = await secretReference('demo', 'token');
    expect(reference).toMatch(/^plugin\.[0-9a-f]{64}$/);
    expect(await secretReference('demo', 'token')).toBe(reference);
    expect(await secretReference('other', 'token')).not.toBe(reference);
  });

  it('adding and removing a reference leaves the rest of the settings as they were', () => {
    const before = { plugin_id: 'demo', ...stored({ greeting: 'Hi' }, { note: 'plugin.n' }) };
    const added = withSecret(before, 'token', 'plugin.t');
    expect(added).toEqual({ ...before, secret_refs: { note: 'plugin.n', token: 'plugin.t' } });
    expect(withoutSecret(added, 'token')).toEqual(before);
    expect(before.secret_refs).toEqual({ note: 'plugin.n' });
  });

  it('uninstall finds every secret, stored or not', async () => {
    const references = await secretReferences('demo', schema, stored({}, { token: 'plugin.stored' }));
    expect(references).toEqual(['plugin.stored', await secretReference('demo', 'note')]);
  });
});
