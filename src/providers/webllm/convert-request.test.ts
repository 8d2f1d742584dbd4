import { describe, expect, it } from 'vitest';
import type { MetonaMessage, MetonaRequest } from '../../ir';
import { toAppError, toMetonaError } from '../shared/errors';
import { toWebLlmRequest } from './convert-request';
import { WEBLLM_CATALOG, findCatalogEntry, toModelInfo } from '../../models/model-catalog';
import { weatherTool } from './__fixtures__/weather-tool';

const t = 1719000000000;
const qwen3 = 'Qwen3-1.7B-q4f32_1-MLC';
const hermes = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC';

function request(messages: MetonaMessage[], extra: Partial<MetonaRequest> = {}): MetonaRequest {
  return {
    meta: { sessionId: 's', iteration: 2, requestId: 'r_1', timestamp: t, agentVersion: 'test' },
    systemPrompt: {
      roleDefinition: 'You are a notebook assistant.',
      outputConstraints: 'Be brief.',
      safetyGuidelines: '',
    },
    messages,
    params: { maxTokens: 300, temperature: 0.2, topP: 0.9, stopSequences: ['END'], stream: true },
    ...extra,
  };
}

const user = (content: string): MetonaMessage => ({ role: 'user', content, timestamp: t });
const toolRound: MetonaMessage[] = [
  user('Weather in Paris?'),
  {
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'call_1', name: 'get_weather', args: { city: 'Paris' }, iteration: 1, timestamp: t }],
    timestamp: t,
  },
  {
    role: 'tool',
    content: '',
    toolResult: {
      toolCallId: 'call_1',
      toolName: 'get_weather',
      result: { temp: 21 },
      success: true,
      durationMs: 5,
      timestamp: t,
    },
    timestamp: t,
  },
];

const convert = (req: MetonaRequest, modelId: string, toolMode?: 'auto' | 'native' | 'prompted') =>
  toWebLlmRequest(req, { modelId, entry: findCatalogEntry(modelId), ...(toolMode && { toolMode }) });

describe('IR request to web-llm', () => {
  it('keeps the sampling fields and asks for usage in the stream', () => {
    const { request: wire, toolMode } = convert(request([user('hi')]), 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(toolMode).toBe('none');
    expect(wire).toEqual({
      model: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC',
      messages: [
        { role: 'system', content: 'You are a notebook assistant.\n\nBe brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      temperature: 0.2,
      top_p: 0.9,
      stop: ['END'],
    });
  });

  it("sends Qwen3's thinking switch only when the request sets it, and only to thinking models", () => {
    const on = request([user('hi')], { params: { thinkingEnabled: true } });
    const off = request([user('hi')], { params: { thinkingEnabled: false } });
    expect(convert(on, qwen3).request.extra_body).toEqual({ enable_thinking: true });
    expect(convert(off, qwen3).request.extra_body).toEqual({ enable_thinking: false });
    expect(convert(request([user('hi')], { params: {} }), qwen3).request.extra_body).toBeUndefined();
    expect(convert(on, 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC').request.extra_body).toBeUndefined();
  });

  it('describes tools in the system prompt for models without native calling, and writes the history in that format', () => {
    const plan = convert(request(toolRound, { tools: [weatherTool] }), qwen3);
    expect(plan.toolMode).toBe('prompted');
    expect(plan.toolNames).toEqual(['get_weather']);
    expect(plan.request.tools).toBeUndefined();
    const [system, first, assistant, result] = plan.request.messages;
    expect(system).toMatchObject({ role: 'system' });
    expect(system!.content).toContain('You are a notebook assistant.');
    expect(system!.content).toContain('- get_weather: Current weather for a city.');
    expect(first).toEqual({ role: 'user', content: 'Weather in Paris?' });
    expect(assistant).toEqual({
      role: 'assistant',
      content: '<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>',
    });
    expect(result).toEqual({ role: 'user', content: 'Result of get_weather (call call_1):\n{"temp":21}' });
  });

  it('sends native tools to Hermes, with the system prompt folded into the first user message', () => {
    const plan = convert(request(toolRound, { tools: [weatherTool] }), hermes);
    expect(plan.toolMode).toBe('native');
    expect(plan.request.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather for a city.',
          parameters: weatherTool.parameters,
        },
      },
    ]);
    const messages = plan.request.messages;
    expect(messages.some((message) => message.role === 'system')).toBe(false);
    expect(messages[0]).toEqual({
      role: 'user',
      content: 'You are a notebook assistant.\n\nBe brief.\n\nWeather in Paris?',
    });
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: '[{"name":"get_weather","arguments":{"city":"Paris"}}]',
    });
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' });
  });

  it('honours an explicit tool mode and "no tools this round"', () => {
    expect(convert(request([user('x')], { tools: [weatherTool] }), hermes, 'prompted').toolMode).toBe(
      'prompted',
    );
    const none = convert(
      request([user('x')], { tools: [weatherTool], constraints: { maxToolCalls: 0 } }),
      hermes,
    );
    expect(none.toolMode).toBe('none');
    expect(none.request.tools).toBeUndefined();
    expect(none.request.messages[0]).toMatchObject({ role: 'system' });
    // An id outside the catalog gets prompted tools.
    expect(
      toWebLlmRequest(request([user('x')], { tools: [weatherTool] }), { modelId: 'custom-MLC' }).toolMode,
    ).toBe('prompted');
  });

  it('keeps web-llm message rules: one leading system message, string contents, merged tool results', () => {
    const twoResults: MetonaMessage[] = [
      user('Compare.'),
      {
        role: 'assistant',
        content: 'Checking both.',
        toolCalls: [
          { id: 'a', name: 'get_weather', args: { city: 'Paris' }, iteration: 1, timestamp: t },
          { id: 'b', name: 'get_weather', args: { city: 'Rome' }, iteration: 1, timestamp: t },
        ],
        timestamp: t,
      },
      {
        role: 'tool',
        content: 'sunny',
        toolResult: {
          toolCallId: 'a',
          toolName: 'get_weather',
          result: 'sunny',
          success: true,
          durationMs: 1,
          timestamp: t,
        },
        timestamp: t,
      },
      {
        role: 'tool',
        content: '',
        toolResult: {
          toolCallId: 'b',
          toolName: 'get_weather',
          result: undefined,
          success: false,
          error: 'timeout',
          durationMs: 1,
          timestamp: t,
        },
        timestamp: t,
      },
      { role: 'system', content: 'Summarise now.', timestamp: t },
      { role: 'user', content: 'Look:', images: [{ url: 'data:image/png;base64,AAAA' }], timestamp: t },
    ];
    const messages = convert(request(twoResults, { tools: [weatherTool] }), qwen3).request.messages;
    expect(messages.filter((message) => message.role === 'system')).toHaveLength(1);
    expect(messages[0]!.role).toBe('system');
    expect(messages[2]).toEqual({
      role: 'assistant',
      content:
        'Checking both.\n<tool_call>{"name":"get_weather","arguments":{"city":"Paris"}}</tool_call>\n' +
        '<tool_call>{"name":"get_weather","arguments":{"city":"Rome"}}</tool_call>',
    });
    expect(messages[3]).toEqual({
      role: 'user',
      content: 'Result of get_weather (call a):\nsunny\n\nResult of get_weather (call b):\nError: timeout',
    });
    expect(messages[4]).toEqual({ role: 'user', content: '[System note] Summarise now.' });
    expect(messages[5]).toEqual({
      role: 'user',
      content: 'Look:\n\n[1 image(s) left out: this local model cannot see images]',
    });
  });
});

