import { connect as connectTcp } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_KEY, startTestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

const chat = (request_id: string, scenario: string) => ({
  cmd: 'exec_chat',
  request_id,
  model: 'mock-1',
  msg: `/scenario ${scenario}`,
});

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('graceful shutdown', () => {
  it('cancels queued tasks, lets the running one finish, then closes sockets with 1001', async () => {
    const agent = await startTestServer({
      config: { queue: { maxLength: 8, concurrency: 1 }, shutdownTimeoutMs: 2000 },
    });
    const [a, b] = await Promise.all([
      TestClient.connect(agent.url, TEST_KEY),
      TestClient.connect(agent.url, TEST_KEY),
    ]);
    const release = agent.adapter.hold();
    a.send(chat('running', 'pause'));
    await until(() => agent.server.snapshot().running === 1);
    b.send(chat('queued', 'text'));
    await until(() => agent.server.snapshot().queue_length === 1);
    const closing = agent.close();
    expect(await b.replies('queued')).toEqual([{ request_id: 'queued', error: 'cancelled' }]);
    release();
    expect(await a.replies('running')).toEqual([{ request_id: 'running', msg: 'done' }]);
    await closing;
    expect(await a.closed).toEqual({ code: 1001, reason: 'server shutting down' });
    await expect(TestClient.connect(agent.url, TEST_KEY)).rejects.toThrow();
  });

  it('aborts a running task that outlasts the grace period', async () => {
    const agent = await startTestServer({ config: { shutdownTimeoutMs: 200 } });
    const client = await TestClient.connect(agent.url, TEST_KEY);
    client.send(chat('slow', 'long'));
    const call = await agent.adapter.call(0);
    // The long answer takes seconds; the close aborts it after the grace period instead.
    await agent.close();
    expect(client.frames).toEqual([{ request_id: 'slow', error: 'cancelled' }]);
    expect(await call.settled).toBe('rejected');
    expect(call.abortedAt).toBeDefined();
  });

  it('answers /health with 503 during the grace period and refuses new sockets, then finishes the task', async () => {
    const agent = await startTestServer({ config: { shutdownTimeoutMs: 5000 } });
    expect((await fetch(`${agent.httpUrl}/health`)).status).toBe(200);
    const client = await TestClient.connect(agent.url, TEST_KEY);
    // The task stays running until released: a busy machine cannot let it finish early.
    const release = agent.adapter.hold();
    client.send(chat('running', 'pause'));
    await agent.adapter.call(0);
    const closing = agent.close();
    const health = await fetch(`${agent.httpUrl}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'shutting_down' });
    await expect(TestClient.connect(agent.url, TEST_KEY)).rejects.toThrow(/503/);
    release();
    expect(await client.replies('running')).toEqual([{ request_id: 'running', msg: 'done' }]);
    await closing;
    expect(await client.closed).toEqual({ code: 1001, reason: 'server shutting down' });
  });
});

describe('stalled handshakes', () => {
  async function stall(agent: { server: { port: number } }, bytes: string) {
    const socket = connectTcp(agent.server.port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => (received += String(data)));
    socket.on('connect', () => socket.write(bytes));
    await new Promise((resolve) => socket.on('close', resolve));
    return received;
  }

  it('closes a connection whose upgrade request never completes', async () => {
    const agent = await startTestServer({ config: { handshakeTimeoutMs: 100 } });
    const received = await stall(agent, 'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n');
    // Closed without an answer: the request was never complete enough for one.
    expect(received).toBe('');
    // The server still serves everyone else.
    const client = await TestClient.connect(agent.url, TEST_KEY);
    expect((await client.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');
    await client.close();
    await agent.close();
  });

  it('closes a connection that never sends a byte', async () => {
    const agent = await startTestServer({ config: { handshakeTimeoutMs: 100 } });
    await stall(agent, '');
    await agent.close();
  });
});
