import { describe, expect, it } from 'vitest';
import { placeholderOf, toolArgumentTemplate } from './tool-argument-template';

describe('the Try box starts with the tool’s required arguments', () => {
  it('names each required property with a value of its type', () => {
    const schema = {
      type: 'object',
      properties: {
        text: { type: 'string' },
        count: { type: 'integer', minimum: 1 },
        ratio: { type: 'number' },
        strict: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        unit: { type: 'string', enum: ['words', 'characters'] },
        optional: { type: 'string' },
      },
      required: ['text', 'count', 'ratio', 'strict', 'tags', 'unit'],
    };
    expect(JSON.parse(toolArgumentTemplate(schema))).toEqual({
      text: '',
      count: 1,
      ratio: 0,
      strict: false,
      tags: [],
      unit: 'words',
    });
  });

  it('keeps `{}` for a schema without required properties', () => {
    expect(toolArgumentTemplate({ type: 'object', properties: { a: { type: 'string' } } })).toBe('{}');
    expect(toolArgumentTemplate({})).toBe('{}');
  });

  it('prefers a default, then an example, and fills a nested object’s required properties', () => {
    expect(placeholderOf({ type: 'string', default: 'hello' })).toBe('hello');
    expect(placeholderOf({ type: 'string', examples: ['信号'] })).toBe('信号');
    expect(placeholderOf({ type: ['null', 'integer'] })).toBe(0);
    expect(
      placeholderOf({ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }),
    ).toEqual({ id: '' });
  });
});
