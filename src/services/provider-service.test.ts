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

  describe('says whether the model it tested is listed', () => {
    const listing = (body: unknown) => ({
      providers: {
        fetch: async () =>
          new Response(JSON.stringify(body), {
            status: 200,
            headers: { 'Content-Type': 'application/json' },
          }),
      },
    });
    const openAiList = (...ids: string[]) => ({
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model' })),
    });

    it('a listed model, with the list to pick from', async () => {
      core = testCore(listing(openAiList('deepseek-chat', 'deepseek-reasoner')));
      const result = await core.api.providers.test({ preset: 'deepseek', api_key: KEY });
      expect(result).toMatchObject({
        ok: true,
        model: 'deepseek-chat',
        model_listed: true,
        listed_models: ['deepseek-chat', 'deepseek-reasoner'],
        error: null,
      });
    });

    it("a mistyped model: still connected, but not listed; the form's model overrides the default", async () => {
      core = testCore(listing(openAiList('deepseek-chat', 'deepseek-reasoner')));
      await core.api.providers.create({ preset: 'deepseek', api_key: KEY });
      const typed = await core.api.providers.test({ provider_id: 'deepseek', model: 'deepseek-chatt' });
      expect(typed).toMatchObject({ ok: true, model: 'deepseek-chatt', model_listed: false, error: null });
      const saved = await core.api.providers.test({ provider_id: 'deepseek' });
      expect(saved).toMatchObject({ ok: true, model: 'deepseek-chat', model_listed: true });
    });

    it('an empty list claims nothing', async () => {
      core = testCore(listing(openAiList()));
      const result = await core.api.providers.test({
        preset: 'deepseek',
        model: 'deepseek-chatt',
        api_key: KEY,
      });
      expect(result).toMatchObject({ ok: true, model_count: 0, model: 'deepseek-chatt', model_listed: null });
    });

    it('no model, nothing to check', async () => {
      core = testCore(listing(openAiList('some-model')));
      const result = await core.api.providers.test({ preset: 'custom', base_url: 'http://127.0.0.1:9/v1' });
      expect(result).toMatchObject({
        ok: true,
        model: null,
        model_listed: null,
        listed_models: ['some-model'],
      });
    });

    it('a failed test claims nothing about the model', async () => {
      core = testCore({
        providers: { fetch: async () => new Response('upstream crashed', { status: 500 }) },
      });
      const result = await core.api.providers.test({
        preset: 'deepseek',
        model: 'deepseek-chatt',
        api_key: KEY,
      });
      expect(result).toMatchObject({
        ok: false,
        model: 'deepseek-chatt',
        model_listed: null,
        listed_models: null,
      });
    });

    it('Ollama: an untagged name is the listed :latest, another tag is not', async () => {
      core = testCore(listing({ models: [{ name: 'llama3:latest' }, { name: 'qwen2.5:7b' }] }));
      const untagged = await core.api.providers.test({ preset: 'ollama', model: 'llama3' });
      expect(untagged).toMatchObject({
        ok: true,
        model_listed: true,
        listed_models: ['llama3:latest', 'qwen2.5:7b'],
      });
      expect((await core.api.providers.test({ preset: 'ollama', model: 'llama3:8b' })).model_listed).toBe(
        false,
      );
      // The :latest rule is Ollama's: an untagged qwen2.5 is qwen2.5:latest, which was never pulled.
      expect((await core.api.providers.test({ preset: 'ollama', model: 'qwen2.5' })).model_listed).toBe(
        false,
      );
    });

    it('Anthropic: an alias is the dated id it names', async () => {
      core = testCore(
        listing({ data: [{ id: 'claude-sonnet-4-5-20250929' }, { id: 'claude-3-5-haiku-20241022' }] }),
      );
      const alias = await core.api.providers.test({ preset: 'anthropic', api_key: KEY });
      expect(alias).toMatchObject({ ok: true, model: 'claude-sonnet-4-5', model_listed: true });
      const latest = await core.api.providers.test({
        preset: 'anthropic',
        model: 'claude-3-5-haiku-latest',
        api_key: KEY,
      });
      expect(latest.model_listed).toBe(true);
      const otherDate = await core.api.providers.test({
        preset: 'anthropic',
        model: 'claude-sonnet-4-5-20250930',
        api_key: KEY,
      });
      expect(otherDate.model_listed).toBe(false);
    });

    it('the model list offers an aliased default once, under its saved name, with its twin’s info', async () => {
      core = testCore(listing({ models: [{ name: 'llama3:latest', details: { parameter_size: '8B' } }] }));
      await core.api.providers.create({ preset: 'ollama', default_model: 'llama3' });
      const ollama = (await core.api.providers.models('ollama')).items;
      expect(ollama.map((item) => [item.model, item.display_name])).toEqual([['llama3', 'llama3 (8B)']]);

      core = testCore(
        listing({
          data: [
            { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' },
            { id: 'claude-haiku-4-5-20251001' },
          ],
        }),
      );
      await core.api.providers.create({ preset: 'anthropic', api_key: KEY });
      const anthropic = (await core.api.providers.models('anthropic')).items;
      expect(anthropic.map((item) => item.model)).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5-20251001']);
      expect(anthropic[0]).toMatchObject({ display_name: 'Claude Sonnet 4.5', context_window: 200_000 });
      expect(anthropic[0]!.capabilities).toContain('tool_calling');
    });
  });
});
