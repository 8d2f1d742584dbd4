import { describe, expect, it } from 'vitest';
import { example2Tools } from '../../ir/__fixtures__/standard-examples';
import type { MetonaGenerationParams, MetonaRequest } from '../../ir';
import { toOpenAIRequest } from './convert-request';
import { mapOpenAIFinishReason, mapOpenAIUsage } from './map-finish-reason';
import { AGNES_AI_PRESET, DEEPSEEK_PRESET, OPENAI_PRESET } from './presets';
import { openAIChatRequestSchema } from './wire-schemas';

const t = 1719000000000;
const base = (params: MetonaGenerationParams = {}, extra: Partial<MetonaRequest> = {}): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 2, requestId: 'r', timestamp: t, agentVersion: 'test' },
  systemPrompt: {
    roleDefinition: 'You are a notes assistant.',
    outputConstraints: 'Answer in Markdown.',
    safetyGuidelines: '',
    dynamicReminders: 'Today is Monday.',
  },
  messages: [{ role: 'user', content: 'hi', timestamp: t }],
  params,
  ...extra,
});

describe('toOpenAIRequest', () => {
  it('streams with usage, joins the system sections and maps generation params', () => {
    const body = toOpenAIRequest(
      base({ maxTokens: 100, temperature: 0, topP: 0.9, stopSequences: ['END'] }),
      DEEPSEEK_PRESET,
      'deepseek-chat',
    );
    expect(openAIChatRequestSchema.parse(body)).toEqual(body);
    expect(body).toMatchObject({
      model: 'deepseek-chat',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 100,
      temperature: 0,
      top_p: 0.9,
      stop: ['END'],
    });
    expect(body.messages[0]).toEqual({
      role: 'system',
      content: 'You are a notes assistant.\n\nAnswer in Markdown.\n\nToday is Monday.',
    });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('thinking');
  });

  it('uses max_completion_tokens for OpenAI', () => {
    const body = toOpenAIRequest(base({ maxTokens: 100 }), OPENAI_PRESET, 'gpt-4o');
    expect(body.max_completion_tokens).toBe(100);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it.each([
    [
      { thinkingEnabled: true, thinkingEffort: 'low' },
      { thinking: { type: 'enabled' }, reasoning_effort: 'high' },
    ],
    [
      { thinkingEnabled: true, thinkingEffort: 'medium' },
      { thinking: { type: 'enabled' }, reasoning_effort: 'high' },
    ],
    [
      { thinkingEnabled: true, thinkingEffort: 'high' },
      { thinking: { type: 'enabled' }, reasoning_effort: 'high' },
    ],
    [
      { thinkingEnabled: true, thinkingEffort: 'max' },
      { thinking: { type: 'enabled' }, reasoning_effort: 'max' },
    ],
    [{ thinkingEnabled: true }, { thinking: { type: 'enabled' } }],
    [{ thinkingEnabled: false }, { thinking: { type: 'disabled' } }],
  ] as const)('DeepSeek thinking %j → %j', (params, expected) => {
    const body = toOpenAIRequest(base(params), DEEPSEEK_PRESET, 'deepseek-chat');
    expect({ thinking: body.thinking, reasoning_effort: body.reasoning_effort }).toEqual({
      reasoning_effort: undefined,
      ...expected,
    });
  });

  it.each([
    [{ thinkingEnabled: true, thinkingEffort: 'low' }, false],
    [{ thinkingEnabled: true, thinkingEffort: 'medium' }, true],
    [{ thinkingEnabled: true, thinkingEffort: 'high' }, true],
    [{ thinkingEnabled: true, thinkingEffort: 'max' }, true],
    [{ thinkingEffort: 'high' }, true],
    [{ thinkingEnabled: false, thinkingEffort: 'max' }, false],
  ] as const)('Agnes thinking %j → enable_thinking %s', (params, enabled) => {
    const body = toOpenAIRequest(base(params), AGNES_AI_PRESET, 'agnes-test-model');
    expect(body.chat_template_kwargs).toEqual({ enable_thinking: enabled });
  });

  it('OpenAI reasoning_effort caps max at high and sends nothing when thinking is off', () => {
    expect(toOpenAIRequest(base({ thinkingEffort: 'max' }), OPENAI_PRESET, 'o4-mini').reasoning_effort).toBe(
      'high',
    );
    expect(toOpenAIRequest(base({ thinkingEnabled: false }), OPENAI_PRESET, 'o4-mini')).not.toHaveProperty(
      'reasoning_effort',
    );
  });

  it('sends images as a content array, text first', () => {
    const request = base(
      {},
      {
        messages: [
          {
            role: 'user',
            content: 'What is this?',
            images: [
              { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
              { url: 'https://x.test/a.jpg' },
            ],
            timestamp: t,
          },
        ],
      },
    );
    expect(toOpenAIRequest(request, OPENAI_PRESET, 'gpt-4o').messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
        { type: 'image_url', image_url: { url: 'https://x.test/a.jpg' } },
      ],
    });
  });

  it('maps tools, tool_choice, allowedTools and maxToolCalls', () => {
    const request = base(
      {},
      { tools: example2Tools, constraints: { allowedTools: ['read_file'], maxToolCalls: 1 } },
    );
    const body = toOpenAIRequest(request, OPENAI_PRESET, 'gpt-4o');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'read_file',
          description: '读取文件内容',
          parameters: example2Tools[0]!.parameters,
        },
      },
    ]);
    expect(body.tool_choice).toBe('auto');
    expect(body.parallel_tool_calls).toBe(false);
    const none = toOpenAIRequest(
      base({}, { tools: example2Tools, constraints: { maxToolCalls: 0 } }),
      DEEPSEEK_PRESET,
      'm',
    );
    expect(none.tool_choice).toBe('none');
    expect(none).not.toHaveProperty('parallel_tool_calls');
  });

  it('passes DeepSeek reasoning_content back on tool-call rounds only, and tool results by id', () => {
    const request = base(
      { thinkingEnabled: true },
      {
        messages: [
          { role: 'user', content: 'earlier', timestamp: t },
          { role: 'assistant', content: 'earlier answer', reasoningContent: 'old thought', timestamp: t },
          { role: 'user', content: 'read it', timestamp: t },
          {
            role: 'assistant',
            content: '',
            reasoningContent: 'I need the file.',
            toolCalls: [
              { id: 'tc_1', name: 'read_file', args: { file_path: '/a' }, iteration: 1, timestamp: t },
            ],
            timestamp: t,
          },
          {
            role: 'tool',
            content: '',
            toolResult: {
              toolCallId: 'tc_1',
              toolName: 'read_file',
              result: { rows: 3 },
              success: true,
              durationMs: 1,
              timestamp: t,
            },
            timestamp: t,
          },
        ],
      },
    );
    const deepseek = toOpenAIRequest(request, DEEPSEEK_PRESET, 'deepseek-chat').messages;
    expect(deepseek[2]).toEqual({ role: 'assistant', content: 'earlier answer' });
    expect(deepseek[4]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'tc_1', type: 'function', function: { name: 'read_file', arguments: '{"file_path":"/a"}' } },
      ],
      reasoning_content: 'I need the file.',
    });
    expect(deepseek[5]).toEqual({ role: 'tool', tool_call_id: 'tc_1', content: '{"rows":3}' });
    const openai = toOpenAIRequest(request, OPENAI_PRESET, 'gpt-4o').messages;
    expect(openai[4]).not.toHaveProperty('reasoning_content');
  });

  it('sends the summary of a tool result, and the error of a failed one', () => {
    const request = base(
      {},
      {
        messages: [
          {
            role: 'tool',
            content: '',
            toolResult: {
              toolCallId: 'tc_2',
              toolName: 'x',
              result: 'long raw output',
              summary: 'short summary',
              success: false,
              error: 'permission denied',
              durationMs: 1,
              timestamp: t,
            },
            timestamp: t,
          },
        ],
      },
    );
    expect(toOpenAIRequest(request, OPENAI_PRESET, 'gpt-4o').messages[1]).toEqual({
      role: 'tool',
      tool_call_id: 'tc_2',
      content: 'Error: permission denied\nshort summary',
    });
  });
});

