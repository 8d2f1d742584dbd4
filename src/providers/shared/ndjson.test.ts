import { describe, expect, it } from 'vitest';
import { NdjsonDecoder, readNdjson } from './ndjson';

const encoder = new TextEncoder();

describe('NdjsonDecoder', () => {
  it('parses lines split at any byte, skips blank lines, keeps a last line without newline', () => {
    const text = '{"a":"é"}\r\n\n{"b":[1,2]}\n{"c":"末"}';
    const bytes = encoder.encode(text);
    for (let size = 1; size <= bytes.length; size++) {
      const decoder = new NdjsonDecoder();
      const items = [];
      for (let i = 0; i < bytes.length; i += size) items.push(...decoder.push(bytes.subarray(i, i + size)));
      items.push(...decoder.end());
      expect(items).toEqual([
        { ok: true, value: { a: 'é' } },
        { ok: true, value: { b: [1, 2] } },
        { ok: true, value: { c: '末' } },
      ]);
    }
  });

  it('reports a line that is not JSON instead of throwing', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"ok":1}\n{not json}\n'));
        controller.close();
      },
    });
    const items = [];
    for await (const item of readNdjson(body)) items.push(item);
    expect(items[0]).toEqual({ ok: true, value: { ok: 1 } });
    expect(items[1]).toMatchObject({ ok: false, line: '{not json}' });
  });
});
