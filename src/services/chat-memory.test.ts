import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplayServer } from '../providers/conformance/replay-server';
import { testCore } from './test-core';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../providers/openai-compatible/__fixtures__/${name}.chunks.txt`, import.meta.url));

/**
 * The system message of the last answer's request the server received: a digest of the chat
 * before (in a response format) may be sent after it, in the background.
 */
function lastSystemPrompt(server: ReplayServer): string {
  const body = server.requests.findLast(
    (request) =>
      request.path.startsWith('/v1/chat/completions') &&
      !(request.body as { response_format?: unknown }).response_format,
  )?.body as { messages: { role: string; content: string }[] };
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

  /** The turn's event names, with MemoryDigest's status. */
  async function eventsOf(turnId: string): Promise<string[]> {
    const names: string[] = [];
    await core.api.events.subscribe(turnId, 0, (event) =>
      names.push(
        event.event === 'MemoryDigest'
          ? `MemoryDigest:${(event.data as { status: string }).status}`
          : event.event,
      ),
    ).closed;
    return names.filter((name) => name !== 'TextDelta' && name !== 'Usage');
  }

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

  it('digests a finished chat once the next one has answered: one request for summary and facts, in the schema', async () => {
    const bodies: Record<string, unknown>[] = [];
    const sse = (content: string) =>
      [JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: 'stop' }] }), '[DONE]']
        .map((line) => `data: ${line}\n\n`)
        .join('');
    const digest = {
      summary: 'The user planned a hiking trip to the Alps for July.',
      facts: [{ content: 'The user is vegetarian', importance: 0.7, expires_in_days: null }],
    };
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          bodies.push(body);
          return new Response(sse(body.response_format ? JSON.stringify(digest) : 'Sounds good.'));
        },
      },
    });
    await core.api.providers.create({ preset: 'openai', base_url: 'http://provider.test/v1' });
    const system = (body: Record<string, unknown> | undefined) =>
      (body?.messages as { role: string; content: string }[]).find((m) => m.role === 'system')?.content ?? '';

    const first = await ask('Help me plan a hiking trip to the Alps in July. I am vegetarian.');
    await ask('Which huts serve dinner?', first);
    await core.api.chat.idle();
    expect(bodies).toHaveLength(2); // no model call per turn for memory, nothing earlier to digest

    const next = await core.api.chat.send({
      content: 'What should I pack for the Alps trip?',
      provider_id: 'openai',
    });
    await core.api.chat.settled(next.turn_id);
    await core.api.chat.idle();
    expect(bodies).toHaveLength(4);
    // The answer did not wait: its events say nothing of memory.
    expect(await eventsOf(next.turn_id)).toEqual(['Done']);
    const [turnBody, digestBody] = bodies.slice(2);
    expect(turnBody).not.toHaveProperty('response_format');
    expect(system(turnBody)).not.toContain('hiking trip to the Alps');
    expect(digestBody!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'conversation_digest', strict: true },
    });
    const prompt = JSON.stringify(digestBody!.messages);
    expect(prompt).toContain('Which huts serve dinner?');
    expect(prompt).toContain('I am vegetarian');
    const stored = await core.api.memory.list();
    expect(stored.map((item) => [item.type, item.content, item.sessionId]).sort()).toEqual([
      ['episodic', digest.summary, first],
      ['semantic', 'The user is vegetarian', first],
    ]);
    // The new chat's next answer recalls the digest.
    await ask('Which boots for the Alps trip?', next.conversation_id);
    expect(system(bodies[4])).toContain('hiking trip to the Alps');
    expect(bodies).toHaveLength(5);

    // Another new chat digests only the chat just left; the first one is not sent again.
    await ask('And what about the weather?');
    await core.api.chat.idle();
    expect(bodies).toHaveLength(7);
    expect(bodies[5]).not.toHaveProperty('response_format');
    expect(JSON.stringify(bodies[6]!.messages)).toContain('What should I pack');
    expect(JSON.stringify(bodies[6]!.messages)).not.toContain('Which huts serve dinner');
  });

  it('the first answer streams while the digest of the chat before is still held', async () => {
    let releaseDigest: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseDigest = resolve));
    let digestAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (digestAsked = resolve));
    const sse = (content: string) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          if (!body.response_format) return new Response(sse('ok'));
          digestAsked();
          await held;
          return new Response(sse(JSON.stringify({ summary: 'The user lives in Berlin.', facts: [] })));
        },
      },
    });
    await core.api.providers.create({ preset: 'openai', base_url: 'http://provider.test/v1' });
    await ask('I live in Berlin.');
    const turn = await core.api.chat.send({ content: 'Hello again', provider_id: 'openai' });
    // Settles while the digest is held: the answer does not wait for it.
    expect((await core.api.chat.settled(turn.turn_id)).status).toBe('completed');
    await asked;
    expect(await core.api.memory.list()).toEqual([]);
    releaseDigest();
    await core.api.chat.idle();
    expect((await core.api.memory.list()).map((item) => item.content)).toEqual(['The user lives in Berlin.']);
  });

  it('a model without a response format is asked in plain text; a failed digest does not fail the turn', async () => {
    const calls: string[] = [];
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          const digesting = JSON.stringify(body.messages).includes('finished conversation');
          calls.push(digesting ? `digest${body.response_format ? '+format' : ''}` : 'turn');
          if (digesting) return new Response('{"error":{"message":"boom"}}', { status: 400 });
          const chunk = JSON.stringify({
            choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
          });
          return new Response(`data: ${chunk}\n\ndata: [DONE]\n\n`);
        },
      },
    });
    await core.api.providers.create({ preset: 'deepseek', base_url: 'http://provider.test' });
    const turn = async (content: string) => {
      const sent = await core.api.chat.send({ content, provider_id: 'deepseek' });
      return core.api.chat.settled(sent.turn_id);
    };
    await turn('I live in Berlin.');
    const sent = await core.api.chat.send({ content: 'Hello again', provider_id: 'deepseek' });
    const answer = await core.api.chat.settled(sent.turn_id);
    expect(answer.status).toBe('completed');
    await core.api.chat.idle();
    expect(await eventsOf(sent.turn_id)).toEqual(['Done']);
    // DeepSeek has no json_schema: the adapter refuses before sending, the digest goes as text.
    expect(calls).toEqual(['turn', 'turn', 'digest']);
    expect(await core.api.memory.list()).toEqual([]);
  });

  it('a stopped first answer asks for no digest: the chat before is left for the next time', async () => {
    const calls: string[] = [];
    let answerAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (answerAsked = resolve));
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          calls.push(body.response_format ? 'digest' : 'turn');
          if (body.response_format || JSON.stringify(body.messages).includes('I am vegetarian')) {
            const chunk = JSON.stringify({
              choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
            });
            return new Response(`data: ${chunk}\n\ndata: [DONE]\n\n`);
          }
          answerAsked();
          // Held until the turn is stopped: the abort reaches this request.
          return new Promise<Response>((_resolve, reject) =>
            init?.signal?.addEventListener('abort', () => reject(new DOMException('Stopped', 'AbortError'))),
          );
        },
      },
    });
    await core.api.providers.create({ preset: 'openai', base_url: 'http://provider.test/v1' });
    const first = await ask('I am vegetarian.');
    const turn = await core.api.chat.send({ content: 'New topic', provider_id: 'openai' });
    await asked;
    await core.api.chat.cancel(turn.turn_id);
    expect((await core.api.chat.settled(turn.turn_id)).status).toBe('cancelled');
    await core.api.chat.idle();
    expect(calls).toEqual(['turn', 'turn']);
    expect(await core.api.memory.list()).toEqual([]);
    expect(await core.api.memory.digestedThrough(first)).toBe(-1);
  });

  it('memory switched off for a chat being digested stops the request and stores nothing', async () => {
    let digestStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (digestStarted = resolve));
    let digestSignal: AbortSignal | undefined;
    core = testCore({
      providers: {
        fetch: async (_input, init) => {
          const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
          if (body.response_format) {
            digestSignal = init?.signal ?? undefined;
            digestStarted();
            return new Promise<Response>((_resolve, reject) =>
              init?.signal?.addEventListener('abort', () =>
                reject(new DOMException('Stopped', 'AbortError')),
              ),
            );
          }
          const chunk = JSON.stringify({
            choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }],
          });
          return new Response(`data: ${chunk}\n\ndata: [DONE]\n\n`);
        },
      },
    });
    await core.api.providers.create({ preset: 'openai', base_url: 'http://provider.test/v1' });
    const first = await ask('I am vegetarian.');
    await ask('New topic');
    await started;
    await core.api.memory.setConversationMemory({ conversation_id: first, enabled: false });
    await core.api.chat.idle();
    expect(digestSignal?.aborted).toBe(true);
    expect(await core.api.memory.list()).toEqual([]);
    expect(await core.api.memory.digestedThrough(first)).toBe(-1);
  });
});
