import { describe, expect, it } from 'vitest';
import type { MetonaRequest, MetonaResponseFormat, MetonaStreamEvent, MetonaToolDef } from '../ir';
import { AnthropicAdapter } from './anthropic';
import { MockAdapter } from './mock';
import { OllamaAdapter } from './ollama';
import { OpenAICompatibleAdapter } from './openai-compatible';
import { toAppError, toContractErrorCode, toMetonaError } from './shared/errors';
import { WebLlmAdapter } from './webllm';
import { WebLlmEngineDouble, textScript } from './webllm/__fixtures__/engine-double';
import { WebLlmWorkerHost } from './webllm/worker-host';

/**
 * `params.responseFormat` per provider: what each sends on the wire, the
 * parsed `structuredOutput` it returns, and the refusal (the contract's
 * MODEL_CAPABILITY_MISMATCH, before any request) where a provider has no form
 * for what was asked.
 */

const t = 1719000000000;
const DIGEST_SCHEMA = {
  type: 'object',
  properties: { summary: { type: 'string' } },
  required: ['summary'],
  additionalProperties: false,
};
const jsonSchema: MetonaResponseFormat = {
  type: 'json_schema',
  name: 'digest',
  schema: DIGEST_SCHEMA,
  strict: true,
};
const jsonObject: MetonaResponseFormat = { type: 'json_object' };
const ANSWER = '{"summary":"Planned the trip."}';

const tool: MetonaToolDef = {
  name: 'notes.search',
  description: 'Search notes.',
  parameters: { type: 'object', properties: { q: { type: 'string', description: 'query' } } },
  category: 'search',
  riskLevel: 'safe',
  requiresPermission: false,
  timeoutMs: 1000,
};

function request(responseFormat?: MetonaResponseFormat, extra: Partial<MetonaRequest> = {}): MetonaRequest {
  return {
    meta: { sessionId: 's', iteration: 1, requestId: 'r_1', timestamp: t, agentVersion: 'test' },
    systemPrompt: { roleDefinition: 'r', outputConstraints: '', safetyGuidelines: '' },
    messages: [{ role: 'user', content: 'Summarise.', timestamp: t }],
    params: { stream: true, ...(responseFormat && { responseFormat }) },
    ...extra,
  };
}

function recordingFetch(body: () => string) {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return new Response(body(), { status: 200 });
  };
  return { bodies, fetch: fetch as typeof globalThis.fetch };
}

const openAISse = () =>
  [JSON.stringify({ choices: [{ index: 0, delta: { content: ANSWER }, finish_reason: 'stop' }] }), '[DONE]']
    .map((line) => `data: ${line}\n\n`)
    .join('');

const anthropicSse = () =>
  [
    { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: { input_tokens: 3 } } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ANSWER } },
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } },
    { type: 'message_stop' },
  ]
    .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join('');

const ollamaNdjson = () =>
  [
    { model: 'llama3.2', message: { role: 'assistant', content: ANSWER }, done: false },
    { model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');

/** Runs a call expected to be refused: no request, an error event, the contract's code. */
async function expectRefused(
  send: (onEvent: (event: MetonaStreamEvent) => void) => Promise<unknown>,
  sent: () => number,
) {
  const events: MetonaStreamEvent[] = [];
  const thrown = await send((event) => events.push(event)).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(thrown).toBeDefined();
  const error = toMetonaError(thrown, 'test');
  expect(error).toMatchObject({ providerCode: 'capability_mismatch', retryable: false });
  expect(toAppError(error).code).toBe('MODEL_CAPABILITY_MISMATCH');
  expect(toContractErrorCode(error.code, { providerCode: error.providerCode })).toBe(
    'MODEL_CAPABILITY_MISMATCH',
  );
  expect(events.map((event) => event.type)).toEqual(['error']);
  expect(sent()).toBe(0);
  return error;
}

describe('structured output: OpenAI-compatible response_format', () => {
  it('sends a JSON schema as json_schema and returns the parsed answer as structuredOutput', async () => {
    const { bodies, fetch } = recordingFetch(openAISse);
    const adapter = new OpenAICompatibleAdapter({ preset: 'openai', fetch });
    const response = await adapter.send(request(jsonSchema));
    expect(bodies[0]!.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'digest', schema: DIGEST_SCHEMA, strict: true },
    });
    expect(response.content).toBe(ANSWER);
    expect(response.structuredOutput).toEqual({ summary: 'Planned the trip.' });
  });

  it('sends json_object as is, beside tools, and leaves response_format out when none is asked', async () => {
    const { bodies, fetch } = recordingFetch(openAISse);
    const adapter = new OpenAICompatibleAdapter({ preset: 'openai', fetch });
    await adapter.send(request(jsonObject, { tools: [tool] }));
    await adapter.send(request());
    expect(bodies[0]).toMatchObject({ response_format: { type: 'json_object' }, tool_choice: 'auto' });
    expect(bodies[1]).not.toHaveProperty('response_format');
    expect((await adapter.send(request())).structuredOutput).toBeUndefined();
  });

  it('DeepSeek takes json_object and refuses a schema, which its API would ignore', async () => {
    const { bodies, fetch } = recordingFetch(openAISse);
    const adapter = new OpenAICompatibleAdapter({ preset: 'deepseek', fetch });
    await adapter.send(request(jsonObject));
    expect(bodies[0]!.response_format).toEqual({ type: 'json_object' });
    const error = await expectRefused(
      (onEvent) => adapter.sendStream(request(jsonSchema), onEvent),
      () => bodies.length - 1,
    );
    expect(error.message).toContain('json_schema');
  });

  it('a server whose formats are not known gets the schema and answers for itself', async () => {
    const { bodies, fetch } = recordingFetch(openAISse);
    const adapter = new OpenAICompatibleAdapter({ preset: 'agnes-ai', model: 'qwen3', fetch });
    await adapter.send(request(jsonSchema));
    expect(bodies[0]!.response_format).toMatchObject({ type: 'json_schema' });
  });

  it('keeps content but no structuredOutput when the answer is not JSON', async () => {
    const { fetch } = recordingFetch(() =>
      [
        JSON.stringify({
          choices: [{ index: 0, delta: { content: '{"summary":' }, finish_reason: 'length' }],
        }),
      ]
        .map((line) => `data: ${line}\n\n`)
        .join(''),
    );
    const response = await new OpenAICompatibleAdapter({ preset: 'openai', fetch }).send(request(jsonSchema));
    expect(response).toMatchObject({ content: '{"summary":', finishReason: 'length' });
    expect(response).not.toHaveProperty('structuredOutput');
  });
});

