import { describe, expect, it } from 'vitest';
import { parseLenientJson, parseLenientJsonAt } from './lenient-json';

const value = (text: string, autoClose = false) => {
  const result = parseLenientJson(text, { autoClose });
  if (!result.ok) throw new Error(result.reason);
  return result.value;
};

describe('lenient JSON', () => {
  it('reads strict JSON exactly as JSON.parse does', () => {
    const samples = ['{"a":1,"b":[true,false,null],"c":{"d":"e\\n\\u00e9"}}', '[1, -2.5e3, "x"]', '"s"', '0'];
    for (const sample of samples) expect(value(sample)).toEqual(JSON.parse(sample));
  });

  it.each([
    ['trailing commas', '{"a": 1, "b": [1, 2,],}', { a: 1, b: [1, 2] }],
    ['single quotes', "{'city': 'Paris', 'n': 2}", { city: 'Paris', n: 2 }],
    ['apostrophes inside single quotes', "{'q': 'it's fine'}", { q: "it's fine" }],
    ['curly quotes', '{“city”: “São Paulo”}', { city: 'São Paulo' }],
    ['unquoted keys', '{city: "Paris", unit_2: "c"}', { city: 'Paris', unit_2: 'c' }],
    ['Python literals', '{"a": True, "b": False, "c": None}', { a: true, b: false, c: null }],
    ['comments', '{"a": 1 /* one */, // two\n "b": 2}', { a: 1, b: 2 }],
    ['missing commas', '{"a": 1\n "b": 2}', { a: 1, b: 2 }],
    ['raw newlines in strings', '{"text": "line 1\nline 2"}', { text: 'line 1\nline 2' }],
    ['escaped quotes', '{"q": "say \\"hi\\""}', { q: 'say "hi"' }],
    ['leading plus and dot', '{"a": +1, "b": .5}', { a: 1, b: 0.5 }],
    ['Chinese text', '{"query": "明天的天气"}', { query: '明天的天气' }],
  ])('tolerates %s', (_, text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it('closes brackets left open at the end only when asked', () => {
    expect(parseLenientJson('{"name": "x", "arguments": {"a": 1}').ok).toBe(false);
    expect(value('{"name": "x", "arguments": {"a": 1}', true)).toEqual({ name: 'x', arguments: { a: 1 } });
    expect(value('[{"a": [1, 2', true)).toEqual([{ a: [1, 2] }]);
  });

  it('rejects what cannot be read', () => {
    for (const text of [
      '{"city": Paris"}',
      '{"a": }',
      '{"a" 1}',
      '"unterminated',
      '',
      'hello',
      '{"a": 1} trailing',
    ]) {
      expect(parseLenientJson(text).ok, text).toBe(false);
    }
  });

  it('reads a value inside a longer text and says where it ended', () => {
    const text = 'Call: {"name": "x"} then more';
    const result = parseLenientJsonAt(text, text.indexOf('{'));
    expect(result).toMatchObject({ ok: true, value: { name: 'x' } });
    expect(result.ok && text.slice(result.end)).toBe(' then more');
  });

  it('does not blow the stack on deep nesting', () => {
    expect(parseLenientJson('['.repeat(500) + ']'.repeat(500)).ok).toBe(false);
  });
});
