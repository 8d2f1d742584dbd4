import { describe, expect, it } from 'vitest';
import type { MetonaGenerationParams, MetonaRequest, MetonaStreamEvent } from '../../ir';
import { OllamaAdapter } from './adapter';
import { toOllamaRequest, toOllamaThink } from './convert-request';
import { mapOllamaPerfStats } from './map-finish-reason';
import { ollamaChatRequestSchema } from './wire-schemas';

const t = 1719000000000;
const request = (params: MetonaGenerationParams = {}, extra: Partial<MetonaRequest> = {}): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 1, requestId: 'r_1', timestamp: t, agentVersion: 'test' },
  systemPrompt: { roleDefinition: 'Be brief.', outputConstraints: '', safetyGuidelines: 'No guessing.' },
  messages: [{ role: 'user', content: 'hi', timestamp: t }],
  params,
  ...extra,
});

const ndjson = (...lines: unknown[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

function fakeFetch(handler: (url: string, init?: RequestInit) => Response) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    return handler(String(url), init);
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

describe('Ollama request', () => {
  it.each([
    [{ thinkingEnabled: true, thinkingEffort: 'low' }, 'low'],
    [{ thinkingEnabled: true, thinkingEffort: 'medium' }, 'medium'],
    [{ thinkingEnabled: true, thinkingEffort: 'high' }, 'high'],
    [{ thinkingEnabled: true, thinkingEffort: 'max' }, true],
    [{ thinkingEnabled: true }, true],
    [{ thinkingEnabled: false, thinkingEffort: 'high' }, false],
    [{}, undefined],
  ] as const)('think %j → %j', (params, think) => {
    expect(toOllamaThink(request(params))).toBe(think);
  });

  it('maps options, tools and tool results, and inlines images as bare base64', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(new Uint8Array([1, 2, 3])));
    const body = await toOllamaRequest(
      request(
        { temperature: 0, maxTokens: 64, stopSequences: ['###'] },
        {
          messages: [
            {
              role: 'user',
              content: 'look',
              images: [{ url: 'data:image/jpeg;base64,/9j/4AAQ' }, { url: 'https://img.test/cat.png' }],
              timestamp: t,
            },
            {
              role: 'assistant',
              content: '',
              reasoningContent: 'not sent back',
              toolCalls: [
                { id: 'c1', name: 'get_weather', args: { city: 'Paris' }, iteration: 1, timestamp: t },
              ],
              timestamp: t,
            },
            {
              role: 'tool',
              content: '',
              toolResult: {
                toolCallId: 'c1',
                toolName: 'get_weather',
                result: { temp: 21 },
                success: true,
                durationMs: 3,
                timestamp: t,
              },
              timestamp: t,
            },
          ],
        },
      ),
      { model: 'qwen3:8b', contextWindow: 8192, fetch },
    );
    expect(ollamaChatRequestSchema.parse(body)).toEqual(body);
    expect(calls.map((call) => call.url)).toEqual(['https://img.test/cat.png']);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.\n\nNo guessing.' },
      { role: 'user', content: 'look', images: ['/9j/4AAQ', 'AQID'] },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
      },
      { role: 'tool', content: '{"temp":21}', tool_name: 'get_weather' },
    ]);
    expect(body.options).toEqual({ temperature: 0, num_predict: 64, num_ctx: 8192, stop: ['###'] });
    expect(body).not.toHaveProperty('think');
  });
});