describe('IR response format to web-llm', () => {
  const digestFormat = {
    type: 'json_schema' as const,
    name: 'digest',
    schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
  };
  const asking = (extra: Partial<MetonaRequest['params']> = {}) =>
    request([user('Summarise.')], {
      params: { stream: true, responseFormat: digestFormat, ...extra },
    });

  it('every catalog model can be held to JSON (the structured_output capability)', () => {
    for (const entry of WEBLLM_CATALOG) {
      expect(entry.structuredOutput, entry.id).toBe(true);
      expect(toModelInfo(entry).supportsStructuredOutput, entry.id).toBe(true);
    }
  });

  it('turns a thinking model to its non-thinking mode, since the grammar leaves no room for <think>', () => {
    const wire = convert(asking({ thinkingEnabled: true }), qwen3).request;
    expect(wire.response_format).toEqual({
      type: 'json_object',
      schema: JSON.stringify(digestFormat.schema),
    });
    expect(wire.extra_body).toEqual({ enable_thinking: false });
    // Without a format, the thinking switch is the request's.
    expect(
      convert(request([user('hi')], { params: { stream: true, thinkingEnabled: true } }), qwen3).request,
    ).toMatchObject({ extra_body: { enable_thinking: true } });
  });

  it('refuses, before anything is sent, a model the catalog says cannot be held to JSON', () => {
    const entry = { ...findCatalogEntry(qwen3)!, structuredOutput: false };
    let refusal: unknown;
    try {
      toWebLlmRequest(asking(), { modelId: qwen3, entry });
    } catch (error) {
      refusal = error;
    }
    const error = toMetonaError(refusal, 'test');
    expect(error).toMatchObject({
      provider: 'webllm',
      providerCode: 'capability_mismatch',
      retryable: false,
    });
    expect(toAppError(error).code).toBe('MODEL_CAPABILITY_MISMATCH');
    expect(error.message).toContain('cannot be held to a JSON answer');
    // The same model without a format is fine.
    expect(toWebLlmRequest(request([user('hi')]), { modelId: qwen3, entry }).request).not.toHaveProperty(
      'response_format',
    );
  });

  it('leaves a model the catalog does not know to web-llm', () => {
    const wire = toWebLlmRequest(asking(), { modelId: 'Custom-Model-q4f32_1-MLC' }).request;
    expect(wire.response_format).toMatchObject({ type: 'json_object' });
  });
});
