import { describe, expect, it } from 'vitest';
import type { MetonaRequest, MetonaStreamEvent, MetonaToolDef } from '../ir';
import { AnthropicAdapter } from './anthropic/adapter';
import { OllamaAdapter } from './ollama/adapter';
import { OpenAICompatibleAdapter } from './openai-compatible/adapter';
import { WIRE_TOOL_NAME } from './shared/tool-names';
import { WebLlmAdapter } from './webllm/adapter';
import {
  WebLlmEngineDouble,
  deltaChunk,
  type EngineScript,
  finalChunk,
  usageChunk,
} from './webllm/__fixtures__/engine-double';
import { WebLlmWorkerHost } from './webllm/worker-host';

// Dotted IR tool names go out as valid wire names and come back as IR names, per adapter.

const t = 1719000000000;
const notesRead: MetonaToolDef = {
  name: 'notes.read',
  description: 'Read a note.',
  parameters: {
    type: 'object',
    properties: { id: { type: 'string', description: 'Note id' } },
    required: ['id'],
  },
  category: 'filesystem',
  riskLevel: 'safe',
  requiresPermission: false,
  timeoutMs: 1000,
};

const request = (): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 2, requestId: 'r_names', timestamp: t, agentVersion: 'test' },
  systemPrompt: { roleDefinition: 'r', outputConstraints: '', safetyGuidelines: '' },
  messages: [
    { role: 'user', content: 'read n1', timestamp: t },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c0', name: 'notes.read', args: { id: 'n0' }, iteration: 1, timestamp: t }],
      timestamp: t,
    },
    {
      role: 'tool',
      content: 'ok',
      toolResult: {
        toolCallId: 'c0',
        toolName: 'notes.read',
        success: true,
        result: 'ok',
        durationMs: 1,
        timestamp: t,
      },
      timestamp: t,
    },
  ],
  tools: [notesRead],
  params: { stream: true },
});

function fakeFetch(body: string) {
  const bodies: unknown[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(body, { status: 200 });
  };
  return { bodies, fetch: fetch as typeof globalThis.fetch };
}

async function run(adapter: { sendStream: OpenAICompatibleAdapter['sendStream'] }) {
  const events: MetonaStreamEvent[] = [];
  await adapter.sendStream(request(), (event) => events.push(event));
  return events;
}

const completedNames = (events: MetonaStreamEvent[]) =>
  events.flatMap((event) =>
    event.type === 'tool_call_complete' && event.toolCall ? [event.toolCall.name] : [],
  );

/** Every tool name the body carries, wherever the wire puts it. */
function wireNames(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) wireNames(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if ((key === 'name' || key === 'tool_name') && typeof item === 'string') out.push(item);
      else wireNames(item, out);
    }
  }
  return out;
}

function expectWireSafe(body: unknown, expected: number) {
  const names = wireNames(body);
  expect(names.length).toBeGreaterThanOrEqual(expected);
  for (const name of names) expect(name).toMatch(WIRE_TOOL_NAME);
  expect(names).toContain('notes__read');
}

describe('dotted tool names at the adapter boundary', () => {
  it('openai-compatible', async () => {
    const sse = [
      '{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","type":"function","function":{"name":"notes__read","arguments":"{\\"id\\":\\"n1\\"}"}}]},"finish_reason":null}]}',
      '{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}',
      '[DONE]',
    ]
      .map((line) => `data: ${line}\n\n`)
      .join('');
    const { bodies, fetch } = fakeFetch(sse);
    const events = await run(new OpenAICompatibleAdapter({ preset: 'deepseek', apiKey: 'k', fetch }));
    expectWireSafe(bodies[0], 2);
    expect(completedNames(events)).toEqual(['notes.read']);
    const delta = events.find((event) => event.type === 'tool_call_delta');
    expect(delta).toMatchObject({ toolCallDelta: { name: 'notes.read' } });
  });

  it('anthropic', async () => {
    const sse = [
      {
        type: 'message_start',
        message: { id: 'm', model: 'claude-sonnet-4-5', usage: { input_tokens: 3, output_tokens: 0 } },
      },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'notes__read', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"id":"n1"}' },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]
      .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join('');
    const { bodies, fetch } = fakeFetch(sse);
    const events = await run(new AnthropicAdapter({ apiKey: 'k', fetch }));
    expectWireSafe(bodies[0], 2);
    expect(completedNames(events)).toEqual(['notes.read']);
  });

  it('ollama', async () => {
    const ndjson = [
      {
        model: 'm',
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'notes__read', arguments: { id: 'n1' } } }],
        },
        done: false,
      },
      { model: 'm', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join('');
    const { bodies, fetch } = fakeFetch(ndjson);
    const events = await run(new OllamaAdapter({ model: 'm', fetch }));
    expectWireSafe(bodies[0], 3);
    expect(completedNames(events)).toEqual(['notes.read']);
  });

  const webllm = (model: string, script: EngineScript) => {
    const engine = new WebLlmEngineDouble({ functionCallingModelIds: [model], script });
    engine.cache.seed(model, 1000);
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
    return { engine, adapter: new WebLlmAdapter({ client: host, model }) };
  };

  it('webllm, native tools', async () => {
    const model = 'Hermes-3-Llama-3.1-8B-q4f16_1-MLC';
    const { engine, adapter } = webllm(model, [
      finalChunk(model, 'tool_calls', [{ name: 'notes__read', arguments: { id: 'n1' } }]),
      usageChunk(model, { prompt: 1, completion: 1 }),
    ]);
    const events = await run(adapter);
    expectWireSafe(engine.requests[0]?.tools, 1);
    expect(JSON.stringify(engine.requests[0]?.messages)).not.toContain('notes.read');
    expect(completedNames(events)).toEqual(['notes.read']);
  });

  it('webllm, prompted tools', async () => {
    const model = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
    const { engine, adapter } = webllm(model, [
      deltaChunk(model, '<tool_call>{"name":"notes__read","arguments":{"id":"n1"}}</tool_call>'),
      finalChunk(model, 'stop'),
      usageChunk(model, { prompt: 1, completion: 1 }),
    ]);
    const events = await run(adapter);
    const prompt = JSON.stringify(engine.requests[0]?.messages);
    expect(prompt).toContain('notes__read');
    expect(prompt).not.toContain('notes.read');
    expect(completedNames(events)).toEqual(['notes.read']);
  });
});
