import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TEST_KEY, startTestServer } from '../testing/start-test-server';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const dir = mkdtempSync(join(tmpdir(), 'agent-tls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!hasOpenssl())('TLS', () => {
  it('serves wss:// and https:// with the configured certificate', async () => {
    const certPath = join(dir, 'cert.pem');
    const keyPath = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
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