describe('usage and finish reasons', () => {
  it('maps DeepSeek cache figures and reasoning tokens', () => {
    expect(
      mapOpenAIUsage({
        prompt_tokens: 12,
        completion_tokens: 8,
        total_tokens: 20,
        prompt_cache_hit_tokens: 4,
        prompt_cache_miss_tokens: 8,
        completion_tokens_details: { reasoning_tokens: 5 },
      }),
    ).toEqual({
      inputTokens: 12,
      outputTokens: 8,
      totalTokens: 20,
      reasoningTokens: 5,
      cacheHitTokens: 4,
      cacheMissTokens: 8,
    });
  });

  it("maps OpenAI's cached_tokens and derives the misses", () => {
    expect(
      mapOpenAIUsage({
        prompt_tokens: 12,
        completion_tokens: 8,
        prompt_tokens_details: { cached_tokens: 4 },
      }),
    ).toEqual({ inputTokens: 12, outputTokens: 8, totalTokens: 20, cacheHitTokens: 4, cacheMissTokens: 8 });
  });

  it('maps finish reasons, and DeepSeek running out of capacity to a retryable error', () => {
    expect(mapOpenAIFinishReason('stop', 'p')).toEqual({ finishReason: 'stop' });
    expect(mapOpenAIFinishReason('length', 'p')).toEqual({ finishReason: 'length' });
    expect(mapOpenAIFinishReason('tool_calls', 'p')).toEqual({ finishReason: 'tool_calls' });
    expect(mapOpenAIFinishReason('content_filter', 'p')).toEqual({ finishReason: 'content_filter' });
    expect(mapOpenAIFinishReason('insufficient_system_resource', 'deepseek')).toMatchObject({
      error: { code: 'model_overloaded', retryable: true },
    });
  });
});
