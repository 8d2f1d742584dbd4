import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

// Plugins match replies by request_id (§2.2 "同request"); JVM plugins use
// Random.nextLong(), so every reply must carry the id's digits as sent.

const MAX_FRAME = 16 * 1024;
let agent: TestServer;
beforeAll(async () => {
  agent = await startTestServer({ config: { maxFrameBytes: MAX_FRAME } });
});
afterAll(() => agent.close());

/** The texts of the replies whose request_id was sent as `digits`, once `last` matches one of them. */
async function repliesFor(client: TestClient, digits: string, last: (text: string) => boolean) {
  const prefix = `{"request_id":${digits},`;
  await client.waitFor((_frame) => client.texts.some((text) => text.startsWith(prefix) && last(text)));
  return client.texts.filter((text) => text.startsWith(prefix));
}

describe('request ids beyond 2^53 come back digit for digit', () => {
  it.each([['1234567890123456789'], ['-4962768465676381896'], ['9007199254740993']])(
    '%s: list_model, an answer, stream chunks, refusals and cancelled',
    async (digits) => {
      const client = await TestClient.connect(agent.url, TEST_KEY);
      client.send(`{"request_id":${digits},"cmd":"list_model"}`);
      expect(await repliesFor(client, digits, (text) => text.includes('"models"'))).toEqual([
        `{"request_id":${digits},"models":["local mock-1","mock-1"]}`,
      ]);
      client.texts.length = 0;

      client.send(`{"cmd":"exec_chat","request_id":${digits},"model":"mock-1","msg":"hi"}`);
      expect(await repliesFor(client, digits, (text) => text.includes('"msg"'))).toEqual([
        `{"request_id":${digits},"msg":"Hello! How can I help you today?"}`,
      ]);
      client.texts.length = 0;

      client.send(
        `{"cmd":"exec_chat","request_id":${digits},"model":"mock-1","msg":"/scenario short","stream":true}`,
      );
      const chunks = await repliesFor(client, digits, (text) => text.includes('"stream_finish":true'));
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.at(-1)).toMatch(
        new RegExp(`^\\{"request_id":${digits},"msg":"","stream_seq_id":\\d+,"stream_finish":true\\}$`),
      );
      client.texts.length = 0;

      client.send(`{"cmd":"exec_chat","request_id":${digits},"model":"mock-1"}`);
      expect(await repliesFor(client, digits, (text) => text.includes('"error"'))).toEqual([
        `{"request_id":${digits},"error":"invalid_request: msg: Invalid input: expected string, received undefined"}`,
      ]);
      client.texts.length = 0;

      client.send(
        `{"cmd":"exec_chat","request_id":${digits},"model":"mock-1","msg":"/scenario long","stream":true}`,
      );
      await repliesFor(client, digits, (text) => text.includes('"stream_seq_id":0'));
      client.send({ cmd: 'exec_chat', request_id: 'next', model: 'mock-1', msg: 'hi' });
      const cancelled = await repliesFor(client, digits, (text) => text.includes('"error"'));
      expect(cancelled.at(-1)).toBe(`{"request_id":${digits},"error":"cancelled"}`);
      await client.replies('next');
      await client.close();
    },
  );
});

describe('frames over maxFrameBytes', () => {
  it('name their request even when request_id comes last (sorted keys)', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    // Go's encoding/json and Python's sort_keys put request_id after file_content.
    const frame =
      `{"cmd":"exec_unittest_recommend","file_content":${JSON.stringify('x'.repeat(MAX_FRAME))},` +
      `"filepath":"a.py","func_location":{"start":{"line":0,"character":0},"end":{"line":1,"character":0}},` +
      `"func_name":"f","func_symbols":[{"name":"f","kind":"Function","request_id":1}],"model":"mock-1",` +
      `"request_id":1234567890123456789}`;
    client.send(frame);
    await client.waitFor((reply) => typeof reply.error === 'string');
    expect(client.texts).toEqual([
      `{"request_id":1234567890123456789,"error":"frame_too_large: ${frame.length} bytes, the limit is ${MAX_FRAME}"}`,
    ]);
    await client.close();
  });

  it('as a new task, cancel the running one first (§1.3); other frames leave it running', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.send({
      cmd: 'exec_chat',
      request_id: 'running',
      model: 'mock-1',
      msg: '/scenario long',
      stream: true,
    });
    await client.waitFor((reply) => reply.request_id === 'running');
    client.send({ cmd: 'list_model', request_id: 'big list', padding: 'x'.repeat(MAX_FRAME) });
    await client.waitFor((reply) => reply.request_id === 'big list');
    client.send({ cmd: 'exec_chat', request_id: 'big task', model: 'mock-1', msg: 'x'.repeat(MAX_FRAME) });
    await client.waitFor((reply) => reply.request_id === 'big task');
    const ends = client.frames.filter((reply) => 'error' in reply);
    expect(ends).toEqual([
      { request_id: 'big list', error: expect.stringMatching(/^frame_too_large: /) },
      { request_id: 'running', error: 'cancelled' },
      { request_id: 'big task', error: expect.stringMatching(/^frame_too_large: /) },
    ]);
    // The same for a task frame refused as invalid.
    client.send({
      cmd: 'exec_chat',
      request_id: 'running 2',
      model: 'mock-1',
      msg: '/scenario long',
      stream: true,
    });
    await client.waitFor((reply) => reply.request_id === 'running 2');
    client.send({ cmd: 'exec_chat', request_id: 'no msg', model: 'mock-1' });
    await client.waitFor((reply) => reply.request_id === 'no msg');
    expect(client.frames.filter((reply) => 'error' in reply).slice(3)).toEqual([
      { request_id: 'running 2', error: 'cancelled' },
      { request_id: 'no msg', error: expect.stringMatching(/^invalid_request: msg: /) },
    ]);
    await client.close();
  });
});