describe('OllamaAdapter', () => {
  it('streams thinking and text, takes tool calls whole, and reports perf stats from nanoseconds', async () => {
    const { fetch, calls } = fakeFetch(
      () =>
        new Response(
          ndjson(
            { model: 'qwen3:8b', message: { role: 'assistant', content: '', thinking: 'Hmm.' }, done: false },
            { model: 'qwen3:8b', message: { role: 'assistant', content: 'Checking.' }, done: false },
            {
              model: 'qwen3:8b',
              message: {
                role: 'assistant',
                content: '',
                tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
              },
              done: false,
            },
            {
              model: 'qwen3:8b',
              message: { role: 'assistant', content: '' },
              done: true,
              done_reason: 'stop',
              load_duration: 2_000_000,
              prompt_eval_count: 26,
              prompt_eval_duration: 342_546_000,
              eval_count: 282,
              eval_duration: 4_535_599_000,
            },
          ),
        ),
    );
    const events: MetonaStreamEvent[] = [];
    const adapter = new OllamaAdapter({ model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/', fetch });
    const response = await adapter.sendStream(request({ thinkingEnabled: true }), (event) =>
      events.push(event),
    );
    expect(calls[0]!.url).toBe('http://127.0.0.1:11434/api/chat');
    expect(JSON.parse(String(calls[0]!.init?.body))).toMatchObject({ think: true, stream: true });
    expect(events.map((event) => event.type)).toEqual([
      'thinking_start',
      'reasoning_delta',
      'thinking_end',
      'text_delta',
      'tool_call_complete',
      'usage',
      'done',
    ]);
    expect(response).toMatchObject({
      content: 'Checking.',
      reasoningContent: 'Hmm.',
      toolCalls: [{ id: 'call_r_1_0', name: 'get_weather', args: { city: 'Paris' } }],
      finishReason: 'tool_calls',
      usage: { inputTokens: 26, outputTokens: 282, totalTokens: 308 },
      meta: {
        provider: 'ollama',
        model: 'qwen3:8b',
        perfStats: { loadDurationMs: 2, promptEvalDurationMs: 342.546, evalDurationMs: 4535.599 },
      },
    });
    expect(response.meta.perfStats?.tokensPerSecond).toBeCloseTo(282 / 4.535599, 5);
  });

  it('maps a missing model, an in-stream error line and a refused connection', async () => {
    const missing = fakeFetch(
      () => new Response('{"error":"model \\"llama9\\" not found, try pulling it first"}', { status: 404 }),
    );
    await expect(
      new OllamaAdapter({ model: 'llama9', fetch: missing.fetch }).send(request()),
    ).rejects.toMatchObject({
      code: 'model_not_found',
      retryable: false,
    });
    const midStream = fakeFetch(
      () =>
        new Response(
          ndjson({ message: { role: 'assistant', content: 'a' }, done: false }, { error: 'out of memory' }),
        ),
    );
    await expect(
      new OllamaAdapter({ model: 'm', fetch: midStream.fetch }).send(request()),
    ).rejects.toMatchObject({
      code: 'unknown',
      message: 'out of memory',
    });
    const refused = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const adapter = new OllamaAdapter({ model: 'm', fetch: refused });
    await expect(adapter.send(request())).rejects.toMatchObject({ code: 'network_error', retryable: true });
    expect(await adapter.healthCheck()).toBe(false);
  });

  it('lists pulled models without claiming tools, vision or thinking', async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response(
          JSON.stringify({
            models: [{ name: 'qwen3:8b', size: 5_200_000_000, details: { parameter_size: '8.2B' } }],
          }),
        ),
    );
    const models = await new OllamaAdapter({ model: 'qwen3:8b', fetch }).listModels();
    expect(models).toEqual([
      expect.objectContaining({
        id: 'qwen3:8b',
        displayName: 'qwen3:8b (8.2B)',
        contextWindow: 4096,
        supportsToolCalling: false,
        supportsImages: false,
      }),
    ]);
  });

  it('asks /api/show about its model with a JSON object and reads the trained window', async () => {
    const { fetch, calls } = fakeFetch(
      () =>
        new Response(
          JSON.stringify({ model_info: { 'general.architecture': 'llama', 'llama.context_length': 8192 } }),
        ),
    );
    const adapter = new OllamaAdapter({ model: 'llama3', baseUrl: 'http://127.0.0.1:11434', fetch });
    expect(await adapter.reportedContextWindow()).toBe(8192);
    expect(calls[0]!.url).toBe('http://127.0.0.1:11434/api/show');
    // Ollama answers a JSON string (not an object) with 400: the window would never be learned.
    expect(JSON.parse(String(calls[0]!.init?.body))).toEqual({ model: 'llama3' });
  });

  it('perf stats are absent when Ollama sends no durations', () => {
    expect(mapOllamaPerfStats({ done: true })).toBeUndefined();
  });
});
