import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaAdapter } from '../../src/providers/ollama';
import { TEST_KEY, startTestServer, type TestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

// The error codes README.md promises are the ones a plugin gets.

let hung: Server;
let agent: TestServer;
beforeAll(async () => {
  // An Ollama that takes the request and never answers.
  hung = createServer(() => undefined);
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
  agent = await startTestServer({
    adapter: new OllamaAdapter({ baseUrl, model: 'qwen-test:1b' }),
    config: { taskTimeoutMs: 200 },
  });
});
afterAll(async () => {
  await agent.close();
  hung.closeAllConnections();
  await new Promise((resolve) => hung.close(resolve));
});

describe('a model that hangs', () => {
  it('ends at taskTimeoutMs with network_timeout, the code README.md lists for it', async () => {
    const client = await TestClient.connect(agent.url, TEST_KEY);
    const replies = await client.request({
      cmd: 'exec_chat',
      request_id: 1,
      model: 'local qwen-test:1b',
      msg: 'hi',
    });
    expect(replies).toEqual([{ request_id: 1, error: expect.stringMatching(/^network_timeout: /) }]);
    await client.close();
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const errorTable = readme.slice(
      readme.indexOf('`error` is `code` or `code: detail`'),
      readme.indexOf('## Task pool'),
    );
    expect(errorTable).toMatch(/`network_timeout`[^\n]*taskTimeoutMs/);
  });
});
