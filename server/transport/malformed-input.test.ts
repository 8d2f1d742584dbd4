import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/seeded-random';
import { TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

const MAX_FRAME = 16 * 1024;
let agent: TestServer;
beforeAll(async () => {
  agent = await startTestServer({
    config: { maxFrameBytes: MAX_FRAME, queue: { maxLength: 8, concurrency: 2 } },
  });
});
afterAll(() => agent.close());

async function stillServes(): Promise<void> {
  const client = await TestClient.connect(agent.url, TEST_KEY);
  const replies = await client.request({ cmd: 'exec_chat', request_id: 'alive', model: 'mock-1', msg: 'hi' });
  expect(replies).toEqual([{ request_id: 'alive', msg: 'Hello! How can I help you today?' }]);
  await client.close();
}

describe('malformed input', () => {
  it.each([
    [
      'broken JSON',
      '{"cmd": "exec_chat", "request_id": 11, "msg": "hi"',
      { request_id: 11, error: 'invalid_json' },
    ],
    ['not an object', '"hello"', { request_id: null, error: 'invalid_request: a request is a JSON object' }],
    [
      'an unknown cmd',
      '{"request_id": 12, "cmd": "exec_magic"}',
      { request_id: 12, error: 'unknown_cmd: exec_magic' },
    ],
    [
      'a missing field',
      '{"request_id": 13, "cmd": "exec_explain", "model": "mock-1", "selected_text": {"text": "x"}}',
      { request_id: 13, error: expect.stringMatching(/^invalid_request: visible_text:/) },
    ],
    [
      'a wrong type',
      '{"request_id": 14, "cmd": "exec_chat", "model": "mock-1", "msg": "hi", "stream": "yes"}',
      { request_id: 14, error: expect.stringMatching(/^invalid_request: stream:/) },
    ],
  ])('%s gets an error reply', async (_label, frame, expected) => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.send(frame);
    expect(await client.waitFor(() => true)).toEqual(expected);
    await client.close();
  });

  it('an oversized frame gets frame_too_large with its request_id; the connection stays open', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    const frame = JSON.stringify({
      request_id: 15,
      cmd: 'exec_chat',
      model: 'mock-1',
      msg: 'x'.repeat(MAX_FRAME),
    });
    client.send(frame);
    expect(await client.waitFor((f) => f.request_id === 15)).toEqual({
      request_id: 15,
      error: `frame_too_large: ${frame.length} bytes, the limit is ${MAX_FRAME}`,
    });
    expect((await client.request({ cmd: 'list_model', request_id: 16 }))[0]).toHaveProperty('models');
    await client.close();
  });

  it('a frame over the hard limit closes that socket with 1009 and nothing else', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.send('x'.repeat(MAX_FRAME * 4 + 1));
    expect((await client.closed).code).toBe(1009);
    await stillServes();
  });

  it('a text frame with invalid UTF-8 closes that socket with 1007', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await client.closed).code).toBe(1007);
    await stillServes();
  });

  it('binary frames are read as UTF-8 JSON', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.socket.send(Buffer.from(JSON.stringify({ cmd: 'list_model', request_id: 17 })), { binary: true });
    expect((await client.replies(17))[0]).toHaveProperty('models');
    await client.close();
  });
});

describe('fuzz', () => {
  it('1,200 random frames (seeded) get error replies and leave the server serving', async () => {
    const seed = 20_261_130;
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const int = (max: number) => Math.floor(random() * max);
    const randomText = (length: number) =>
      Array.from({ length }, () =>
        String.fromCharCode(pick([int(128), 0x4e00 + int(500), 0x7b, 0x22, 0x5b])),
      ).join('');
    const randomValue = (depth = 0): unknown =>
      pick([
        () => null,
        () => random() < 0.5,
        () => int(1e6) - 5e5,
        () => 1e308,
        () => randomText(int(20)),
        () => (depth > 3 ? [] : Array.from({ length: int(4) }, () => randomValue(depth + 1))),
        () => (depth > 3 ? {} : { [randomText(4)]: randomValue(depth + 1), text: randomValue(depth + 1) }),
      ])();
    const valid = () => ({
      cmd: pick(['exec_chat', 'exec_explain', 'exec_fix', 'list_model', 'exec_unittest_code']),
      request_id: int(1e6),
      model: pick(['mock-1', 'local mock-1', 'nope']),
      msg: 'hi',
      selected_text: { filepath: 'a.py', text: 'x = 1' },
      visible_text: 'x = 1',
      test_cases_str: '1. a',
      stream: random() < 0.5,
    });
    let mustFail = 0;
    const generators: (() => string | Buffer)[] = [
      () => (
        mustFail++,
        Buffer.from(Array.from({ length: 1 + int(200) }, () => int(256)).map((b) => (b === 0x7b ? 0 : b)))
      ),
      () => (mustFail++, `${randomText(1 + int(100))}{`),
      () => {
        mustFail++;
        const text = JSON.stringify(valid());
        return text.slice(0, int(text.length - 1));
      },
      () => {
        const frame: Record<string, unknown> = valid();
        const keys = Object.keys(frame);
        for (let i = 0; i <= int(3); i++) {
          const key = pick(keys);
          if (random() < 0.4) delete frame[key];
          else frame[key] = randomValue();
        }
        return JSON.stringify(frame);
      },
      () => (mustFail++, JSON.stringify(pick([1, 'x', null, [], [valid()], true]))),
      () => (
        mustFail++,
        JSON.stringify({ ...valid(), cmd: pick(['__proto__', 'constructor', 'toString', 'exec_', '']) })
      ),
      () => `{"__proto__": {"polluted": 1}, "cmd": "list_model", "request_id": ${int(100)}}`,
      () => JSON.stringify({ callback_id: randomText(8), result: randomValue() }),
      () => (mustFail++, `{"request_id": 1, "cmd": "exec_chat", "msg": ${'['.repeat(5000)}`),
      () => (mustFail++, JSON.stringify({ ...valid(), msg: 'y'.repeat(MAX_FRAME + int(1000)) })),
      () => JSON.stringify({ ...valid(), request_id: pick([{}, [], -0, 1e308, 'r'.repeat(300), '', 1.5]) }),
      () => JSON.stringify(valid()),
    ];

    const client = await TestClient.connect(agent.url, TEST_KEY);
    const deadline = Date.now() + 10_000;
    let sent = 0;
    while (sent < 1200 && Date.now() < deadline) {
      client.send(pick(generators)());
      sent++;
      if (sent % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(sent).toBeGreaterThanOrEqual(1000);
    // Frames are handled in order: once the sentinel is answered, every frame before it was.
    const [sentinel] = await client.request({ cmd: 'list_model', request_id: 'sentinel' });
    expect(sentinel).toHaveProperty('models');
    expect(client.isOpen).toBe(true);
    const refusals = client.frames.filter((f) => typeof f.error === 'string' && f.error !== 'cancelled');
    expect(refusals.length).toBeGreaterThanOrEqual(mustFail);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await client.close();
    await stillServes();
  }, 30_000);
});
