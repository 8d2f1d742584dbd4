import { describe, expect, it } from 'vitest';
import type { StreamPart } from './stream-parts';
import { WIRE_TOOL_NAME, createToolNameCodec, decodeToolNames } from './tool-names';

const codecOf = (...names: string[]) => createToolNameCodec(names.map((name) => ({ name })));

describe('createToolNameCodec', () => {
  it('encodes dots as __ and maps back exactly', () => {
    const codec = codecOf('notes.read', 'rag.search', 'plain_tool');
    expect(codec.toWire('notes.read')).toBe('notes__read');
    expect(codec.toWire('plain_tool')).toBe('plain_tool');
    for (const name of ['notes.read', 'rag.search', 'plain_tool']) {
      expect(codec.toWire(name)).toMatch(WIRE_TOOL_NAME);
      expect(codec.fromWire(codec.toWire(name))).toBe(name);
    }
  });

  it('keeps names unique: a.b vs a__b, in either order', () => {
    for (const names of [
      ['a.b', 'a__b'],
      ['a__b', 'a.b'],
    ]) {
      const codec = codecOf(...names);
      expect(codec.toWire('a__b')).toBe('a__b');
      expect(codec.toWire('a.b')).not.toBe('a__b');
      expect(codec.toWire('a.b')).toMatch(WIRE_TOOL_NAME);
      expect(codec.fromWire(codec.toWire('a.b'))).toBe('a.b');
      expect(codec.fromWire('a__b')).toBe('a__b');
    }
  });

  it('truncates long names to 64 with a hash suffix, distinct for distinct names', () => {
    const long1 = `ns.${'x'.repeat(80)}.one`;
    const long2 = `ns.${'x'.repeat(80)}.two`;
    const codec = codecOf(long1, long2);
    const [w1, w2] = [codec.toWire(long1), codec.toWire(long2)];
    expect(w1).toMatch(WIRE_TOOL_NAME);
    expect(w2).toMatch(WIRE_TOOL_NAME);
    expect(w1.length).toBeLessThanOrEqual(64);
    expect(w1).not.toBe(w2);
    expect(codec.fromWire(w1)).toBe(long1);
    expect(codec.fromWire(w2)).toBe(long2);
  });

  it('replaces unicode and other characters per code point, without collisions', () => {
    const codec = codecOf('notes.lire_é', 'notes.lire_ü', 'a b', 'emoji.🙂');
    const wires = ['notes.lire_é', 'notes.lire_ü', 'a b', 'emoji.🙂'].map((name) => codec.toWire(name));
    for (const wire of wires) expect(wire).toMatch(WIRE_TOOL_NAME);
    expect(new Set(wires).size).toBe(4);
    expect(codec.toWire('emoji.🙂')).toBe('emoji___');
    expect(wires.map((wire) => codec.fromWire(wire))).toEqual([
      'notes.lire_é',
      'notes.lire_ü',
      'a b',
      'emoji.🙂',
    ]);
  });

  it('passes unknown wire names through and encodes names outside the tool list', () => {
    const codec = codecOf('notes.read');
    expect(codec.fromWire('made_up')).toBe('made_up');
    expect(codec.fromWire('notes.read')).toBe('notes.read');
    const wire = codec.toWire('old.tool');
    expect(wire).toBe('old__tool');
    expect(codec.fromWire(wire)).toBe('old.tool');
  });

  it('decodes tool names in stream parts', async () => {
    const codec = codecOf('notes.read');
    async function* parts(): AsyncGenerator<StreamPart> {
      yield { type: 'tool_call_delta', toolCallDelta: { index: 0, name: 'notes__read' } };
      yield { type: 'tool_call_complete', toolCall: { id: 'c1', name: 'notes__read', args: {} } };
      yield { type: 'text_delta', delta: 'x' };
    }
    const out: StreamPart[] = [];
    for await (const part of decodeToolNames(parts(), codec)) out.push(part);
    expect(out).toEqual([
      { type: 'tool_call_delta', toolCallDelta: { index: 0, name: 'notes.read' } },
      { type: 'tool_call_complete', toolCall: { id: 'c1', name: 'notes.read', args: {} } },
      { type: 'text_delta', delta: 'x' },
    ]);
  });
});