describe('structured output: Anthropic output_config.format', () => {
  it('sends the schema as output_config.format and parses the answer', async () => {
    const { bodies, fetch } = recordingFetch(anthropicSse);
    const adapter = new AnthropicAdapter({ apiKey: 'k', fetch });
    const response = await adapter.send(request(jsonSchema));
    expect(bodies[0]!.output_config).toEqual({ format: { type: 'json_schema', schema: DIGEST_SCHEMA } });
    expect(response.structuredOutput).toEqual({ summary: 'Planned the trip.' });
    await adapter.send(request());
    expect(bodies[1]).not.toHaveProperty('output_config');
  });

  it('refuses json_object: the Messages API constrains output only to a schema', async () => {
    const { bodies, fetch } = recordingFetch(anthropicSse);
    const adapter = new AnthropicAdapter({ apiKey: 'k', fetch });
    await expectRefused(
      (onEvent) => adapter.sendStream(request(jsonObject), onEvent),
      () => bodies.length,
    );
  });

  it('claims structured output only for catalog models documented to have it', async () => {
    const list = JSON.stringify({
      data: [{ id: 'claude-sonnet-4-5' }, { id: 'claude-sonnet-4-0' }, { id: 'claude-next' }],
    });
    const fetch = (async () => new Response(list)) as typeof globalThis.fetch;
    const models = await new AnthropicAdapter({ apiKey: 'k', fetch }).listModels();
    expect(models.map((model) => [model.id, model.supportsStructuredOutput])).toEqual([
      ['claude-sonnet-4-5', true],
      ['claude-sonnet-4-0', false],
      ['claude-next', false],
    ]);
  });
});

describe('structured output: Ollama format', () => {
  it('sends a schema as format, json_object as "json", and parses the answer', async () => {
    const { bodies, fetch } = recordingFetch(ollamaNdjson);
    const adapter = new OllamaAdapter({ model: 'llama3.2', fetch });
    const response = await adapter.send(request(jsonSchema));
    await adapter.send(request(jsonObject));
    await adapter.send(request());
    expect(bodies[0]!.format).toEqual(DIGEST_SCHEMA);
    expect(bodies[1]!.format).toBe('json');
    expect(bodies[2]).not.toHaveProperty('format');
    expect(response.structuredOutput).toEqual({ summary: 'Planned the trip.' });
  });
});

describe('structured output: WebLLM response_format', () => {
  const QWEN = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
  function setup() {
    const engine = new WebLlmEngineDouble({ script: textScript(QWEN, [ANSWER]) });
    engine.cache.seed(QWEN, 1000);
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
    return { engine, adapter: new WebLlmAdapter({ client: host, model: QWEN }) };
  }

  it('sends json_object with the schema as a string, and parses the answer', async () => {
    const { engine, adapter } = setup();
    const response = await adapter.send(request(jsonSchema));
    await adapter.send(request(jsonObject));
    expect(engine.requests[0]!.response_format).toEqual({
      type: 'json_object',
      schema: JSON.stringify(DIGEST_SCHEMA),
    });
    expect(engine.requests[1]!.response_format).toEqual({ type: 'json_object' });
    expect(response.structuredOutput).toEqual({ summary: 'Planned the trip.' });
  });

  it('refuses a response format together with tools, since its grammar would forbid the calls', async () => {
    const { engine, adapter } = setup();
    await expectRefused(
      (onEvent) => adapter.sendStream(request(jsonObject, { tools: [tool] }), onEvent),
      () => engine.requests.length,
    );
  });
});

describe('structured output: the scripted mock', () => {
  it('refuses rather than play a script that ignores the format', async () => {
    const adapter = new MockAdapter({ sleep: async () => undefined });
    // Nothing is played: the only event is the error.
    await expectRefused(
      (onEvent) => adapter.sendStream(request(jsonSchema), onEvent),
      () => 0,
    );
    await expect(adapter.send(request())).resolves.toMatchObject({ finishReason: 'stop' });
  });
});
