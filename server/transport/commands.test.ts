import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

let agent: TestServer;
let client: TestClient;
beforeAll(async () => {
  agent = await startTestServer();
  client = await TestClient.connect(agent.url, TEST_KEY);
});
afterAll(async () => {
  await client.close();
  await agent.close();
});

const code = {
  filepath: 'example\\game.py',
  range: { start: { line: 33, character: 0 }, end: { line: 45, character: 41 } },
  text: 'def next_turn(p):\n    return (p + 1) % 2\n',
};
const range = code.range;

/** One request per command, as the protocol's examples have them. */
const requests: Record<string, Record<string, unknown>> = {
  exec_explain: { selected_text: code, visible_text: code },
  exec_docstring: { selected_text: code },
  exec_optimize: { selected_text: 'x = [i for i in range(10)]' },
  exec_fix: { selected_text: code },
  exec_unittest_recommend: {
    user_prompt: '',
    file_content: code.text,
    filepath: '\\example\\game.py',
    func_name: 'next_turn',
    func_location: range,
    func_symbols: [{ name: 'next_turn', kind: 'Function', range, children: [] }],
  },
  exec_unittest_code: { test_cases_str: '1. wraps to 0', function_name: 'next_turn' },
  exec_chat: { msg: 'hello' },
};
const ANSWER = 'Hello! How can I help you today?';
let nextId = 100;

describe('commands (request and reply shapes)', () => {
  it('list_model answers {request_id, models}', async () => {
    expect(await client.request({ cmd: 'list_model', request_id: 1 })).toEqual([
      { request_id: 1, models: ['local mock-1', 'mock-1'] },
    ]);
  });

  it.each(Object.keys(requests))('%s answers {request_id, msg} by default', async (cmd) => {
    const request_id = nextId++;
    const replies = await client.request({ cmd, request_id, model: 'mock-1', ...requests[cmd] });
    expect(replies).toEqual([{ request_id, msg: ANSWER }]);
  });

  it.each(Object.keys(requests))('%s streams ordered chunks ending with stream_finish', async (cmd) => {
    const request_id = `s-${nextId++}`;
    const replies = await client.request({
      cmd,
      request_id,
      model: 'local mock-1',
      stream: true,
      ...requests[cmd],
    });
    expect(replies.map((r) => r.stream_seq_id)).toEqual([0, 1, 2, 3, 4]);
    expect(replies.slice(0, -1).every((r) => r.stream_finish === false)).toBe(true);
    expect(replies.at(-1)).toEqual({ request_id, msg: '', stream_seq_id: 4, stream_finish: true });
    expect(replies.map((r) => r.msg).join('')).toBe(ANSWER);
  });

  it('builds the prompt from the command and language', async () => {
    const before = agent.adapter.calls.length;
    await client.request({
      cmd: 'exec_explain',
      request_id: nextId++,
      model: 'mock-1',
      language: 'zh',
      ...requests.exec_explain,
    });
    const sent = agent.adapter.calls[before]!.request;
    expect(sent.systemPrompt.outputConstraints).toContain('请用简体中文回答');
    expect(sent.messages[0]!.content).toContain('选中的代码 (`example/game.py`, 行 33:0-45:41)');
    expect(sent.messages[0]!.content).toContain('def next_turn(p):');
  });

  it('exec_unittest_code without a model runs on the default model', async () => {
    const request_id = nextId++;
    expect(await client.request({ cmd: 'exec_unittest_code', request_id, test_cases_str: '1. a' })).toEqual([
      { request_id, msg: ANSWER },
    ]);
  });

  it('an unknown model is a failure reply', async () => {
    expect(await client.request({ cmd: 'exec_chat', request_id: 7, model: 'gpt-9', msg: 'hi' })).toEqual([
      { request_id: 7, error: 'model_not_found: gpt-9' },
    ]);
  });

  it('a provider error keeps its IR code', async () => {
    const replies = await client.request({
      cmd: 'exec_chat',
      request_id: 8,
      model: 'mock-1',
      msg: '/scenario http-429',
    });
    expect(replies).toHaveLength(1);
    expect(replies[0]!.error).toMatch(/^rate_limited: /);
  });

  it('a stream that fails ends with an error reply, not with stream_finish', async () => {
    const replies = await client.request({
      cmd: 'exec_chat',
      request_id: 9,
      model: 'mock-1',
      stream: true,
      msg: '/scenario stream-cut',
    });
    expect(replies.at(-1)).toHaveProperty('error');
    expect(replies.some((r) => r.stream_finish === true)).toBe(false);
  });
});
