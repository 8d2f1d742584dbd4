import type { IncomingHttpHeaders } from 'node:http';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../config';
import { OTHER_KEY, TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

let agent: TestServer | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await agent?.close();
  agent = undefined;
});

async function connect(url: string, key: string, headers: Record<string, string> = {}) {
  const client = await TestClient.connect(url, key, { headers });
  clients.push(client);
  return client;
}

describe('WebSocket Origin check', () => {
  it('admits plugins without Origin and the test page’s own origin; refuses other pages with 403', async () => {
    agent = await startTestServer();
    const own = `http://127.0.0.1:${agent.server.port}`;
    await connect(agent.url, TEST_KEY);
    const page = await connect(agent.url, TEST_KEY, { Origin: own });
    expect((await page.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');
    await expect(
      TestClient.connect(agent.url, TEST_KEY, { headers: { Origin: 'http://evil.example' } }),
    ).rejects.toThrow(/403/);
    expect(agent.server.snapshot().connections).toBe(2);
  });

  it('admits configured origins', async () => {
    agent = await startTestServer({ config: { allowedOrigins: ['https://ide.example'] } });
    await connect(agent.url, TEST_KEY, { Origin: 'https://ide.example' });
    await expect(
      TestClient.connect(agent.url, TEST_KEY, { headers: { Origin: 'https://other.example' } }),
    ).rejects.toThrow(/403/);
  });
});

describe('failed key attempts', () => {
  it('an address past the limit gets 429 before its key is looked at, until the window ends', async () => {
    let now = 0;
    agent = await startTestServer({
      config: { authThrottle: { maxFailures: 3, windowMs: 60_000 } },
      now: () => now,
    });
    for (let i = 0; i < 3; i++) {
      const wrong = await TestClient.connect(agent.url, `wrong-${i}`);
      expect(await wrong.closed).toEqual({ code: 4401, reason: 'invalid or missing X-Api-Key' });
    }
    // Even the right key waits out the window now.
    await expect(TestClient.connect(agent.url, TEST_KEY)).rejects.toThrow(/429/);
    now += 60_000;
    const client = await connect(agent.url, OTHER_KEY);
    expect((await client.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');
  });
});

/** The status and headers of an upgrade the server answers with HTTP instead of 101. */
function refusal(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0, headers: response.headers });
      response.resume();
    });
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('error', () => undefined);
  });
}

describe('failed key attempts: Retry-After and proxies', () => {
  it('the 429 says when to come back', async () => {
    let now = 0;
    agent = await startTestServer({
      config: { authThrottle: { maxFailures: 2, windowMs: 60_000 } },
      now: () => now,
    });
    for (let i = 0; i < 2; i++) await (await TestClient.connect(agent.url, `wrong-${i}`)).closed;
    now += 15_200;
    const blocked = await refusal(agent.url, { 'X-Api-Key': TEST_KEY });
    expect(blocked.status).toBe(429);
    expect(blocked.headers['retry-after']).toBe('45');
  });

  it('behind a trusted proxy, counts each client named in X-Forwarded-For apart', async () => {
    agent = await startTestServer({
      config: { authThrottle: { maxFailures: 2, windowMs: 60_000 }, trustedProxies: ['127.0.0.1', '::1'] },
    });
    const from = (client: string) => ({ 'X-Forwarded-For': client });
    for (let i = 0; i < 2; i++) {
      await (
        await TestClient.connect(agent.url, `wrong-${i}`, { headers: from('203.0.113.9') })
      ).closed;
    }
    expect((await refusal(agent.url, { 'X-Api-Key': TEST_KEY, ...from('203.0.113.9') })).status).toBe(429);
    // A hop the attacker writes itself lands left of the one the proxy appends: no way out of the block.
    expect(
      (await refusal(agent.url, { 'X-Api-Key': TEST_KEY, ...from('198.51.100.1, 203.0.113.9') })).status,
    ).toBe(429);
    // Someone else behind the same load balancer is not locked out.
    const colleague = await connect(agent.url, TEST_KEY, from('203.0.113.10'));
    expect((await colleague.request({ cmd: 'list_model', request_id: 1 }))[0]).toHaveProperty('models');
  });

  it('without trustedProxies, X-Forwarded-For changes nothing', async () => {
    agent = await startTestServer({ config: { authThrottle: { maxFailures: 2, windowMs: 60_000 } } });
    for (let i = 0; i < 2; i++) {
      await (
        await TestClient.connect(agent.url, `wrong-${i}`, { headers: { 'X-Forwarded-For': `192.0.2.${i}` } })
      ).closed;
    }
    expect(
      (await refusal(agent.url, { 'X-Api-Key': TEST_KEY, 'X-Forwarded-For': '192.0.2.77' })).status,
    ).toBe(429);
  });
});

describe('/metrics access', () => {
  it('answers loopback callers by default', async () => {
    agent = await startTestServer();
    expect((await fetch(`${agent.httpUrl}/metrics`)).status).toBe(200);
  });

  it('with loopback turned off, needs the metrics key', async () => {
    agent = await startTestServer({
      config: { metrics: { allowLoopback: false, keySha256: hashApiKey('m-key') } },
    });
    const get = (authorization?: string) =>
      fetch(`${agent!.httpUrl}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
    expect((await get()).status).toBe(403);
    expect((await get('Bearer wrong')).status).toBe(403);
    expect((await get(`Bearer ${TEST_KEY}`)).status).toBe(403);
    const allowed = await get('Bearer m-key');
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toHaveProperty('queue_length', 0);
    // Health stays public: load balancers need it.
    expect((await fetch(`${agent.httpUrl}/health`)).status).toBe(200);
  });
});

describe('default pool sizes', () => {
  it('200 connections with a 50 ms model: the defaults refuse no task', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `team-key-${i}`);
    agent = await startTestServer({
      config: { apiKeys: keys.map((key, i) => ({ name: `k${i}`, sha256: hashApiKey(key) })) },
    });
    const team = await Promise.all(
      keys.flatMap((key) => Array.from({ length: 5 }, () => connect(agent!.url, key))),
    );
    const replies = await Promise.all(
      team.map((client, i) =>
        client.request(
          { cmd: 'exec_chat', request_id: i, model: 'mock-1', msg: '/scenario model50' },
          30_000,
        ),
      ),
    );
    expect(replies.filter((frames) => 'error' in frames.at(-1)!)).toEqual([]);
    expect(agent.server.snapshot()).toMatchObject({ served: 200, rejected: 0 });
  }, 40_000);
});
