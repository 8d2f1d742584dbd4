import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { example1Request, example2Request1, example2Request2, t } from './__fixtures__/standard-examples';
import {
  metonaGenerationParamsSchema,
  metonaImageContentSchema,
  metonaMessageSchema,
  metonaRequestSchema,
  type MetonaGenerationParams,
  type MetonaMessage,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

describe('MetonaRequest', () => {
  it.each([
    ['example 1', example1Request],
    ['example 2, round 1', example2Request1],
    ['example 2, round 2', example2Request2],
  ])('accepts the standard %s unchanged', (_name, request) => {
    expect(metonaRequestSchema.parse(request)).toEqual(request);
  });

  it('requires toolCalls[].timestamp although the standard example 2 omits it', () => {
    const [user, assistant, tool] = example2Request2.messages;
    const { timestamp: _omitted, ...callAsPrinted } = assistant!.toolCalls![0]!;
    const asPrinted = {
      ...example2Request2,
      messages: [user, { ...assistant, toolCalls: [callAsPrinted] }, tool],
    };
    expect(issuePaths(metonaRequestSchema, asPrinted)).toEqual(['messages.1.toolCalls.0.timestamp']);
  });

  it('rejects missing required parts and out-of-range meta', () => {
    const { systemPrompt: _dropped, ...noSystemPrompt } = example1Request;
    expect(issuePaths(metonaRequestSchema, noSystemPrompt)).toEqual(['systemPrompt']);
    const iterationZero = { ...example1Request, meta: { ...example1Request.meta, iteration: 0 } };
    expect(issuePaths(metonaRequestSchema, iterationZero)).toEqual(['meta.iteration']);
    const emptyId = { ...example1Request, meta: { ...example1Request.meta, requestId: '' } };
    expect(issuePaths(metonaRequestSchema, emptyId)).toEqual(['meta.requestId']);
  });
});

describe('MetonaGenerationParams', () => {
  it('accepts every thinkingEffort of the standard and nothing else', () => {
    for (const thinkingEffort of ['low', 'medium', 'high', 'max']) {
      expect(metonaGenerationParamsSchema.safeParse({ thinkingEffort }).success).toBe(true);
    }
    expect(issuePaths(metonaGenerationParamsSchema, { thinkingEffort: 'extreme' })).toEqual([
      'thinkingEffort',
    ]);
    expectTypeOf<MetonaGenerationParams['thinkingEffort']>().toEqualTypeOf<
      'low' | 'medium' | 'high' | 'max' | undefined
    >();
  });

  it('rejects out-of-range sampling values', () => {
    expect(issuePaths(metonaGenerationParamsSchema, { topP: 1.5 })).toEqual(['topP']);
    expect(issuePaths(metonaGenerationParamsSchema, { temperature: -0.1 })).toEqual(['temperature']);
    expect(issuePaths(metonaGenerationParamsSchema, { maxTokens: 10.5 })).toEqual(['maxTokens']);
  });

  it('accepts a JSON object or a named JSON schema as responseFormat, and nothing else', () => {
    const schema = { type: 'object', properties: { facts: { type: 'array' } } };
    for (const responseFormat of [
      { type: 'json_object' },
      { type: 'json_schema', name: 'memory_digest', schema },
      { type: 'json_schema', name: 'x', schema, strict: true, description: 'why' },
    ]) {
      expect(metonaGenerationParamsSchema.safeParse({ responseFormat }).success).toBe(true);
    }
    expect(issuePaths(metonaGenerationParamsSchema, { responseFormat: { type: 'text' } })).toEqual([
      'responseFormat.type',
    ]);
    expect(
      issuePaths(metonaGenerationParamsSchema, {
        responseFormat: { type: 'json_schema', name: 'a b', schema },
      }),
    ).toEqual(['responseFormat.name']);
    expect(
      issuePaths(metonaGenerationParamsSchema, { responseFormat: { type: 'json_schema', name: 'ok' } }),
    ).toEqual(['responseFormat.schema']);
  });
});

describe('MetonaMessage', () => {
  const user: MetonaMessage = { role: 'user', content: 'hi', timestamp: t };
  const toolResult = example2Request2.messages[2]!.toolResult!;
  const toolCalls = example2Request2.messages[1]!.toolCalls!;

  it('accepts an assistant message with reasoning and tool calls, and images on a user message', () => {
    const assistant = {
      role: 'assistant',
      content: '',
      reasoningContent: '先读文件',
      toolCalls,
      timestamp: t,
    };
    expect(metonaMessageSchema.safeParse(assistant).success).toBe(true);
    const withImage = { ...user, images: [{ url: 'data:image/png;base64,AAAA', detail: 'auto' }] };
    expect(metonaMessageSchema.safeParse(withImage).success).toBe(true);
  });

  it('rejects toolResult outside role tool, with a readable message', () => {
    const result = metonaMessageSchema.safeParse({ ...user, toolResult });
    expect(result.error?.issues).toMatchObject([
      { path: ['toolResult'], message: "toolResult is only allowed on tool messages, not on role 'user'" },
    ]);
  });

  it('rejects toolCalls and reasoningContent outside role assistant', () => {
    expect(issuePaths(metonaMessageSchema, { ...user, toolCalls })).toEqual(['toolCalls']);
    expect(
      issuePaths(metonaMessageSchema, { ...user, role: 'tool', toolResult, reasoningContent: 'x' }),
    ).toEqual(['reasoningContent']);
  });

  it('requires a toolResult on role tool', () => {
    expect(issuePaths(metonaMessageSchema, { ...user, role: 'tool' })).toEqual(['toolResult']);
  });

  it('rejects an unknown role, a missing timestamp and a bad image detail', () => {
    expect(issuePaths(metonaMessageSchema, { ...user, role: 'developer' })).toEqual(['role']);
    expect(issuePaths(metonaMessageSchema, { role: 'user', content: 'hi' })).toEqual(['timestamp']);
    expect(issuePaths(metonaImageContentSchema, { url: 'https://x/a.png', detail: 'medium' })).toEqual([
      'detail',
    ]);
  });
});
