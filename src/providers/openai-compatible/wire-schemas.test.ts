import { describe, expect, it } from 'vitest';
import {
  openAIChunkSchema,
  openAIErrorBodySchema,
  parseOpenAIStreamData,
  type OpenAIStreamItem,
} from './wire-schemas';

/** What the schemas alone say about a payload: the verdict the fast path must never change. */
function bySchemas(data: string): OpenAIStreamItem {
  const value: unknown = JSON.parse(data);
  const error = openAIErrorBodySchema.safeParse(value);
  if (error.success) return { kind: 'error', body: error.data };
  const chunk = openAIChunkSchema.safeParse(value);
  if (chunk.success) return { kind: 'chunk', chunk: chunk.data };
  return {
    kind: 'invalid',
    message: `Unexpected stream chunk: ${chunk.error.issues[0]?.message ?? 'invalid'}`,
  };
}

const envelope = { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const withDelta = (delta: unknown, extra: object = {}) =>
  JSON.stringify({ ...envelope, choices: [{ index: 0, delta, finish_reason: null, ...extra }] });

const payloads: Record<string, string> = {
  text: withDelta({ content: 'Hi' }),
  role: withDelta({ role: 'assistant', content: '' }),
  reasoning: withDelta({ reasoning_content: '想' }),
  'tool call': withDelta({
    tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{' } }],
  }),
  finish: withDelta({}, { finish_reason: 'stop' }),
  'no choices': JSON.stringify({ ...envelope, choices: [] }),
  usage: JSON.stringify({ ...envelope, choices: [], usage: { prompt_tokens: 1, completion_tokens: 2 } }),
  'bad usage': JSON.stringify({
    ...envelope,
    choices: [],
    usage: { prompt_tokens: -1, completion_tokens: 2 },
  }),
  'error body': JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: 529 } }),
  'error null': JSON.stringify({ ...envelope, error: null, choices: [] }),
  'error string': JSON.stringify({ error: 'boom' }),
  'content number': withDelta({ content: 5 }),
  'delta string': withDelta('hi'),
  'delta array': withDelta([]),
  'index negative': JSON.stringify({ ...envelope, choices: [{ index: -1, delta: { content: 'x' } }] }),
  'index fraction': JSON.stringify({ ...envelope, choices: [{ index: 0.5, delta: { content: 'x' } }] }),
  'choices object': JSON.stringify({ ...envelope, choices: { 0: {} } }),
  'choice null': JSON.stringify({ ...envelope, choices: [null] }),
  'tool_calls object': withDelta({ tool_calls: { index: 0 } }),
  'tool call name number': withDelta({ tool_calls: [{ index: 0, function: { name: 1 } }] }),
  'tool call index string': withDelta({ tool_calls: [{ index: '0', function: { arguments: '' } }] }),
  'finish_reason number': withDelta({}, { finish_reason: 1 }),
  'model number': JSON.stringify({ ...envelope, model: 3, choices: [] }),
  'top-level array': JSON.stringify([envelope]),
  'top-level null': 'null',
  'top-level string': '"text"',
};

describe('parseOpenAIStreamData', () => {
  it.each(Object.entries(payloads))('gives the schemas’ verdict for %s', (_, data) => {
    const fast = parseOpenAIStreamData(data);
    const reference = bySchemas(data);
    expect(fast.kind).toBe(reference.kind);
    if (fast.kind === 'chunk') {
      // The fast path keeps unknown keys the schema strips; what the converter reads is the same.
      expect(openAIChunkSchema.parse(fast.chunk)).toEqual(reference.kind === 'chunk' && reference.chunk);
    } else {
      expect(fast).toEqual(reference);
    }
  });

  it('reads [DONE] with surrounding white space and reports text that is not JSON', () => {
    expect(parseOpenAIStreamData(' [DONE] ')).toEqual({ kind: 'done' });
    expect(parseOpenAIStreamData('{"choices": [')).toMatchObject({ kind: 'invalid' });
  });
});
