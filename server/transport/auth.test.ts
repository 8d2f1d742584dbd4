import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_KEY, TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

let agent: TestServer;
beforeAll(async () => {
  agent = await startTestServer();
});
afterAll(() => agent.close());

describe('authentication (X-Api-Key)', () => {
  it('accepts a configured key', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    const [reply] = await client.request({ cmd: 'list_model', request_id: 1 });
    expect(reply).toEqual({ request_id: 1, models: ['local mock-1', 'mock-1'] });
    await client.close();
  });

  it.each([
    ['a wrong key', 'not-a-key'],
    ['no key', undefined],
    ['an empty key', ''],
  ])('closes the connection for %s with 4401 and a reason', async (_label, key) => {
    const client = await TestClient.connect(agent.url, key);
    expect(await client.closed).toEqual({ code: 4401, reason: 'invalid or missing X-Api-Key' });
  });

  it('takes the key from a subprotocol for browsers, and answers with the neutral one', async () => {
    const client = await TestClient.connect(agent.url, undefined, {
      protocols: ['agent-service', `x-api-key.${TEST_KEY}`],
    });
    expect(client.socket.protocol).toBe('agent-service');
    const [reply] = await client.request({ cmd: 'list_model', request_id: 'p' });
    expect(reply?.models).toContain('mock-1');
    await client.close();
  });

  it('refuses the sixth connection of a key with 4429, frees the slot on close, counts keys apart', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => TestClient.connect(agent.url, TEST_KEY)));
    const sixth = await TestClient.connect(agent.url, TEST_KEY);
    expect(await sixth.closed).toEqual({ code: 4429, reason: 'too many connections for this key (max 5)' });
    const otherKey = await TestClient.connect(agent.url, OTHER_KEY);
    expect((await otherKey.request({ cmd: 'list_model', request_id: 2 }))[0]).toHaveProperty('models');
    await five[0]!.close();
    const again = await TestClient.connect(agent.url, TEST_KEY);
    expect((await again.request({ cmd: 'list_model', request_id: 3 }))[0]).toHaveProperty('models');
    await Promise.all([...five.slice(1), otherKey, again].map((client) => client.close()));
  });

  it('upgrades only at /ws', async () => {
    await expect(TestClient.connect(agent.url.replace('/ws', '/other'), TEST_KEY)).rejects.toThrow(/404/);
  });
});

describe('HTTP endpoints', () => {
  it('serves the test page at / and at /simpletest2025, with its script', async () => {
    for (const path of ['/', '/simpletest2025']) {
      const response = await fetch(`${agent.httpUrl}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<script src="/test-page.js">');
    }
    const script = await fetch(`${agent.httpUrl}/test-page.js`);
    expect(await script.text()).toContain('exec_unittest_code');
  });

  it('answers /health and /metrics with JSON', async () => {
    const health = await fetch(`${agent.httpUrl}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const metrics = await (await fetch(`${agent.httpUrl}/metrics`)).json();
    expect(metrics).toMatchObject({
      queue_length: 0,
      running: 0,
      served: expect.any(Number),
      failed: expect.any(Number),
      latency_ms: { p50: null, p99: null },
    });
    expect((await fetch(`${agent.httpUrl}/nope`)).status).toBe(404);
    expect((await fetch(`${agent.httpUrl}/health`, { method: 'POST' })).status).toBe(405);
  });
});
