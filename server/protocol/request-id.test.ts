import { describe, expect, it } from 'vitest';
import { encodeFrame, frameEnvelope, requestIdFromNumberText } from './request-id';
import { topLevelMembers } from './top-level-members';

// JVM plugins send Random.nextLong() ids; a JavaScript number would round them.
const JAVA_IDS = ['1234567890123456789', '-4962768465676381896', '9007199254740993'];

describe('request ids kept as sent', () => {
  it.each(JAVA_IDS)('writes %s back digit for digit', (digits) => {
    const id = requestIdFromNumberText(digits);
    expect(encodeFrame({ request_id: id, msg: 'ok' })).toBe(`{"request_id":${digits},"msg":"ok"}`);
    expect(encodeFrame({ callback_id: 'cb-1', task_request_id: id })).toBe(
      `{"callback_id":"cb-1","task_request_id":${digits}}`,
    );
  });

  it('keeps small ids plain numbers, and strings strings', () => {
    expect(requestIdFromNumberText('123')).toBe(123);
    expect(requestIdFromNumberText('-3')).toBe(-3);
    expect(requestIdFromNumberText('9007199254740991')).toBe(9007199254740991);
    expect(encodeFrame({ request_id: 123, error: 'cancelled' })).toBe(
      '{"request_id":123,"error":"cancelled"}',
    );
    expect(encodeFrame({ request_id: '9007199254740993', msg: '' })).toBe(
      '{"request_id":"9007199254740993","msg":""}',
    );
  });

  it('writes what JSON.stringify would for everything else', () => {
    const frame = {
      request_id: null,
      msg: 'a"\n\u2028',
      stream_seq_id: 0,
      stream_finish: false,
      gone: undefined,
    };
    expect(encodeFrame(frame)).toBe(JSON.stringify(frame));
  });

  it('refuses number text that is no JSON number, or too long', () => {
    expect(requestIdFromNumberText('12abc')).toBeNull();
    expect(requestIdFromNumberText('1'.repeat(201))).toBeNull();
  });
});

describe('topLevelMembers', () => {
  it('finds top-level members after big and nested fields, never nested ones', () => {
    const text =
      `{"cmd":"exec_chat","file_content":"${'x'.repeat(100_000)}\\"request_id\\": 1",` +
      `"func_symbols":[{"request_id":2,"children":[{"request_id":"3"}]}],"nested":{"request_id":4},` +
      `"request_id":1234567890123456789}`;
    expect(topLevelMembers(text, ['request_id', 'cmd'])).toEqual(
      new Map([
        ['cmd', '"exec_chat"'],
        ['request_id', '1234567890123456789'],
      ]),
    );
  });

  it('takes the last of duplicate members, as JSON.parse does, and reads escaped names', () => {
    expect(topLevelMembers('{"request_id":1, "request\\u005fid" : 2 }', ['request_id'])).toEqual(
      new Map([['request_id', '2']]),
    );
    expect(topLevelMembers('{"request_id":1,"request_id":{"a":1}}', ['request_id'])).toEqual(new Map());
  });

  it('reads what comes before the damage in broken or truncated frames', () => {
    expect(topLevelMembers('\ufeff {"request_id": 5, "cmd": "list_model"', ['request_id'])).toEqual(
      new Map([['request_id', '5']]),
    );
    expect(topLevelMembers('{"msg":"never closed, "request_id":5', ['request_id'])).toEqual(new Map());
    expect(topLevelMembers('[{"request_id":5}]', ['request_id'])).toEqual(new Map());
    expect(topLevelMembers('garbage', ['request_id'])).toEqual(new Map());
  });

  it('gets through pathological frames (quadratic scanning would not, in the test time)', () => {
    const backslashes = `{"msg":"${'\\\\'.repeat(200_000)}","request_id":7}`;
    const deep = `{"a":${'['.repeat(200_000)}${']'.repeat(200_000)},"request_id":8}`;
    const quotes = `{"msg":"${'\\"'.repeat(200_000)}","request_id":9}`;
    expect(topLevelMembers(backslashes, ['request_id']).get('request_id')).toBe('7');
    expect(topLevelMembers(deep, ['request_id']).get('request_id')).toBe('8');
    expect(topLevelMembers(quotes, ['request_id']).get('request_id')).toBe('9');
  });
});

describe('frameEnvelope', () => {
  it('names the request and the command of a frame it does not parse', () => {
    const sorted = `{"cmd":"exec_unittest_recommend","file_content":"${'x'.repeat(5000)}","model":"m","request_id":77}`;
    expect(frameEnvelope(sorted)).toEqual({ requestId: 77, cmd: 'exec_unittest_recommend' });
    expect(frameEnvelope('{"request_id":"abc\\"d","cm')).toEqual({ requestId: 'abc"d' });
    expect(frameEnvelope('{"request_id":-4962768465676381896}')).toEqual({
      requestId: { raw: '-4962768465676381896' },
    });
    expect(frameEnvelope('{"request_id":true,"cmd":5}')).toEqual({ requestId: null });
  });
});
