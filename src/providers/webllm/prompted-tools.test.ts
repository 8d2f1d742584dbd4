import { describe, expect, it } from 'vitest';
import type { MetonaToolDef } from '../../ir';
import {
  PromptedToolCallStream,
  describeToolsForPrompt,
  parsePromptedToolCalls,
  renderPromptedToolCall,
  type PromptedToolParse,
} from './prompted-tools';

const names = ['get_weather', 'get_time', 'search_notes'];
const weather = { name: 'get_weather', args: { city: 'Paris' } };

const tool = (
  name: string,
  properties: MetonaToolDef['parameters']['properties'],
  required?: string[],
): MetonaToolDef => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties, ...(required && { required }) },
  category: 'custom',
  riskLevel: 'safe',
  requiresPermission: false,
  timeoutMs: 1000,
});

describe('prompt-described tools', () => {
  it('describes tools, their parameters and the call format', () => {
    const prompt = describeToolsForPrompt([
      tool(
        'get_weather',
        {
          city: { type: 'string', description: 'City name' },
          unit: { type: 'string', description: 'Unit', enum: ['celsius', 'fahrenheit'] },
          days: { type: 'number', description: 'Days ahead' },
        },
        ['city'],
      ),
      tool('list_tags', {}),
    ]);
    expect(prompt).toContain('- get_weather: The get_weather tool.');
    expect(prompt).toContain('- city (required): string — City name');
    expect(prompt).toContain('(one of: "celsius", "fahrenheit")');
    expect(prompt).toContain('- list_tags: The list_tags tool.\n    (no parameters)');
    expect(prompt).toContain(
      '<tool_call>{"name":"get_weather","arguments":{"city":"<city>","unit":"<unit>"}}</tool_call>',
    );
  });

  it('renders earlier calls in the format it asks for, and reads them back', () => {
    const rendered = renderPromptedToolCall(weather);
    expect(parsePromptedToolCalls(rendered, names)).toEqual({ text: '', calls: [weather], errors: [] });
  });
});

describe('parsePromptedToolCalls', () => {
  const calls = (text: string) => parsePromptedToolCalls(text, names);

  it.each([
    ['a tag', '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>'],
    [
      'a tag with newlines',
      '<tool_call>\n{"name": "get_weather",\n "arguments": {"city": "Paris"}}\n</tool_call>',
    ],
    ['an unclosed tag', '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}'],
    [
      'a tag missing a closing brace',
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}</tool_call>',
    ],
    [
      'a pipe-style tag',
      '<|tool_call|>{"name": "get_weather", "arguments": {"city": "Paris"}}<|/tool_call|>',
    ],
    [
      'a fence inside a tag',
      '<tool_call>```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```</tool_call>',
    ],
    ['a json fence', 'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```'],
    ['a bare fence', '```\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```'],
    ['a bare object', '{"name": "get_weather", "arguments": {"city": "Paris"}}'],
    ['a bare list', '[{"name": "get_weather", "arguments": {"city": "Paris"}}]'],
    ['single quotes and a trailing comma', "{'name': 'get_weather', 'arguments': {'city': 'Paris',},}"],
    ['arguments as a JSON string', '{"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}'],
    ['"parameters"', '{"name": "get_weather", "parameters": {"city": "Paris"}}'],
    ['"tool" and "args"', '{"tool": "get_weather", "args": {"city": "Paris"}}'],
    [
      'OpenAI function shape',
      '{"type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\":\\"Paris\\"}"}}',
    ],
    [
      'a tool_calls list',
      '{"tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}',
    ],
    ['LangChain action', '{"action": "get_weather", "action_input": {"city": "Paris"}}'],
    ['flat arguments', '{"name": "get_weather", "city": "Paris"}'],
    ['the tool name as key', '{"get_weather": {"city": "Paris"}}'],
  ])('reads %s', (_, text) => {
    const parsed = calls(text);
    expect(parsed.calls).toEqual([weather]);
    expect(parsed.errors).toEqual([]);
  });

  it('keeps the text around calls and finds several', () => {
    const parsed = calls(
      'Let me check both.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n' +
        '<tool_call>{"name": "get_time", "arguments": {"timezone": "Europe/Paris"}}</tool_call>\nOne moment.',
    );
    expect(parsed.calls).toEqual([weather, { name: 'get_time', args: { timezone: 'Europe/Paris' } }]);
    expect(parsed.text).toBe('Let me check both.\n\nOne moment.');
  });

  it('leaves JSON that names no offered tool as text', () => {
    for (const text of [
      'Here is the data: {"name": "Alice", "age": 30}',
      '```json\n{"name": "format_disk", "arguments": {}}\n```',
      '[1, 2, 3]',
      'Use {braces} like this.',
      '```python\nprint({"name": "get_weather"})\n```',
    ]) {
      expect(calls(text), text).toEqual({ text, calls: [], errors: [] });
    }
  });

  it('accepts any name in a tag (the agent rejects unknown tools) but reports unreadable tags', () => {
    expect(calls('<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>').calls).toEqual([
      { name: 'delete_everything', args: {} },
    ]);
    const broken = calls('<tool_call>{"name": "get_weather", "arguments": {"city": Paris"}}</tool_call>');
    expect(broken.calls).toEqual([]);
    expect(broken.errors[0]).toMatch(/could not be read/);
    expect(calls('<tool_call>{"arguments": {"city": "Paris"}}</tool_call>').errors[0]).toMatch(
      /no tool name/,
    );
    expect(calls('<tool_call>{"name": "get_weather", "arguments": 42}</tool_call>').errors[0]).toMatch(
      /not a JSON object/,
    );
  });

  it('reads Chinese arguments', () => {
    expect(
      calls('<tool_call>{"name": "search_notes", "arguments": {"query": "会议纪要"}}</tool_call>').calls,
    ).toEqual([{ name: 'search_notes', args: { query: '会议纪要' } }]);
  });
});

