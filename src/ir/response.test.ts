import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { example1Response, example2Request2 } from './__fixtures__/standard-examples';
import {
  MetonaErrorCode,
  MetonaFinishReason,
  metonaResponseMetaSchema,
  metonaResponseSchema,
  metonaThinkingSchema,
  metonaTokenUsageSchema,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

describe('MetonaResponse', () => {
  it('accepts example 1 unchanged', () => {
    expect(metonaResponseSchema.parse(example1Response)).toEqual(example1Response);
  });

  it('accepts a tool-calling response with reasoning, structured output and an error', () => {
    const response = {
      ...example1Response,
      content: '',
      reasoningContent: '需要先读文件',
      structuredOutput: { plan: ['read_file'] },
      toolCalls: example2Request2.messages[1]!.toolCalls,
      finishReason: 'tool_calls',
      error: { code: MetonaErrorCode.PARSE_ERROR, message: 'bad args', retryable: false },
    };
    expect(metonaResponseSchema.parse(response)).toEqual(response);
  });

  it('rejects a wrong finish reason and missing usage', () => {
    expect(issuePaths(metonaResponseSchema, { ...example1Response, finishReason: 'tool-calls' })).toEqual([
      'finishReason',
    ]);
    const { usage: _dropped, ...noUsage } = example1Response;
    expect(issuePaths(metonaResponseSchema, noUsage)).toEqual(['usage']);
  });

  it('has exactly the standard finish reasons', () => {
    expect(Object.values(MetonaFinishReason)).toEqual([
      'stop',
      'length',
      'tool_calls',
      'content_filter',
      'error',
    ]);
  });
});

describe('MetonaResponseMeta.perfStats and MetonaTokenUsage', () => {
  const meta = example1Response.meta;

  it('accepts Ollama-style perf stats and rejects negative ones', () => {
    const perfStats = {
      loadDurationMs: 1200,
      promptEvalDurationMs: 80,
      evalDurationMs: 900,
      tokensPerSecond: 42.5,
    };
    expect(metonaResponseMetaSchema.parse({ ...meta, perfStats })).toEqual({ ...meta, perfStats });
    expect(issuePaths(metonaResponseMetaSchema, { ...meta, perfStats: { tokensPerSecond: -1 } })).toEqual([
      'perfStats.tokensPerSecond',
    ]);
  });

  it('accepts the optional token kinds and rejects fractional or negative counts', () => {
    const usage = {
      inputTokens: 10,
      outputTokens: 5,
      totalTokens: 15,
      reasoningTokens: 3,
      cacheHitTokens: 8,
    };
    expect(metonaTokenUsageSchema.parse(usage)).toEqual(usage);
    expect(issuePaths(metonaTokenUsageSchema, { ...usage, outputTokens: 2.5 })).toEqual(['outputTokens']);
    expect(issuePaths(metonaTokenUsageSchema, { ...usage, cacheMissTokens: -1 })).toEqual([
      'cacheMissTokens',
    ]);
  });
});

describe('MetonaThinking', () => {
  it('accepts both statuses and rejects others', () => {
    const thinking = { content: '让我先分析...', status: 'thinking', durationMs: 400, tokensUsed: 12 };
    expect(metonaThinkingSchema.parse(thinking)).toEqual(thinking);
    expect(metonaThinkingSchema.safeParse({ ...thinking, status: 'complete' }).success).toBe(true);
    expect(issuePaths(metonaThinkingSchema, { ...thinking, status: 'done' })).toEqual(['status']);
    expect(issuePaths(metonaThinkingSchema, { ...thinking, tokensUsed: -1 })).toEqual(['tokensUsed']);
  });
});
