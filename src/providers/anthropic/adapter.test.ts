import { describe, expect, it } from 'vitest';
import type { MetonaGenerationParams, MetonaMessage, MetonaRequest } from '../../ir';
import { example2Tools } from '../../ir/__fixtures__/standard-examples';
import { AnthropicAdapter } from './adapter';
import { toAnthropicRequest } from './convert-request';
import { mapAnthropicUsage } from './map-finish-reason';
import { ThinkingSignatures } from './thinking-signatures';
import { anthropicRequestSchema } from './wire-schemas';

const t = 1719000000000;
const request = (
  params: MetonaGenerationParams = {},
  messages?: MetonaMessage[],
  extra: Partial<MetonaRequest> = {},
) =>
  ({
    meta: { sessionId: 's', iteration: 1, requestId: 'r_1', timestamp: t, agentVersion: 'test' },
    systemPrompt: {
      roleDefinition: 'You are a notes assistant.',
      outputConstraints: 'Use Markdown.',
      safetyGuidelines: 'Be honest.',
      dynamicReminders: 'Current note: Groceries.',
    },
    messages: messages ?? [{ role: 'user', content: 'hi', timestamp: t }],
    params,
    ...extra,
  }) satisfies MetonaRequest;

const sse = (...events: object[]) =>
  events
    .map((event) => `event: ${(event as { type: string }).type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');

function fakeFetch(...bodies: (string | Response)[]) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init });
    const next = bodies.shift() ?? '';
    return typeof next === 'string' ? new Response(next) : next;
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

const toolRound = (reasoning: string): MetonaMessage[] => [
  { role: 'user', content: 'weather?', timestamp: t },
  {
    role: 'assistant',
    content: '',
    reasoningContent: reasoning,
    toolCalls: [{ id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' }, iteration: 1, timestamp: t }],
    timestamp: t,
  },
  {
    role: 'tool',
    content: '',
    toolResult: {
      toolCallId: 'toolu_1',
      toolName: 'get_weather',
      result: '21°C',
      success: true,
      durationMs: 1,
      timestamp: t,
    },
    timestamp: t,
  },
];

describe('toAnthropicRequest', () => {
  it('assembles the system prompt from the sections and system messages, and streams', () => {
    const body = toAnthropicRequest(
      request({ temperature: 0, maxTokens: 500 }, [
        { role: 'system', content: 'Extra rule.', timestamp: t },
        { role: 'user', content: 'hi', timestamp: t },
      ]),
      'claude-sonnet-4-5',
      new ThinkingSignatures(),
    );
    expect(anthropicRequestSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({
      model: 'claude-sonnet-4-5',
      max_tokens: 500,
      stream: true,
      temperature: 0,
      system:
        'You are a notes assistant.\n\nUse Markdown.\n\nBe honest.\n\nCurrent note: Groceries.\n\nExtra rule.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(body).not.toHaveProperty('thinking');
  });

  it.each([
    ['low', 1024],
    ['medium', 2048],
    ['high', 4096],
    ['max', 8192],
  ] as const)('thinking %s → budget %i on top of the answer tokens, no temperature', (effort, budget) => {
    const body = toAnthropicRequest(
      request({ thinkingEnabled: true, thinkingEffort: effort, maxTokens: 1000, temperature: 0 }),
      'm',
      new ThinkingSignatures(),
    );
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
    expect(body.max_tokens).toBe(budget + 1000);
    expect(body).not.toHaveProperty('temperature');
  });

  it('sends images before text, base64 for data URIs and url otherwise', () => {
    const body = toAnthropicRequest(
      request({}, [
        {
          role: 'user',
          content: 'What is it?',
          images: [{ url: 'data:image/png;base64,iVBORw0KGgo=' }, { url: 'https://img.test/a.jpg' }],
          timestamp: t,
        },
      ]),
      'm',
      new ThinkingSignatures(),
    );
    expect(body.messages[0]!.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://img.test/a.jpg' } },
      { type: 'text', text: 'What is it?' },
    ]);
  });

  it('maps tools and tool_choice, and merges the tool results of a round into one user message', () => {
    const messages = toolRound('thought');
    messages.push({
      role: 'tool',
      content: '',
      toolResult: {
        toolCallId: 'toolu_2',
        toolName: 'x',
        result: 'no',
        success: false,
        error: 'denied',
        durationMs: 1,
        timestamp: t,
      },
      timestamp: t,
    });
    const body = toAnthropicRequest(
      request({}, messages, { tools: example2Tools, constraints: { maxToolCalls: 1 } }),
      'm',
      new ThinkingSignatures(),
    );
    expect(body.tools?.[0]).toEqual({
      name: 'read_file',
      description: '读取文件内容',
      input_schema: example2Tools[0]!.parameters,
    });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
    ]);
    expect(body.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: '21°C' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'Error: denied\nno', is_error: true },
    ]);
  });

  it('continues a tool round with its signed thinking, or without thinking when the signature is unknown', () => {
    const signatures = new ThinkingSignatures();
    signatures.remember('I should check the weather.', 'sig-abc');
    const signed = toAnthropicRequest(
      request({ thinkingEnabled: true }, toolRound('I should check the weather.')),
      'm',
      signatures,
    );
    expect(signed.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(signed.messages[1]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'I should check the weather.',
      signature: 'sig-abc',
    });
    const foreign = toAnthropicRequest(
      request({ thinkingEnabled: true }, toolRound('from DeepSeek')),
      'm',
      signatures,
    );
    expect(foreign).not.toHaveProperty('thinking');
    expect(foreign.messages[1]!.content.map((block) => block.type)).toEqual(['tool_use']);
  });
});

describe('AnthropicAdapter', () => {
  it('sends the browser-access, version and key headers to /v1/messages', async () => {
    const { fetch, calls } = fakeFetch(
      sse(
        {
          type: 'message_start',
          message: { model: 'claude-sonnet-4-5-20250929', usage: { input_tokens: 3, output_tokens: 1 } },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: {} } },
        { type: 'content_block_stop', index: 0 },
        { type: 'some_future_event' },
        { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: { output_tokens: 2 } },
        { type: 'message_stop' },
      ),
    );
    const adapter = new AnthropicAdapter({ apiKey: 'sk-ant', fetch });
    const response = await adapter.send(request());
    expect(calls[0]!.url).toBe('https://api.anthropic.com/v1/messages');
    expect(calls[0]!.init?.headers).toMatchObject({
      'x-api-key': 'sk-ant',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
    expect(response).toMatchObject({
      content: 'ok',
      finishReason: 'length',
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      meta: { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' },
    });
  });

  it('remembers the thinking signature of a response and sends it back on the next tool round', async () => {
    const { fetch, calls } = fakeFetch(
      sse(
        { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 3 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'thinking_delta', thinking: 'Need weather.' },
        },
        { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-1' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
        },
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: '{"city":"Paris"}' },
        },
        { type: 'content_block_stop', index: 1 },
        { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ),
      sse({ type: 'message_start', message: {} }, { type: 'message_stop' }),
    );
    const adapter = new AnthropicAdapter({ fetch });
    const first = await adapter.send(request({ thinkingEnabled: true }));
    expect(first).toMatchObject({ reasoningContent: 'Need weather.', finishReason: 'tool_calls' });
    await adapter.send(request({ thinkingEnabled: true }, toolRound(first.reasoningContent!)));
    const second = JSON.parse(String(calls[1]!.init?.body)) as { messages: { content: unknown[] }[] };
    expect(second.messages[1]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Need weather.',
      signature: 'sig-1',
    });
  });

  it('maps an overloaded error event mid-stream and a 529 response', async () => {
    const midStream = fakeFetch(
      sse(
        { type: 'message_start', message: {} },
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      ),
    );
    await expect(new AnthropicAdapter({ fetch: midStream.fetch }).send(request())).rejects.toMatchObject({
      code: 'model_overloaded',
      retryable: true,
      providerCode: 'overloaded_error',
    });
    const overloaded = fakeFetch(
      new Response('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {
        status: 529,
      }),
    );
    await expect(new AnthropicAdapter({ fetch: overloaded.fetch }).send(request())).rejects.toMatchObject({
      code: 'model_overloaded',
      retryable: true,
    });
  });

  it('reports cache reads as part of the input', () => {
    expect(
      mapAnthropicUsage({
        input_tokens: 8,
        cache_read_input_tokens: 4,
        cache_creation_input_tokens: 2,
        output_tokens: 5,
      }),
    ).toEqual({
      inputTokens: 14,
      outputTokens: 5,
      totalTokens: 19,
      cacheHitTokens: 4,
      cacheMissTokens: 10,
    });
  });

  it('lists models, claiming abilities only for known ones', async () => {
    const { fetch } = fakeFetch(
      JSON.stringify({
        data: [
          { id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' },
          { id: 'claude-future-9', display_name: 'Claude Future' },
        ],
      }),
    );
    const models = await new AnthropicAdapter({ fetch }).listModels();
    expect(models.map((m) => [m.id, m.supportsToolCalling, m.maxOutput])).toEqual([
      ['claude-sonnet-4-5-20250929', true, 64_000],
      ['claude-future-9', false, 4096],
    ]);
  });
});
