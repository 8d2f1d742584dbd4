import { describe, expect, it } from 'vitest';
import type { MetonaRequest, MetonaStreamEvent } from '../../ir';
import { OpenAICompatibleAdapter, createDeepSeekAdapter } from './adapter';

const t = 1719000000000;
const request: MetonaRequest = {
  meta: { sessionId: 's', iteration: 1, requestId: 'r_1', timestamp: t, agentVersion: 'test' },
  systemPrompt: { roleDefinition: 'r', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content: 'hi', timestamp: t }],
  params: { stream: true },
};

interface Captured {
  url: string;
  init: RequestInit;
}

/** A fetch double that answers one body; the real wire is exercised by the conformance suite. */
function fakeFetch(body: string, init: ResponseInit = {}) {
  const calls: Captured[] = [];
  const fetch = async (url: string | URL | Request, requestInit?: RequestInit) => {
    calls.push({ url: String(url), init: requestInit ?? {} });
    return new Response(body, { status: 200, ...init });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const sse = (...lines: string[]) => lines.map((line) => `data: ${line}\n\n`).join('');

describe('OpenAICompatibleAdapter', () => {
  it('posts to <baseUrl>/chat/completions with the key, through the injected fetch', async () => {
    const { calls, fetch } = fakeFetch(
      sse(
        '{"model":"deepseek-chat","choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}',
        '[DONE]',
      ),
    );
    const adapter = createDeepSeekAdapter({ apiKey: 'sk-test', baseUrl: 'https://proxy.test/', fetch });
    const response = await adapter.send(request);
    expect(response).toMatchObject({
      content: 'ok',
      finishReason: 'stop',
      meta: { provider: 'deepseek', model: 'deepseek-chat' },
    });
    expect(calls[0]!.url).toBe('https://proxy.test/chat/completions');
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer sk-test');
    expect(headers.Accept).toBe('text/event-stream');
    expect(calls[0]!.init.signal).toBeUndefined();
  });

  it('accepts a stream that ends after finish_reason without [DONE]', async () => {
    const { fetch } = fakeFetch(
      sse('{"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"length"}]}'),
    );
    const adapter = new OpenAICompatibleAdapter({ preset: 'openai', fetch });
    await expect(adapter.send(request)).resolves.toMatchObject({ content: 'x', finishReason: 'length' });
  });

  it('turns an in-stream error chunk and a non-JSON chunk into one error event', async () => {
    const events: MetonaStreamEvent[] = [];
    const { fetch } = fakeFetch(
      sse(
        '{"choices":[{"index":0,"delta":{"content":"par"},"finish_reason":null}]}',
        '{"error":{"message":"Overloaded","type":"server_error"}}',
      ),
    );
    const adapter = new OpenAICompatibleAdapter({ preset: 'openai', fetch });
    await expect(adapter.sendStream(request, (e) => events.push(e))).rejects.toMatchObject({
      code: 'model_overloaded',
      retryable: true,
    });
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error']);

    const broken = new OpenAICompatibleAdapter({
      preset: 'openai',
      fetch: fakeFetch(sse('{not json')).fetch,
    });
    await expect(broken.send(request)).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('lists models with catalog figures for known ids and conservative ones otherwise', async () => {
    const { fetch, calls } = fakeFetch(
      '{"object":"list","data":[{"id":"deepseek-chat"},{"id":"deepseek-new"}]}',
    );
    const adapter = createDeepSeekAdapter({ apiKey: 'k', fetch });
    const models = await adapter.listModels();
    expect(calls[0]!.url).toBe('https://api.deepseek.com/models');
    expect(models[0]).toMatchObject({
      id: 'deepseek-chat',
      contextWindow: 128_000,
      supportsToolCalling: true,
    });
    expect(models[1]).toMatchObject({
      id: 'deepseek-new',
      supportsToolCalling: false,
      supportsImages: false,
      supportsThinking: false,
    });
    expect(adapter.getContextWindow('deepseek-chat')).toBe(128_000);
    expect(adapter.getContextWindow('unknown')).toBe(4096);
  });

  it('health check is false when the provider cannot be reached', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    expect(await new OpenAICompatibleAdapter({ preset: 'openai', fetch }).healthCheck()).toBe(false);
  });

  it('a network failure before the response is network_error, not an interrupted stream', async () => {
    const fetch = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    await expect(
      new OpenAICompatibleAdapter({ preset: 'openai', fetch }).send(request),
    ).rejects.toMatchObject({
      code: 'network_error',
      retryable: true,
      providerCode: undefined,
    });
  });

  it('a request deadline (constraints.timeoutMs) ends a stalled stream as network_timeout', async () => {
    const fetch = (async (_url: unknown, init?: RequestInit) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('data: {"choices":[]}\n\n'));
            init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          },
        }),
      )) as typeof globalThis.fetch;
    const adapter = new OpenAICompatibleAdapter({ preset: 'openai', fetch });
    await expect(adapter.send({ ...request, constraints: { timeoutMs: 50 } })).rejects.toMatchObject({
      code: 'network_timeout',
    });
  });
});
