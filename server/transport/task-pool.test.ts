import { afterEach, describe, expect, it } from 'vitest';
import { TEST_KEY, OTHER_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

let agent: TestServer | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await agent?.close();
});

async function start(queue: { maxLength: number; concurrency: number }) {
  agent = await startTestServer({ config: { queue } });
  return agent;
}
async function connect(key = TEST_KEY) {
  const client = await TestClient.connect(agent!.url, key);
  clients.push(client);
  return client;
}
const chat = (request_id: unknown, scenario: string, extra: object = {}) => ({
  cmd: 'exec_chat',
  request_id,
  model: 'mock-1',
  msg: `/scenario ${scenario}`,
  ...extra,
});
async function until(condition: () => boolean, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('task pool', () => {
  it('runs tasks from all connections in one FIFO order', async () => {
    const { server, adapter } = await start({ maxLength: 10, concurrency: 1 });
    const senders = await Promise.all([connect(), connect(), connect(OTHER_KEY), connect(OTHER_KEY)]);
    const order = ['a', 'b', 'c', 'd'];
    for (const [index, client] of senders.entries()) {
      client.send(chat(order[index], 'pause'));
      // Wait until the server holds it, so arrival order is the order sent.
      await until(() => server.snapshot().queue_length + server.snapshot().running === index + 1);
    }
    const finished: string[] = [];
    await Promise.all(
      senders.map((client, index) => client.replies(order[index]).then(() => finished.push(order[index]!))),
    );
    expect(adapter.calls.map((call) => call.request.meta.requestId)).toEqual(order);
    expect(finished).toEqual(order);
    expect(server.snapshot()).toMatchObject({ served: 4, queue_length: 0, running: 0 });
    expect(server.snapshot().queue_wait_ms.p99).toBeGreaterThanOrEqual(300);
  });

  it('refuses a task at once when the queue is full', async () => {
    const { server } = await start({ maxLength: 2, concurrency: 1 });
    const [a, b, c, d] = await Promise.all([connect(), connect(), connect(), connect(OTHER_KEY)]);
    a!.send(chat(1, 'pause'));
    await until(() => server.snapshot().running === 1);
    b!.send(chat(2, 'pause'));
    c!.send(chat(3, 'pause'));
    await until(() => server.snapshot().queue_length === 2);
    const [refusal] = await d!.request(chat(4, 'text'));
    expect(refusal).toEqual({
      request_id: 4,
      error: 'queue_full: too many tasks are waiting, try again later',
    });
    expect(server.snapshot().rejected).toBe(1);
    // The refused connection keeps working once there is room.
    await c!.replies(3);
    expect((await d!.request(chat(5, 'text')))[0]).toHaveProperty('msg');
  });

  it('a new task cancels the connection’s running one: "cancelled", upstream aborted, no other reply', async () => {
    const { adapter, server } = await start({ maxLength: 10, concurrency: 2 });
    const client = await connect();
    client.send(chat(1, 'long', { stream: true }));
    const first = await adapter.call(0);
    await client.waitFor((f) => f.request_id === 1 && f.stream_seq_id === 0);
    const replies = await client.request(chat(2, 'text'));
    expect(replies).toEqual([{ request_id: 2, msg: 'Hello! How can I help you today?' }]);
    expect(await first.settled).toBe('rejected');
    expect(first.abortedAt).toBeDefined();
    const forFirst = client.frames.filter((f) => f.request_id === 1);
    expect(forFirst.at(-1)).toEqual({ request_id: 1, error: 'cancelled' });
    expect(forFirst.filter((f) => 'error' in f)).toHaveLength(1);
    // "cancelled" came before anything for the new task.
    expect(client.frames.findIndex((f) => f.error === 'cancelled')).toBeLessThan(
      client.frames.findIndex((f) => f.request_id === 2),
    );
    await until(() => server.snapshot().running === 0);
    expect(server.snapshot().cancelled).toBe(1);
  });

  it('a new task cancels the connection’s queued one before it reaches a model', async () => {
    const { adapter, server } = await start({ maxLength: 10, concurrency: 1 });
    const [busy, client] = await Promise.all([connect(), connect()]);
    busy.send(chat('busy', 'pause'));
    await until(() => server.snapshot().running === 1);
    client.send(chat(1, 'text'));
    await until(() => server.snapshot().queue_length === 1);
    client.send(chat(2, 'text'));
    expect(await client.replies(1)).toEqual([{ request_id: 1, error: 'cancelled' }]);
    expect((await client.replies(2))[0]).toHaveProperty('msg');
    expect(adapter.calls.map((call) => call.request.meta.requestId)).toEqual(['busy', '2']);
  });

  it('closing the connection cancels its task and aborts the upstream call', async () => {
    const { adapter, server } = await start({ maxLength: 10, concurrency: 2 });
    const client = await connect();
    client.send(chat(1, 'long'));
    const call = await adapter.call(0);
    await client.close();
    expect(await call.settled).toBe('rejected');
    expect(call.abortedAt).toBeDefined();
    await until(() => server.snapshot().running === 0);
    expect(server.snapshot()).toMatchObject({ cancelled: 1, served: 0 });
  });

  it('a queued task of a closed connection never runs', async () => {
    const { adapter, server } = await start({ maxLength: 10, concurrency: 1 });
    const [busy, leaving] = await Promise.all([connect(), connect()]);
    busy.send(chat('busy', 'pause'));
    await until(() => server.snapshot().running === 1);
    leaving.send(chat('gone', 'text'));
    await until(() => server.snapshot().queue_length === 1);
    await leaving.close();
    await until(() => server.snapshot().queue_length === 0);
    await busy.replies('busy');
    expect(adapter.calls.map((c) => c.request.meta.requestId)).toEqual(['busy']);
  });
});
