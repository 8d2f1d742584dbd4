import { describe, expect, it } from 'vitest';
import { MetonaProviderError, type MetonaRequest, type MetonaStreamEvent } from '../../ir';
import { WebLlmAdapter } from './adapter';
import type { DeviceProbe } from '../../models/device-check';
import {
  WebLlmEngineDouble,
  deltaChunk,
  engineError,
  finalChunk,
  textScript,
  usageChunk,
  type EngineDoubleOptions,
  type EngineScript,
} from './__fixtures__/engine-double';
import { WebLlmWorkerHost } from './worker-host';
import { weatherTool } from './__fixtures__/weather-tool';

const t = 1719000000000;
const QWEN = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
const QWEN3 = 'Qwen3-1.7B-q4f32_1-MLC';
const HERMES = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC';

function request(extra: Partial<MetonaRequest> = {}): MetonaRequest {
  return {
    meta: {
      sessionId: 's',
      iteration: 1,
      requestId: `r_${Math.random().toString(36).slice(2)}`,
      timestamp: t,
      agentVersion: 'test',
    },
    systemPrompt: { roleDefinition: 'You are helpful.', outputConstraints: '', safetyGuidelines: '' },
    messages: [{ role: 'user', content: 'Hello', timestamp: t }],
    params: { stream: true },
    ...extra,
  };
}

function setup(
  model: string,
  options: EngineDoubleOptions & { cached?: boolean; device?: DeviceProbe } = {},
) {
  const engine = new WebLlmEngineDouble({ functionCallingModelIds: [HERMES], ...options });
  if (options.cached !== false) engine.cache.seed(model, 1000);
  const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
  const adapter = new WebLlmAdapter({
    client: host,
    model,
    ...(options.device && { device: options.device }),
  });
  return { engine, host, adapter };
}

async function run(adapter: WebLlmAdapter, req: MetonaRequest, signal?: AbortSignal) {
  const events: MetonaStreamEvent[] = [];
  try {
    const response = await adapter.sendStream(req, (event) => events.push(event), { signal });
    return { events, response, error: undefined };
  } catch (error) {
    return { events, response: undefined, error: error as MetonaProviderError };
  }
}

const types = (events: MetonaStreamEvent[]) => events.map((event) => event.type);
const text = (events: MetonaStreamEvent[]) =>
  events
    .filter((event) => event.type === 'text_delta')
    .map((event) => event.delta)
    .join('');

