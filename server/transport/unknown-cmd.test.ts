import { describe, expect, it } from 'vitest';
import { TEST_KEY, startTestServer } from '../testing/start-test-server';
import { TestClient } from '../testing/test-client';

const chat = (request_id: string, scenario: string) => ({
  cmd: 'exec_chat',
  request_id,
  model: 'mock-1',
  msg: `/scenario ${scenario}`,
});

describe('a frame with an unknown cmd while a task runs', () => {
  it('"cancel" under the running task\'s id is refused under that id (the contract\'s error reply) and stops nothing', async () => {
    const agent = await startTestServer();
    try {
      const client = await TestClient.connect(agent.url, TEST_KEY);
      const release = agent.adapter.hold();
      client.send(chat('c', 'pause'));
      await agent.adapter.call(0);
      client.send({ request_id: 'c', cmd: 'cancel' });
      expect(await client.waitFor((frame) => frame.error === 'unknown_cmd: cancel')).toEqual({
        request_id: 'c',
        error: 'unknown_cmd: cancel',
      });
      release();
      // The task was not stopped: its own answer still comes.
      expect(await client.waitFor((frame) => frame.request_id === 'c' && frame.msg === 'done')).toEqual({
        request_id: 'c',
        msg: 'done',
      });
      await client.close();
    } finally {
      await agent.close();
    }
  });
});
