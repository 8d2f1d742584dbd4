import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import sample from './__fixtures__/standard-stream.jsonl?raw';
import {
  MetonaStreamEventType,
  metonaStreamEventSchema,
  metonaStreamEventShapeSchema,
  type MetonaStreamEvent,
  type MetonaStreamEventOf,
  type MetonaTypedStreamEvent,
} from './index';

const issuePaths = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.path.join('.'));

const lines = sample.trim().split('\n');
const base = { requestId: 'r_1', sessionId: 's_1', iteration: 1, seq: 0, timestamp: 1719000000000 };

describe('stream sample of the standard (流式传输协议)', () => {
  it.each(lines.map((line, index) => [index, line] as const))('line %i parses unchanged', (_index, line) => {
    const json: unknown = JSON.parse(line);
    expect(metonaStreamEventSchema.parse(json)).toEqual(json);
    expect(metonaStreamEventShapeSchema.parse(json)).toEqual(json);
  });

  it('holds all eight lines in sequence order, ending with done', () => {
    const events = lines.map((line) => metonaStreamEventSchema.parse(JSON.parse(line)));
    expect(events.map((event) => event.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(events.at(-1)?.type).toBe('done');
  });
});

describe('MetonaStreamEvent per-type payload', () => {
  it.each([
    ['text_delta', 'delta'],
    ['reasoning_delta', 'delta'],
    ['tool_call_delta', 'toolCallDelta'],
    ['tool_call_complete', 'toolCall'],
    ['usage', 'usage'],
    ['error', 'error'],
  ])('%s without %s is rejected at that path', (type, field) => {
    expect(issuePaths(metonaStreamEventSchema, { type, ...base })).toEqual([field]);
  });

  it.each(['thinking_start', 'thinking_end', 'done'])('%s needs no payload', (type) => {
    expect(metonaStreamEventSchema.parse({ type, ...base })).toEqual({ type, ...base });
  });

  it('accepts tool call deltas and error events', () => {
    const first = { type: 'tool_call_delta', ...base, toolCallDelta: { index: 0, name: 'read_file' } };
    const next = { type: 'tool_call_delta', ...base, toolCallDelta: { index: 0, argsDelta: '{"file_' } };
    const error = {
      type: 'error',
      ...base,
      error: { code: 'network_timeout', message: 'timed out', retryable: true, retryAfterMs: 1000 },
    };
    for (const event of [first, next, error]) expect(metonaStreamEventSchema.parse(event)).toEqual(event);
  });

  it('rejects the tool_call_complete of example 2 as printed (no iteration, no timestamp)', () => {
    const toolCall = { id: 'tc_1', name: 'read_file', args: { file_path: '/home/user/data.csv' } };
    expect(issuePaths(metonaStreamEventSchema, { type: 'tool_call_complete', ...base, toolCall })).toEqual([
      'toolCall.iteration',
      'toolCall.timestamp',
    ]);
  });

  it('rejects an unknown type, a negative seq and a negative tool call index', () => {
    expect(metonaStreamEventSchema.safeParse({ type: 'text', ...base, delta: 'x' }).success).toBe(false);
    expect(issuePaths(metonaStreamEventSchema, { type: 'done', ...base, seq: -1 })).toEqual(['seq']);
    const badIndex = { type: 'tool_call_delta', ...base, toolCallDelta: { index: -1 } };
    expect(issuePaths(metonaStreamEventSchema, badIndex)).toEqual(['toolCallDelta.index']);
  });

  it('strips payload fields foreign to the type', () => {
    expect(metonaStreamEventSchema.parse({ type: 'done', ...base, delta: 'stray' })).toEqual({
      type: 'done',
      ...base,
    });
  });

  it('has exactly the standard event types', () => {
    expect(Object.values(MetonaStreamEventType).sort()).toEqual(
      [
        'text_delta',
        'reasoning_delta',
        'tool_call_delta',
        'tool_call_complete',
        'thinking_start',
        'thinking_end',
        'error',
        'done',
        'usage',
      ].sort(),
    );
  });

  it('types: narrowed events fit the flat interface and enum members equal their literals', () => {
    expectTypeOf<MetonaTypedStreamEvent>().toExtend<MetonaStreamEvent>();
    expectTypeOf<MetonaStreamEventOf<'text_delta'>['delta']>().toEqualTypeOf<string>();
    expectTypeOf<MetonaStreamEventOf<'done'>>().not.toHaveProperty('delta');
    expectTypeOf(MetonaStreamEventType.TEXT_DELTA).toEqualTypeOf<'text_delta'>();
    expectTypeOf<'usage'>().toExtend<MetonaStreamEvent['type']>();
  });
});
