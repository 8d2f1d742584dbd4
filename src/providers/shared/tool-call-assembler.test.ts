import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, parseToolArguments, toolArgumentsError } from './tool-call-assembler';

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

  it('completes a call whose arguments are not a JSON object, with the text and reason for the model', () => {
    const buffer = assembler();
    buffer.add({ index: 0, id: 'x', name: 'notes__search', argsDelta: '{"query": "Alpha",' });
    buffer.add({ index: 0, argsDelta: ',' });
    buffer.add({ index: 1, id: 'y', name: 'array', argsDelta: '[1,2]' });
    const [broken, array] = buffer.complete();
    // A per-call fault, not an error of the whole response: the run can tell the model and go on.
    expect(broken).toMatchObject({
      ok: true,
      call: {
        id: 'x',
        name: 'notes__search',
        args: {},
        argumentsError: { text: '{"query": "Alpha",,' },
      },
    });
    expect(broken?.ok && toolArgumentsError(broken.call)?.reason).toMatch(/JSON|property|token/i);
    expect(array).toMatchObject({
      ok: true,
      call: { args: {}, argumentsError: { text: '[1,2]', reason: 'expected an object, got an array' } },
    });
  });

  it('a call without a name is still a parse_error of the response: nothing can answer it', () => {
    const buffer = assembler();
    buffer.add({ index: 2, argsDelta: '{}' });
    expect(buffer.complete()).toMatchObject([
      { ok: false, error: { code: 'parse_error', retryable: false, provider: 'test' } },
    ]);
  });

  it('cuts very long unreadable arguments', () => {
    const buffer = assembler();
    buffer.add({ index: 0, id: 'z', name: 'big', argsDelta: `{"text": "${'a'.repeat(5_000)}` });
    const [result] = buffer.complete();
    const text = result?.ok ? toolArgumentsError(result.call)?.text : undefined;
    expect(text?.length).toBeLessThan(2_100);
    expect(text?.endsWith('…')).toBe(true);
  });

  it('parseToolArguments accepts only objects', () => {
    expect(parseToolArguments(' ')).toEqual({ ok: true, args: {} });
    expect(parseToolArguments('null').ok).toBe(false);
    expect(parseToolArguments('"s"').ok).toBe(false);
  });
});
