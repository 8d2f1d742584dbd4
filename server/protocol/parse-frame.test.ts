import { describe, expect, it } from 'vitest';
import { parseFrame, salvageRequestId } from './parse-frame';

const explain = {
  cmd: 'exec_explain',
  request_id: 123,
  selected_text: {
    filepath: 'example\\game.py',
    range: { start: { line: 33, character: 0 }, end: { line: 45, character: 41 } },
    text: 'def f(): pass',
  },
  visible_text: { filepath: 'example\\game.py', text: 'def f(): pass\n' },
  model: 'local deepseek-r1:32b',
};

describe('parseFrame', () => {
  it('applies the protocol defaults: language en, stream false', () => {
    const parsed = parseFrame(JSON.stringify(explain));
    expect(parsed).toMatchObject({ kind: 'command', command: { language: 'en', stream: false } });
  });

  it('accepts selected_text as a bare string (§2.5, §2.6) and strips unknown fields', () => {
    const parsed = parseFrame(
      JSON.stringify({ cmd: 'exec_fix', request_id: 'r1', selected_text: 'x = 1', model: 'm', task_id: 7 }),
    );
    expect(parsed).toEqual({
      kind: 'command',
      command: {
        cmd: 'exec_fix',
        request_id: 'r1',
        selected_text: { filepath: '', text: 'x = 1' },
        model: 'm',
        language: 'en',
        stream: false,
      },
    });
  });

  it('lets exec_unittest_code go without a model (the protocol lists none)', () => {
    const parsed = parseFrame(
      JSON.stringify({ cmd: 'exec_unittest_code', request_id: 1, test_cases_str: '1. a' }),
    );
    expect(parsed).toMatchObject({ kind: 'command', command: { function_name: '' } });
    expect(parsed.kind === 'command' && 'model' in parsed.command && parsed.command.model).toBeFalsy();
  });

  it.each([
    ['not json {', 'invalid_json', null],
    ['{"request_id": 5, "cmd": ', 'invalid_json', 5],
    ['[1,2]', 'invalid_request: a request is a JSON object', null],
    ['{"request_id": 9}', 'invalid_request: cmd is required', 9],
    ['{"request_id": "a", "cmd": "exec_nope"}', 'unknown_cmd: exec_nope', 'a'],
    ['{"request_id": 1, "cmd": "toString"}', 'unknown_cmd: toString', 1],
    ['{"cmd": "list_model"}', 'invalid_request: request_id: Invalid input', null],
    ['{"request_id": 2, "cmd": "exec_chat", "model": "m"}', 'invalid_request: msg:', 2],
    [
      '{"request_id": 3, "cmd": "exec_chat", "model": "m", "msg": "hi", "language": "fr"}',
      'invalid_request: language:',
      3,
    ],
  ])('refuses %s', (frame, error, requestId) => {
    const parsed = parseFrame(frame);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind !== 'invalid') return;
    expect(parsed.error.startsWith(error)).toBe(true);
    expect(parsed.requestId).toBe(requestId);
  });

  it('reads IDE call-back answers, which carry callback_id and no cmd', () => {
    expect(parseFrame('{"callback_id": "cb-1", "result": []}')).toEqual({
      kind: 'callback_answer',
      answer: { callback_id: 'cb-1', result: [] },
    });
  });

  it('survives a symbol tree nested far too deep', () => {
    // Built as text: JSON.stringify itself overflows on such a tree.
    const depth = 50_000;
    const symbol =
      '{"name":"x","kind":"F","children":['.repeat(depth) + '{"name":"x","kind":"V"}' + ']}'.repeat(depth);
    const frame =
      '{"cmd":"exec_unittest_recommend","request_id":4,"file_content":"","filepath":"a.py","func_name":"f",' +
      `"func_location":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},"model":"m","func_symbols":[${symbol}]}`;
    const parsed = parseFrame(frame);
    // Either outcome is fine; throwing is not.
    expect(['command', 'invalid']).toContain(parsed.kind);
  });
});

describe('request_id digits', () => {
  it.each(['1234567890123456789', '-4962768465676381896', '9007199254740993'])(
    'keeps %s as sent in commands and refusals',
    (digits) => {
      expect(parseFrame(`{"request_id":${digits},"cmd":"list_model"}`)).toEqual({
        kind: 'command',
        command: { cmd: 'list_model', request_id: { raw: digits } },
      });
      expect(parseFrame(`{"request_id":${digits},"cmd":"exec_chat","model":"m"}`)).toMatchObject({
        kind: 'invalid',
        requestId: { raw: digits },
      });
      expect(parseFrame(`{"request_id":${digits},"cmd":"list_model"`)).toMatchObject({
        kind: 'invalid',
        requestId: { raw: digits },
      });
    },
  );

  it('leaves ordinary ids as they were', () => {
    expect(parseFrame('{"request_id":123,"cmd":"list_model"}')).toMatchObject({
      command: { request_id: 123 },
    });
    expect(parseFrame('{"request_id":"123","cmd":"list_model"}')).toMatchObject({
      command: { request_id: '123' },
    });
  });
});

describe('empty fields', () => {
  it('accepts "" where the protocol’s examples show it: test_cases_str, selected_text', () => {
    expect(
      parseFrame(
        '{"request_id":1,"cmd":"exec_unittest_code","test_cases_str":"","function_name":"next_turn"}',
      ),
    ).toMatchObject({ kind: 'command', command: { test_cases_str: '' } });
    expect(parseFrame('{"request_id":2,"cmd":"exec_fix","selected_text":"","model":"m"}')).toMatchObject({
      kind: 'command',
    });
  });

  it('refuses, and says why, a chat message with nothing in it, or unit tests for nothing', () => {
    expect(parseFrame('{"request_id":3,"cmd":"exec_chat","msg":" ","model":"m"}')).toEqual({
      kind: 'invalid',
      requestId: 3,
      cmd: 'exec_chat',
      error: 'invalid_request: msg: empty: there is nothing to ask the model',
    });
    expect(parseFrame('{"request_id":4,"cmd":"exec_unittest_code","test_cases_str":""}')).toMatchObject({
      kind: 'invalid',
      error:
        'invalid_request: test_cases_str: empty, and neither function_name nor relevant_content says what to test',
    });
  });
});

describe('salvageRequestId', () => {
  it('finds numbers and strings near the start of a broken frame', () => {
    expect(salvageRequestId('{"cmd":"x","request_id": 42, "selected_text": {"te')).toBe(42);
    expect(salvageRequestId('{"request_id":"abc\\"d","cm')).toBe('abc"d');
    expect(salvageRequestId('garbage')).toBeNull();
  });
});