/** Feeds `text` split at the given cut points and joins what comes out. */
function stream(text: string, cuts: number[]): { shown: string; end: PromptedToolParse } {
  const parser = new PromptedToolCallStream(names);
  let shown = '';
  let at = 0;
  for (const cut of [...cuts, text.length]) {
    shown += parser.push(text.slice(at, cut));
    at = cut;
  }
  return { shown, end: parser.finish() };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('PromptedToolCallStream', () => {
  const samples = [
    'Plain answer with no calls at all. 没有工具调用。',
    'Checking.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
    '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>\n<tool_call>{"name": "get_time", "arguments": {"timezone": "UTC"}}</tool_call>',
    'Here:\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```\nDone.',
    '{"name": "get_weather", "arguments": {"city": "Paris"}}',
    'Code:\n```python\nx = {"a": 1}\nprint(x)\n```\nThat is all.',
    'A list:\n[link](http://x) and {"name": "Bob"} inline.\n[ {"name": "get_time", "arguments": {}} ]',
  ];

  it('ends with the same calls and text as parsing the whole answer, at every single cut', () => {
    for (const text of samples) {
      const whole = parsePromptedToolCalls(text, names);
      for (let cut = 0; cut <= text.length; cut++) {
        const { shown, end } = stream(text, [cut]);
        expect(end.calls, `${text} @${cut}`).toEqual(whole.calls);
        expect(end.errors).toEqual(whole.errors);
        if (whole.calls.length === 0) expect(shown + end.text, `${text} @${cut}`).toBe(text);
      }
    }
  });

  it('survives random chunkings', () => {
    const random = seeded(7);
    for (const text of samples) {
      const whole = parsePromptedToolCalls(text, names);
      for (let round = 0; round < 50; round++) {
        const cuts = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
          Math.floor(random() * text.length),
        ).sort((a, b) => a - b);
        const { shown, end } = stream(text, cuts);
        expect(end.calls).toEqual(whole.calls);
        if (whole.calls.length === 0) expect(shown + end.text).toBe(text);
        else expect(shown).not.toContain('<tool_call>');
      }
    }
  });

  it('streams ordinary text at once and holds back from a possible call', () => {
    const parser = new PromptedToolCallStream(names);
    expect(parser.push('Let me look that up. ')).toBe('Let me look that up. ');
    expect(parser.push('<tool_')).toBe('');
    expect(parser.push('call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>')).toBe('');
    expect(parser.finish()).toEqual({ text: '', calls: [weather], errors: [] });
  });

  it('streams a code fence in another language instead of holding it back', () => {
    const parser = new PromptedToolCallStream(names);
    expect(parser.push('Example:\n```python\n')).toBe('Example:\n```python\n');
    expect(parser.push('{"a": 1}\n')).toBe('{"a": 1}\n');
    expect(parser.push('```\nEnd.')).toBe('```\nEnd.');
    expect(parser.finish().text).toBe('');
  });
});