describe('WebLlmAdapter (worker host + engine double)', () => {
  it('streams text and ends with usage and done', async () => {
    const { adapter, engine } = setup(QWEN, { script: textScript(QWEN, ['Hello', ' there!']) });
    const { events, response } = await run(adapter, request());
    expect(text(events)).toBe('Hello there!');
    expect(types(events).slice(-2)).toEqual(['usage', 'done']);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(response).toMatchObject({
      content: 'Hello there!',
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20 },
      meta: { provider: 'webllm', model: QWEN },
    });
    expect(engine.requests[0]).toMatchObject({
      model: QWEN,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'Hello' },
      ],
    });
  });

  it('invents no thinking: an empty think block (thinking off) yields no reasoning events', async () => {
    const { adapter } = setup(QWEN3, { script: textScript(QWEN3, ['<think>\n\n</think>\n\n', 'Hi!']) });
    const { events, response } = await run(adapter, request({ params: { thinkingEnabled: false } }));
    expect(types(events)).not.toContain('thinking_start');
    expect(types(events)).not.toContain('reasoning_delta');
    expect(response?.content).toBe('Hi!');
    expect(response?.reasoningContent).toBeUndefined();
  });

  it("streams Qwen3's think block as reasoning inside thinking_start/thinking_end", async () => {
    const { adapter, engine } = setup(QWEN3, {
      script: textScript(QWEN3, ['<think>\nGreet', ' back.\n</think>', '\n\nHi!']),
    });
    const { events, response } = await run(adapter, request({ params: { thinkingEnabled: true } }));
    expect(engine.requests[0]?.extra_body).toEqual({ enable_thinking: true });
    expect(types(events)).toEqual([
      'thinking_start',
      'reasoning_delta',
      'reasoning_delta',
      'thinking_end',
      'text_delta',
      'usage',
      'done',
    ]);
    expect(response).toMatchObject({ reasoningContent: 'Greet back.', content: 'Hi!' });
  });

  it('maps usage.extra into meta.perfStats, with the model load of the first call', async () => {
    const script: EngineScript = [
      deltaChunk(QWEN, 'ok'),
      finalChunk(QWEN, 'stop'),
      usageChunk(QWEN, {
        prompt: 40,
        completion: 10,
        extra: {
          decode_tokens_per_s: 28.5,
          prefill_tokens_per_s: 400,
          time_to_first_token_s: 0.1,
          e2e_latency_s: 0.6,
        },
      }),
    ];
    const { adapter } = setup(QWEN, { script });
    const first = await run(adapter, request());
    expect(first.response?.meta.perfStats).toMatchObject({
      tokensPerSecond: 28.5,
      promptEvalDurationMs: 100,
      evalDurationMs: 500,
    });
    expect(first.response?.meta.perfStats?.loadDurationMs).toBeGreaterThanOrEqual(0);
    const second = await run(adapter, request());
    expect(second.response?.meta.perfStats).toEqual({
      tokensPerSecond: 28.5,
      promptEvalDurationMs: 100,
      evalDurationMs: 500,
    });
    expect(second.events.find((event) => event.type === 'usage')?.usage).toEqual({
      inputTokens: 40,
      outputTokens: 10,
      totalTokens: 50,
    });
  });

  it('uses native tool calls for Hermes: the JSON content is not shown as text', async () => {
    const script: EngineScript = [
      deltaChunk(HERMES, '[{"name": "get_weather", '),
      deltaChunk(HERMES, '"arguments": {"city": "Paris"}}]'),
      finalChunk(HERMES, 'tool_calls', [{ name: 'get_weather', arguments: { city: 'Paris' } }]),
      usageChunk(HERMES, { prompt: 200, completion: 20 }),
    ];
    const { adapter, engine } = setup(HERMES, { script });
    const req = request({ tools: [weatherTool] });
    const { events, response } = await run(adapter, req);
    expect(engine.requests[0]?.tools).toHaveLength(1);
    expect(engine.requests[0]?.messages.some((message) => message.role === 'system')).toBe(false);
    expect(text(events)).toBe('');
    const complete = events.filter((event) => event.type === 'tool_call_complete');
    expect(complete.map((event) => event.toolCall)).toEqual([
      {
        id: `call_${req.meta.requestId}_0`,
        name: 'get_weather',
        args: { city: 'Paris' },
        iteration: 1,
        timestamp: expect.any(Number),
      },
    ]);
    expect(response).toMatchObject({ finishReason: 'tool_calls', content: '' });
  });

  it('reads a Hermes list web-llm could not parse with the tolerant parser', async () => {
    const script: EngineScript = [
      deltaChunk(HERMES, "[{'name': 'get_weather', 'arguments': {'city': 'Paris',}},]"),
      {
        $: 'throw',
        name: 'ToolCallOutputParseError',
        message: 'Internal error: error encountered when parsing',
      },
    ];
    const { adapter } = setup(HERMES, { script });
    const { response } = await run(adapter, request({ tools: [weatherTool] }));
    expect(response?.toolCalls?.map((call) => call.args)).toEqual([{ city: 'Paris' }]);
    expect(response?.finishReason).toBe('tool_calls');
  });

  it('treats an empty Hermes list as "no call"', async () => {
    const script: EngineScript = [
      deltaChunk(HERMES, '[]'),
      finalChunk(HERMES, 'tool_calls', []),
      usageChunk(HERMES, { prompt: 5, completion: 1 }),
    ];
    const { adapter } = setup(HERMES, { script });
    const { response } = await run(adapter, request({ tools: [weatherTool] }));
    expect(response).toMatchObject({ finishReason: 'stop', content: '' });
    expect(response?.toolCalls).toBeUndefined();
  });

  it('parses prompted tool calls out of the text of other models', async () => {
    const script = textScript(QWEN, [
      'Let me check.\n<tool_',
      'call>{"name": "get_weather", "arguments": {"city": "巴黎"}}</tool_call>',
    ]);
    const { adapter, engine } = setup(QWEN, { script });
    const { events, response } = await run(adapter, request({ tools: [weatherTool] }));
    expect(engine.requests[0]?.tools).toBeUndefined();
    expect(engine.requests[0]?.messages[0]?.content).toContain('<tool_call>');
    expect(text(events)).toBe('Let me check.\n');
    expect(response?.toolCalls?.map(({ name, args }) => ({ name, args }))).toEqual([
      { name: 'get_weather', args: { city: '巴黎' } },
    ]);
    expect(response?.finishReason).toBe('tool_calls');
  });

  it('ends with a parse_error when a prompted call cannot be read', async () => {
    const script = textScript(QWEN, [
      '<tool_call>{"name": "get_weather", "arguments": {"city": Paris"}}</tool_call>',
    ]);
    const { adapter } = setup(QWEN, { script });
    const { events, error } = await run(adapter, request({ tools: [weatherTool] }));
    expect(error).toBeInstanceOf(MetonaProviderError);
    expect(error?.code).toBe('parse_error');
    expect(types(events).at(-1)).toBe('error');
  });

  it('aborting mid-stream calls interruptGenerate and ends cancelled', async () => {
    // After the first delta the engine waits longer than any test: only the interrupt ends it.
    const script: EngineScript = [deltaChunk(QWEN, 'one'), { $: 'delay', ms: 3_600_000 }];
    for (let i = 0; i < 50; i++) script.push(deltaChunk(QWEN, ` ${i}`));
    script.push(finalChunk(QWEN, 'stop'), usageChunk(QWEN, { prompt: 1, completion: 51 }));
    let calls = 0;
    const { adapter, engine } = setup(QWEN, {
      script: () => (calls++ === 0 ? script : textScript(QWEN, ['again'])),
    });
    const controller = new AbortController();
    const events: MetonaStreamEvent[] = [];
    const started = adapter.sendStream(
      request(),
      (event) => {
        events.push(event);
        if (event.type === 'text_delta' && !controller.signal.aborted) controller.abort();
      },
      { signal: controller.signal },
    );
    await expect(started).rejects.toMatchObject({ code: 'user_aborted' });
    expect(types(events).at(-1)).toBe('error');
    expect(types(events).filter((type) => type === 'text_delta')).toHaveLength(1);
    expect(engine.interrupts).toBe(1);
    // The engine stopped and is free again: the next request answers.
    const next = await run(adapter, request());
    expect(next.response?.content).toBe('again');
  });

  it('reports the model load through onLoadProgress, all of it before the first stream event', async () => {
    const { adapter } = setup(QWEN, { script: textScript(QWEN, ['Hi']) });
    const seen: string[] = [];
    const response = await adapter.sendStream(request(), (event) => seen.push(event.type), {
      onLoadProgress: (progress) => seen.push(`loading ${Math.round(progress.progress * 100)}`),
    });
    expect(response.content).toBe('Hi');
    expect(seen).toEqual([
      'loading 0', // the host's own, at once
      'loading 0',
      'loading 25',
      'loading 50',
      'loading 75',
      'loading 100',
      'loading 50', // shader modules
      'loading 100',
      'text_delta',
      'usage',
      'done',
    ]);
  });

  it('a Stop during the load ends the call cancelled at once and the worker aborts the load', async () => {
    const { adapter, engine } = setup(QWEN, { loadStepDelayMs: 300, script: textScript(QWEN, ['Hi']) });
    const controller = new AbortController();
    const loadProgress: number[] = [];
    const events: MetonaStreamEvent[] = [];
    const stopped = adapter.sendStream(request(), (event) => events.push(event), {
      signal: controller.signal,
      onLoadProgress: (progress) => {
        loadProgress.push(progress.progress);
        // Once web-llm is loading (a Stop before that is only a skip).
        if (!controller.signal.aborted && progress.progress > 0) controller.abort();
      },
    });
    await expect(stopped).rejects.toMatchObject({ code: 'user_aborted' });
    // The call ended without waiting for the load: it never reported 100 %.
    expect(loadProgress).not.toContain(1);
    expect(types(events)).toEqual(['error']);
    await expect.poll(() => engine.unloads).toBe(1); // web-llm's unload() aborts its reload
    expect(engine.requests).toHaveLength(0); // nothing was generated for the stopped call
    // The next call loads the model again and answers.
    expect((await run(adapter, request())).response?.content).toBe('Hi');
    expect(engine.reloads).toEqual([QWEN, QWEN]);
  });

  it('turns engine errors into IR errors', async () => {
    const { adapter } = setup(QWEN, {
      script: () => {
        throw engineError(
          'ContextWindowSizeExceededError',
          'Prompt tokens exceed context window size: 5000; 4096',
        );
      },
    });
    const { events, error } = await run(adapter, request());
    expect(error).toBeInstanceOf(MetonaProviderError);
    expect(error).toMatchObject({ code: 'context_length_exceeded', provider: 'webllm', retryable: false });
    expect(events.map((event) => event.type)).toEqual(['error']);
  });

  it('refuses a model that was never downloaded instead of fetching it', async () => {
    const { adapter, engine } = setup(QWEN, { cached: false });
    const { error } = await run(adapter, request());
    expect(error).toMatchObject({ code: 'model_not_found', providerCode: 'model_not_downloaded' });
    expect(engine.reloads).toEqual([]);
  });

  it('reports an offline load as a clear, retryable error', async () => {
    const { adapter } = setup(QWEN, { reloadError: new TypeError('Failed to fetch') });
    const { error } = await run(adapter, request());
    expect(error).toBeInstanceOf(MetonaProviderError);
    expect(error).toMatchObject({
      code: 'network_error',
      providerCode: 'model_fetch_failed',
      retryable: true,
    });
    expect(error?.message).toMatch(/unreachable \(offline\?\)/);
  });

  it('describes the catalog and checks health', async () => {
    const capable: DeviceProbe = {
      gpu: {
        requestAdapter: async () => ({
          features: new Set<string>(),
          limits: { maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 31 },
        }),
      },
    };
    const { adapter } = setup(QWEN, { device: capable });
    expect(adapter.getContextWindow()).toBe(4096);
    expect(adapter.getContextWindow('gemma-2-2b-it-q4f32_1-MLC-1k')).toBe(1024);
    expect(adapter.supportedModels).toContain(QWEN);
    expect((await adapter.listModels()).map((model) => model.id)).toContain(HERMES);
    expect(await adapter.healthCheck()).toBe(true);
    expect(await setup(QWEN, { device: {} }).adapter.healthCheck()).toBe(false); // no WebGPU
    expect(await setup(QWEN, { device: capable, cached: false }).adapter.healthCheck()).toBe(false);
    // q4f16 on a GPU without shader-f16
    expect(await setup('Qwen2.5-1.5B-Instruct-q4f16_1-MLC', { device: capable }).adapter.healthCheck()).toBe(
      false,
    );
  });
});
