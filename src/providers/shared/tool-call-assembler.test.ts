import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, parseToolArguments } from './tool-call-assembler';

const assembler = () => new ToolCallAssembler({ provider: 'test', fallbackId: (i) => `call_${i}` });

describe('ToolCallAssembler', () => {
  it('assembles interleaved calls by index, arguments split mid-token', () => {
    const buffer = assembler();
    buffer.add({ index: 0, id: 'call_a', name: 'get_weather', argsDelta: '' });
    buffer.add({ index: 1, id: 'call_b', name: 'get_time' });
    buffer.add({ index: 0, argsDelta: '{"ci' });
    buffer.add({ index: 1, argsDelta: '{"zone":"Europe/Pa' });
    buffer.add({ index: 0, argsDelta: 'ty":"Pa' });
    buffer.add({ index: 1, argsDelta: 'ris"}' });
    buffer.add({ index: 0, argsDelta: 'ris"}' });
    expect(buffer.complete()).toEqual([
      { ok: true, call: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } } },
      { ok: true, call: { id: 'call_b', name: 'get_time', args: { zone: 'Europe/Paris' } } },
    ]);
    expect(buffer.size).toBe(0);
  });

  it('completes a single index and gives empty arguments as {} with a fallback id', () => {
    const buffer = assembler();
    buffer.add({ index: 3, name: 'list_notes' });
    buffer.add({ index: 4, name: 'other' });
    expect(buffer.complete(3)).toEqual([{ ok: true, call: { id: 'call_3', name: 'list_notes', args: {} } }]);
    expect(buffer.has(4)).toBe(true);
  });

  it('turns invalid or non-object JSON into parse_error, not a throw', () => {
    const buffer = assembler();
    buffer.add({ index: 0, id: 'x', name: 'broken', argsDelta: '{"city": Par' });
    buffer.add({ index: 1, id: 'y', name: 'array', argsDelta: '[1,2]' });
    buffer.add({ index: 2, argsDelta: '{}' });
    const [broken, array, nameless] = buffer.complete();
    expect(broken).toMatchObject({
      ok: false,
      error: { code: 'parse_error', retryable: false, provider: 'test' },
    });
    expect(array).toMatchObject({ ok: false, error: { code: 'parse_error' } });
    expect(nameless).toMatchObject({ ok: false, error: { code: 'parse_error' } });
  });

  it('parseToolArguments accepts only objects', () => {
    expect(parseToolArguments(' ')).toEqual({ ok: true, args: {} });
    expect(parseToolArguments('null').ok).toBe(false);
    expect(parseToolArguments('"s"').ok).toBe(false);
  });
});
