import { describe, expect, it } from 'vitest';
import { SseDecoder, readSseEvents, type SseEvent } from './sse';

const encoder = new TextEncoder();

function decodeAll(chunks: Uint8Array[]): SseEvent[] {
  const decoder = new SseDecoder();
  return [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
}

/** Every way of cutting the bytes must give the same events. */
function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

describe('SseDecoder', () => {
  it('parses data, event and id fields and joins multi-line data with LF', () => {
    const events = decodeAll([
      encoder.encode('event: message_start\nid: 7\ndata: {"a":1,\ndata: "b":2}\n\ndata: second\n\n'),
    ]);
    expect(events).toEqual([
      { event: 'message_start', data: '{"a":1,\n"b":2}', id: '7' },
      { event: 'message', data: 'second', id: '7' },
    ]);
  });

  it('handles CRLF and lone CR line endings, also when CR and LF land in different chunks', () => {
    const text = 'data: one\r\n\r\ndata: two\r\rdata: three\n\n';
    for (let size = 1; size <= text.length; size++) {
      expect(decodeAll(splitEvery(encoder.encode(text), size)).map((e) => e.data)).toEqual([
        'one',
        'two',
        'three',
      ]);
    }
  });

  it('drops comments and heartbeats and tolerates a missing space after the colon', () => {
    const events = decodeAll([encoder.encode(': keep-alive\n\n:ping\ndata:{"x":1}\n\n')]);
    expect(events).toEqual([{ event: 'message', data: '{"x":1}' }]);
  });

  it('decodes a UTF-8 character split across chunks', () => {
    const bytes = encoder.encode('data: 你好🌍\n\n');
    // "data: " is 6 bytes; 你 spans 6..8 and 🌍 spans 12..15: split inside each.
    const chunks = [bytes.subarray(0, 7), bytes.subarray(7, 13), bytes.subarray(13)];
    expect(decodeAll(chunks)).toEqual([{ event: 'message', data: '你好🌍' }]);
    for (let size = 1; size < 5; size++) {
      expect(decodeAll(splitEvery(bytes, size))[0]?.data).toBe('你好🌍');
    }
  });

  it('does not dispatch an event cut off before its blank line', () => {
    expect(decodeAll([encoder.encode('data: whole\n\ndata: {"half":')])).toEqual([
      { event: 'message', data: 'whole' },
    ]);
  });

  it('reads a ReadableStream and cancels it when the consumer leaves early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: 1\n\ndata: 2\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSseEvents(body)) {
      expect(event.data).toBe('1');
      break;
    }
    await Promise.resolve();
    expect(cancelled).toBe(true);
  });
});
