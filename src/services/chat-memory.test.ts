import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayServer } from '../providers/conformance/replay-server';
import { testCore } from './test-core';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../providers/openai-compatible/__fixtures__/${name}.chunks.txt`, import.meta.url));

/** The system message of the last chat request the server received. */
function lastSystemPrompt(server: ReplayServer): string {
  const body = server.lastRequest('/v1/chat/completions')?.body as {
    messages: { role: string; content: string }[];
  };
  return body.messages.find((message) => message.role === 'system')?.content ?? '';
}

describe('chat with memory', () => {
  let core: ReturnType<typeof testCore>;
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await core?.api.chat.idle();
    await core?.close();
    await server?.stop();
    server = undefined;
  });

  async function ask(content: string, conversationId?: string) {
    const turn = await core.api.chat.send({
      content,
      provider_id: 'openai',
      ...(conversationId && { conversation_id: conversationId }),
    });
    await core.api.chat.settled(turn.turn_id);
    return turn.conversation_id;
  }

  it('recalls a fact from one conversation in the next; deleted or switched off, it is not sent', async () => {
    server = new ReplayServer(() => ({ file: fixture('openai-text'), framing: 'sse' }));
    await server.start();
    core = testCore();
    await core.api.providers.create({ preset: 'openai', base_url: `${server.url}/v1` });

    await ask('Remember that my advisor is Prof. Li.');
    const [fact] = await core.api.memory.list();
    expect(fact).toMatchObject({ type: 'semantic', source: 'user_input', content: 'my advisor is Prof. Li' });
    // The agent reads the same store.
    expect((await core.api.agent.memories()).map((item) => item.id)).toEqual([fact!.id]);

    const second = await ask('Who is my advisor?');
    expect(lastSystemPrompt(server)).toContain('my advisor is Prof. Li');

    await core.api.memory.setConversationMemory({ conversation_id: second, enabled: false });
    await ask('Who is my advisor again?', second);
    expect(lastSystemPrompt(server)).not.toContain('Prof. Li');

    await core.api.memory.delete(fact!.id);
    await ask('Who is my advisor?');
    expect(lastSystemPrompt(server)).not.toContain('Prof. Li');
    expect(await core.api.agent.memories()).toEqual([]);
  });
});
