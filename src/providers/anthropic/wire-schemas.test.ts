import { describe, expect, it } from 'vitest';
import { anthropicEventSchema, parseAnthropicStreamData } from './wire-schemas';

const delta = (index: unknown, value: unknown) =>
  JSON.stringify({ type: 'content_block_delta', index, delta: value });

const payloads: Record<string, string> = {
  text: delta(0, { type: 'text_delta', text: 'Hi' }),
  thinking: delta(1, { type: 'thinking_delta', thinking: '想' }),
  'tool arguments': delta(2, { type: 'input_json_delta', partial_json: '{"a":' }),
  signature: delta(1, { type: 'signature_delta', signature: 'sig' }),
  'unknown delta type': delta(0, { type: 'citations_delta', citation: {} }),
  'text number': delta(0, { type: 'text_delta', text: 1 }),
  'thinking missing': delta(0, { type: 'thinking_delta' }),
  'index negative': delta(-1, { type: 'text_delta', text: 'x' }),
  'index fraction': delta(0.5, { type: 'text_delta', text: 'x' }),
  'index string': delta('0', { type: 'text_delta', text: 'x' }),
  'delta null': delta(0, null),
  'delta array': delta(0, []),
};

describe('parseAnthropicStreamData', () => {
  it.each(Object.entries(payloads))('gives the schema’s verdict for %s', (_, data) => {
    const fast = parseAnthropicStreamData(data);
    const reference = anthropicEventSchema.safeParse(JSON.parse(data));
    if (reference.success) {
      expect(fast.kind).toBe('event');
      // The fast path keeps unknown keys the schema strips; every key the schema keeps is the same.
      if (fast.kind === 'event') expect(fast.event).toMatchObject(reference.data);
    } else {
      expect(fast).toEqual({
        kind: 'invalid',
        message: `Unexpected content_block_delta event: ${reference.error.issues[0]?.message ?? 'invalid'}`,
      });
    }
  });
});
