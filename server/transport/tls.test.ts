import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TEST_KEY, startTestServer } from '../testing/start-test-server';

// A committed self-signed pair for 127.0.0.1 (test only): the test needs no openssl on the machine.
const fixture = (name: string) => fileURLToPath(new URL(`__fixtures__/${name}`, import.meta.url));

describe('TLS', () => {
  it('serves wss:// and https:// with the configured certificate', async () => {
    const certPath = fixture('test-cert.pem');
    const keyPath = fixture('test-key.pem');
    const agent = await startTestServer({ config: { tls: { certPath, keyPath } } });
    const url = agent.url.replace('ws://', 'wss://');
    const socket = new WebSocket(url, { headers: { 'X-Api-Key': TEST_KEY }, rejectUnauthorized: false });
    const reply = await new Promise<string>((resolve, reject) => {
      socket.once('open', () => socket.send(JSON.stringify({ cmd: 'list_model', request_id: 1 })));
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
    });
    expect(JSON.parse(reply)).toMatchObject({ request_id: 1, models: expect.any(Array) });
    socket.close();
    await agent.close();
  });
});
