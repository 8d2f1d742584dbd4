import { afterEach, describe, expect, it } from 'vitest';
import { contextLengthOf } from '../providers/ollama/adapter';
import { testCore } from './test-core';
import { errorCode } from './test-error-code';

/** An Ollama double: `/api/show` reports `window`, `/api/chat` streams one word. */
function ollamaDouble(window: number | undefined) {
  const calls: { path: string; body: Record<string, unknown> }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname;
    calls.push({ path, body: init?.body ? JSON.parse(String(init.body)) : {} });
    if (path === '/api/show') {
      return Response.json({ model_info: window ? { 'llama.context_length': window } : {} });
    }
    const lines = [
      { model: 'llama3', message: { role: 'assistant', content: 'Hi' }, done: false },
      { model: 'llama3', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' },
    ];
    return new Response(lines.map((line) => JSON.stringify(line)).join('\n') + '\n', {
      headers: { 'Content-Type': 'application/x-ndjson' },
    });
  };
  return { fetch, calls };
}

describe('context windows', () => {
  let core: ReturnType<typeof testCore> | undefined;
  afterEach(async () => {
    await core?.api.chat.idle();
    await core?.close();
    core = undefined;
  });

  it('reads the window from an /api/show answer', () => {
    expect(contextLengthOf({ model_info: { 'qwen2.context_length': 32768, 'qwen2.block_count': 28 } })).toBe(
      32768,
    );
    expect(contextLengthOf({ model_info: { 'qwen2.context_length': 'big' } })).toBeUndefined();
    expect(contextLengthOf(null)).toBeUndefined();
  });

  it("runs an Ollama model with the window it reports, once asked, and the user's window over it", async () => {
    const double = ollamaDouble(32768);
    core = testCore({ providers: { fetch: double.fetch } });
    await core.api.providers.create({ preset: 'ollama', default_model: 'llama3' });
    const ask = async () => {
      const turn = await core!.api.chat.send({ content: 'Hello', provider_id: 'ollama' });
      expect((await core!.api.chat.settled(turn.turn_id)).status).toBe('completed');
      return double.calls.filter((call) => call.path === '/api/chat').at(-1)!.body;
    };
    expect((await ask()).options).toMatchObject({ num_ctx: 32768 });
    await ask();
    expect(double.calls.filter((call) => call.path === '/api/show')).toHaveLength(1);

    expect(
      await core.api.providers.setContextWindow({
        provider_id: 'ollama',
        model: 'llama3',
        context_window: 8192,
      }),
    ).toEqual({ llama3: 8192 });
    expect((await ask()).options).toMatchObject({ num_ctx: 8192 });
    await core.api.providers.setContextWindow({
      provider_id: 'ollama',
      model: 'llama3',
      context_window: null,
    });
    expect(await core.api.providers.contextWindows('ollama')).toEqual({});
    expect((await ask()).options).toMatchObject({ num_ctx: 32768 });
  });

  it('leaves num_ctx unset when Ollama does not report a window', async () => {
    const double = ollamaDouble(undefined);
    core = testCore({ providers: { fetch: double.fetch } });
    await core.api.providers.create({ preset: 'ollama', default_model: 'llama3' });
    const turn = await core.api.chat.send({ content: 'Hello', provider_id: 'ollama' });
    await core.api.chat.settled(turn.turn_id);
    const body = double.calls.find((call) => call.path === '/api/chat')!.body;
    expect((body.options as Record<string, unknown> | undefined)?.num_ctx).toBeUndefined();
  });

  it('refuses a bad window or an unknown provider, and stores nothing', async () => {
    core = testCore();
    const set = (input: { provider_id: string; model: string; context_window: number | null }) =>
      errorCode(core!.api.providers.setContextWindow(input));
    expect(await set({ provider_id: 'mock', model: 'mock-1', context_window: 100 })).toBe(
      'VALIDATION_FAILED',
    );
    expect(await set({ provider_id: 'mock', model: 'mock-1', context_window: 1.5 })).toBe(
      'VALIDATION_FAILED',
    );
    expect(await set({ provider_id: 'mock', model: '', context_window: 4096 })).toBe('VALIDATION_FAILED');
    expect(await set({ provider_id: 'nobody', model: 'x', context_window: 4096 })).toBe('RESOURCE_NOT_FOUND');
    expect(await core.api.providers.contextWindows('mock')).toEqual({});
    expect(await errorCode(core.api.providers.contextWindows('nobody'))).toBe('RESOURCE_NOT_FOUND');
  });
});
