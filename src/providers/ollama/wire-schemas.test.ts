import { describe, expect, it } from 'vitest';
import {
  ollamaChunkSchema,
  ollamaErrorBodySchema,
  parseOllamaLine,
  type OllamaStreamItem,
} from './wire-schemas';

/** What the schemas alone say about a line: the verdict the fast path must never change. */
function bySchemas(value: unknown): OllamaStreamItem {
  const error = ollamaErrorBodySchema.safeParse(value);
  if (error.success) return { kind: 'error', message: error.data.error };
  const chunk = ollamaChunkSchema.safeParse(value);
  if (chunk.success) return { kind: 'chunk', chunk: chunk.data };
  return {
    kind: 'invalid',
    message: `Unexpected stream line: ${chunk.error.issues[0]?.message ?? 'invalid'}`,
  };
}

const base = { model: 'qwen3:8b', created_at: '2025-06-26T08:52:19Z' };
const lines: Record<string, unknown> = {
  text: { ...base, message: { role: 'assistant', content: 'Hi' }, done: false },
  thinking: { ...base, message: { role: 'assistant', content: '', thinking: '想' }, done: false },
  'no message': { ...base, done: false },
  'done line': { ...base, message: { role: 'assistant', content: '' }, done: true, eval_count: 3 },
  'tool call': {
    ...base,
    message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: {} } }] },
    done: false,
  },
  'tool call without name': { ...base, message: { tool_calls: [{ function: {} }] }, done: false },
  error: { error: 'model "x" not found' },
  'error beside a chunk': { ...base, error: 'oom', done: false },
  'done missing': { ...base, message: { content: 'x' } },
  'done string': { ...base, message: { content: 'x' }, done: 'false' },
  'content number': { ...base, message: { content: 1 }, done: false },
  'message array': { ...base, message: [], done: false },
  'negative duration': { ...base, done: false, eval_duration: -1 },
  'model number': { model: 1, done: false },
  array: [base],
  null: null,
};

describe('parseOllamaLine', () => {
  it.each(Object.entries(lines))('gives the schemas’ verdict for %s', (_, value) => {
    const fast = parseOllamaLine(value);
    const reference = bySchemas(value);
    expect(fast.kind).toBe(reference.kind);
    if (fast.kind === 'chunk') {
      expect(ollamaChunkSchema.parse(fast.chunk)).toEqual(reference.kind === 'chunk' && reference.chunk);
    } else {
      expect(fast).toEqual(reference);
    }
  });
});
