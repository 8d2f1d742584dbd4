import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient, type Frame } from '../testing/test-client';

let agent: TestServer;
let patient: TestServer;
beforeAll(async () => {
  agent = await startTestServer({ config: { callbackTimeoutMs: 300 } });
  // A time-out far beyond the test's own: a reply proves nobody waited for it.
  patient = await startTestServer({ config: { callbackTimeoutMs: 600_000 } });
});
afterAll(() => Promise.all([agent.close(), patient.close()]));

/** A plugin that declared it answers call-backs (query parameter). */
const withCallbacks = (server: TestServer) => TestClient.connect(`${server.url}?ide_callbacks=1`, TEST_KEY);

const range = (line: number) => ({ start: { line, character: 4 }, end: { line, character: 9 } });
const request = (request_id: number) => ({
  cmd: 'exec_unittest_code',
  request_id,
  model: 'mock-1',
  test_cases_str: '1. wraps around',
  function_name: 'next_turn',
  file_path: 'src/game.py',
});

/** The plugin side of §3: answers every call-back the agent sends with `answer`. */
function answerCallbacks(client: TestClient, answer: (frame: Frame) => object | undefined): Frame[] {
  const seen: Frame[] = [];
  client.socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    if (!frame.callback_id || !frame.cmd) return;
    seen.push(frame);
    const body = answer(frame);
    if (body) client.send({ callback_id: frame.callback_id, ...body });
  });
  return seen;
}

const lastPrompt = (server: TestServer = agent) => server.adapter.calls.at(-1)!.request.messages[0]!.content;

describe('IDE call-backs are opt-in per connection', () => {
  it('a plugin that did not declare them gets exec_unittest_code answered at once, without call-backs', async () => {
    const client = await TestClient.connect(patient.url, TEST_KEY);
    const seen = answerCallbacks(client, () => ({ result: [] }));
    const replies = await client.request(request(10));
    expect(replies).toEqual([{ request_id: 10, msg: 'Hello! How can I help you today?' }]);
    expect(seen).toEqual([]);
    expect(client.frames.some((frame) => 'callback_id' in frame)).toBe(false);
    expect(patient.adapter.calls.at(-1)!.request.messages[0]!.content).not.toContain('Context from the IDE');
    await client.close();
  });

  it('the header X-Agent-Capabilities: ide_callbacks declares them too', async () => {
    const client = await TestClient.connect(patient.url, TEST_KEY, {
      headers: { 'X-Agent-Capabilities': 'streaming, ide_callbacks' },
    });
    const seen = answerCallbacks(client, () => ({ error: 'not supported' }));
    const replies = await client.request(request(11));
    expect(replies[0]).toHaveProperty('msg');
    expect(seen.map((frame) => frame.cmd)).toEqual(['get_document_symbols']);
    await client.close();
  });

  it('other values of the query parameter do not declare them', async () => {
    const client = await TestClient.connect(`${patient.url}?ide_callbacks=0`, TEST_KEY);
    const seen = answerCallbacks(client, () => ({ result: [] }));
    expect((await client.request(request(12)))[0]).toHaveProperty('msg');
    expect(seen).toEqual([]);
    await client.close();
  });
});

describe('IDE call-backs during exec_unittest_code (declared)', () => {
  it('asks the plugin over the same socket and puts the answers into the prompt', async () => {
    // The patient server: with the 300 ms one, answers that a busy machine delays past the
    // time-out were dropped and the prompt lacked them (seen once in a unit run at load 9).
    const client = await withCallbacks(patient);
    const seen = answerCallbacks(client, (frame) => {
      if (frame.cmd === 'get_document_symbols') {
        return {
          result: [
            {
              name: 'next_turn',
              kind: 'Function',
              range: range(3),
              children: [{ name: 'board', kind: 'Variable', range: range(4) }],
            },
          ],
        };
      }
      return {
        result: frame.cmd === 'find_def_locations' ? [{ abspath: '/p/src/board.py', range: range(7) }] : [],
      };
    });
    const replies = await client.request(request(1));
    expect(replies).toEqual([{ request_id: 1, msg: 'Hello! How can I help you today?' }]);
    expect(seen[0]).toEqual({
      callback_id: expect.stringMatching(/^cb-/),
      task_request_id: 1,
      cmd: 'get_document_symbols',
      abspath: 'src/game.py',
    });
    expect(
      seen
        .slice(1)
        .map((f) => [f.cmd, f.line, f.character])
        .sort(),
    ).toEqual([
      ['find_def_locations', 4, 4],
      ['find_type_def_locations', 4, 4],
    ]);
    expect(new Set(seen.map((f) => f.callback_id)).size).toBe(3);
    expect(lastPrompt(patient)).toContain(
      'Context from the IDE:\nOutline of `src/game.py`:\n- next_turn (Function)',
    );
    expect(lastPrompt(patient)).toContain('- board (Variable): defined at /p/src/board.py 7:4-7:9');
    await client.close();
  });

  it('degrades when the plugin does not answer: waits one time-out, then runs without IDE context', async () => {
    const client = await withCallbacks(agent);
    const seen = answerCallbacks(client, () => undefined);
    const replies = await client.request(request(2));
    expect(replies).toEqual([{ request_id: 2, msg: 'Hello! How can I help you today?' }]);
    expect(seen.map((f) => f.cmd)).toEqual(['get_document_symbols']);
    expect(lastPrompt()).not.toContain('Context from the IDE');
    // A late answer is ignored, not an error.
    client.send({ callback_id: seen[0]!.callback_id, result: [] });
    expect((await client.request({ cmd: 'list_model', request_id: 3 }))[0]).toHaveProperty('models');
    await client.close();
  });

  it('degrades at once when the plugin answers with an error', async () => {
    // A time-out longer than any test run: the reply can only come from the error answer.
    const patient = await startTestServer({ config: { callbackTimeoutMs: 3_600_000 } });
    const client = await withCallbacks(patient);
    answerCallbacks(client, () => ({ error: 'not supported' }));
    const replies = await client.request(request(4));
    expect(replies[0]).toHaveProperty('msg');
    await client.close();
    await patient.close();
  });
});
