import { afterEach, describe, expect, it } from 'vitest';
import { providerSecretName } from '../contracts';
import { testCore } from './test-core';

const KEY = 'sk-test-SECRET-0123456789';

describe('ProviderService', () => {
  let core: ReturnType<typeof testCore>;
  afterEach(async () => core?.close());

  it('starts with the mock provider and lists the presets', async () => {
    core = testCore();
    const { items } = await core.api.providers.list();
    expect(items.map((item) => [item.provider_id, item.type, item.default_model])).toEqual([
      ['mock', 'mock', 'mock-1'],
    ]);
    const presets = await core.api.providers.presets();
    expect(presets.map((preset) => preset.preset)).toEqual(
      expect.arrayContaining(['mock', 'deepseek', 'agnes-ai', 'openai', 'anthropic', 'ollama', 'custom']),
    );
  });

  it('creates, reads, patches and deletes; the key is stored in the vault and never returned', async () => {
    core = testCore();
    const created = await core.api.providers.create({ preset: 'deepseek', api_key: KEY });
    expect(created).toMatchObject({
      provider_id: 'deepseek',
      type: 'openai-compatible',
      base_url: 'https://api.deepseek.com',
      default_model: 'deepseek-chat',
      has_api_key: true,
      fallback: null,
    });
    expect(JSON.stringify(created)).not.toContain(KEY);
    const secret = await core.db.secrets.get(providerSecretName('deepseek'));
    expect(secret).toBeDefined();
    expect(new TextDecoder().decode(secret!.ciphertext)).not.toContain(KEY);

    const second = await core.api.providers.create({ preset: 'deepseek' });
    expect(second.provider_id).toBe('deepseek-2');
    expect(second.has_api_key).toBe(false);

    const patched = await core.api.providers.patch('deepseek', {
      default_model: 'deepseek-reasoner',
      fallback: { provider_id: 'mock', model: 'mock-1' },
    });
    expect(patched).toMatchObject({ default_model: 'deepseek-reasoner', has_api_key: true });
    expect((await core.api.providers.patch('deepseek', { api_key: null })).has_api_key).toBe(false);
    expect(JSON.stringify(await core.api.providers.list())).not.toContain(KEY);

    await core.api.providers.delete('deepseek-2');
    await expect(core.api.providers.get('deepseek-2')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('rejects invalid input with VALIDATION_FAILED and unknown ids with RESOURCE_NOT_FOUND', async () => {
    core = testCore();
    await expect(core.api.providers.create({ preset: 'nope' as never })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(
      core.api.providers.create({ preset: 'custom', base_url: 'ftp://example.com' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // custom has no default model
    await expect(
      core.api.providers.create({ preset: 'custom', base_url: 'http://127.0.0.1:1/v1' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(
      core.api.providers.patch('mock', { fallback: { provider_id: 'mock', model: 'x' } }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(core.api.providers.get('missing')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(core.api.providers.models('missing')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('refuses to delete a provider that another uses as its fallback', async () => {
    core = testCore();
    await core.api.providers.create({ preset: 'openai', fallback: { provider_id: 'mock', model: 'mock-1' } });
    await expect(core.api.providers.delete('mock')).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
      details: { used_by: ['openai'] },
    });
    await expect(
      core.api.providers.create({ preset: 'openai', provider_id: 'openai' }),
    ).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });

  it('refuses the plugin.* credential namespace', async () => {
    core = testCore();
    await expect(core.api.settings.putSecret({ name: 'plugin.x.token', value: 'v' })).rejects.toMatchObject({
      code: 'CREDENTIAL_NAMESPACE_RESERVED',
    });
    await expect(core.api.settings.deleteSecret('plugin.x.token')).rejects.toMatchObject({
      code: 'CREDENTIAL_NAMESPACE_RESERVED',
    });
  });

  it('lists models with §8.1 fields', async () => {
    core = testCore();
    const { items } = await core.api.providers.models('mock');
    expect(items[0]).toMatchObject({
      model: 'mock-1',
      capabilities: expect.arrayContaining(['chat', 'streaming']),
      deprecated: false,
      metadata: {},
    });
  });

  it('tests with a temporary key that is never stored', async () => {
    const seen: string[] = [];
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          seen.push(new Headers(init?.headers).get('authorization') ?? '');
          return new Response(
            JSON.stringify({ object: 'list', data: [{ id: 'some-model', object: 'model' }] }),
            {
              status: 200,
              headers: { 'Content-Type': 'application/json' },
            },
          );
        },
      },
    });
    const result = await core.api.providers.test({ preset: 'openai', api_key: KEY });
    expect(result).toMatchObject({ ok: true, model_count: 1, error: null });
    expect(seen).toEqual([`Bearer ${KEY}`]);
    expect(await core.db.secrets.count()).toBe(0);
    expect((await core.api.providers.list()).items).toHaveLength(1);

    // Unknown models get the conservative capability set.
    await core.api.providers.create({ preset: 'openai' });
    const models = await core.api.providers.models('openai');
    const unknown = models.items.find((item) => item.model === 'some-model');
    expect(unknown?.capabilities).toEqual(['chat', 'streaming']);
  });

  it('reports a failed test as data, with the provider error code', async () => {
    core = testCore({
      providers: {
        fetch: async () =>
          new Response(
            JSON.stringify({ error: { message: `bad key ${KEY}`, type: 'invalid_request_error' } }),
            {
              status: 401,
            },
          ),
      },
    });
    const result = await core.api.providers.test({ preset: 'openai', api_key: KEY });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('PROVIDER_AUTH_FAILED');
    expect(result.error?.metona_code).toBe('auth_invalid');
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('tells a server that answered 5xx from one that could not be reached (both PROVIDER_UNAVAILABLE)', async () => {
    core = testCore({ providers: { fetch: async () => new Response('upstream crashed', { status: 500 }) } });
    const answered = await core.api.providers.test({ preset: 'openai', api_key: KEY });
    expect(answered.error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', metona_code: 'model_overloaded' });
    await core.close();
    core = testCore({
      providers: {
        fetch: async () => {
          throw new TypeError('Failed to fetch');
        },
      },
    });
    const unreachable = await core.api.providers.test({ preset: 'openai', api_key: KEY });
    expect(unreachable.error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', metona_code: 'network_error' });
  });
});
