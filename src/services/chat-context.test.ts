import { afterEach, describe, expect, it } from 'vitest';
import { estimateTextTokens } from '../agent';
import { testCore } from './test-core';

type Core = ReturnType<typeof testCore>;
const cores: Core[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

interface WireBody {
  messages: Array<{ role: string; content: string }>;
}

const SENTENCE = 'The quick brown fox studies operating systems and deadlock detection every evening. ';

/**
 * A local OpenAI-compatible model with an unknown name (so a 4,096-token
 * window) that records every request: summary requests get a short summary,
 * the rest a ~150-token answer. With `rejectOver` it answers
 * context_length_exceeded above that many estimated tokens, as a server does.
 */
function recordingFetch(options: { rejectOver?: number } = {}) {
  const bodies: WireBody[] = [];
  let rejected = 0;
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.endsWith('/models')) return Response.json({ object: 'list', data: [{ id: 'tiny-local' }] });
    const body = JSON.parse(String(init?.body)) as WireBody;
    bodies.push(body);
    const tokens = body.messages.reduce((sum, m) => sum + estimateTextTokens(m.content ?? '') + 4, 0);
    if (options.rejectOver !== undefined && tokens > options.rejectOver && rejected === 0) {
      rejected += 1;
      return Response.json(
        {
          error: {
            message: `This model's maximum context length is ${options.rejectOver} tokens.`,
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
          },
        },
        { status: 400 },
      );
    }
    const isSummary = body.messages.some((m) => m.role === 'system' && m.content.includes('You compress'));
    const text = isSummary ? 'Summary: the user practised deadlock questions.' : SENTENCE.repeat(7);
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: text }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ].map(
      (chunk) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'tiny-local', ...chunk })}\n\n`,
    );
    return new Response(`${chunks.join('')}data: [DONE]\n\n`, {
      headers: { 'Content-Type': 'text/event-stream' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, bodies, rejections: () => rejected };
}

function requestTokens(body: WireBody): number {
  return body.messages.reduce((sum, m) => sum + estimateTextTokens(m.content ?? '') + 4, 0);
}

async function setUp(fetch: typeof globalThis.fetch) {
  const core = testCore({ providers: { fetch, router: { sleep: async () => undefined } } });
  cores.push(core);
  await core.api.providers.create({
    provider_id: 'local',
    preset: 'custom',
    display_name: 'Local',
    base_url: 'http://127.0.0.1:9/v1',
    default_model: 'tiny-local',
  });
  return core;
}

type ChatApi = Awaited<ReturnType<typeof setUp>>['api']['chat'];

/** Asks `count` long questions in one conversation, each answered in full; returns its id. */
async function askTurns(chat: ChatApi, count: number): Promise<string> {
  let conversationId: string | undefined;
  for (let turn = 1; turn <= count; turn++) {
    const answer = await chat.complete({
      content: `Question ${turn}: ${SENTENCE.repeat(4)}`,
      provider_id: 'local',
      ...(conversationId && { conversation_id: conversationId }),
    });
    expect(answer.status).toBe('completed');
    conversationId = answer.conversation_id;
  }
  return conversationId!;
}

describe('long chats on a 4,096-token model', () => {
  it('completes 120 turns; no request exceeds the window; older messages are summarised', async () => {
    const remote = recordingFetch();
    const core = await setUp(remote.fetch);
    const { chat } = core.api;
    const conversationId = await askTurns(chat, 120);
    const sizes = remote.bodies.map(requestTokens);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4096);
    const summaries = remote.bodies.filter((b) => b.messages.some((m) => m.content.includes('You compress')));
    expect(summaries.length).toBeGreaterThan(0);
    // Far fewer summaries than turns: the summary is reused until usage passes 0.8 again.
    expect(summaries.length).toBeLessThan(40);
    const last = remote.bodies.at(-1)!;
    expect(last.messages.some((m) => m.content.includes('Summary of the earlier conversation'))).toBe(true);
    expect(last.messages.at(-1)!.content).toContain('Question 120');
    const notice = await chat.contextNotice(conversationId);
    expect(notice).toMatchObject({ mode: 'summary' });
    expect(notice!.through_position).toBeGreaterThan(100);
  });

  it('compresses once and retries when the provider says the context is too long', async () => {
    const remote = recordingFetch({ rejectOver: 1200 });
    const core = await setUp(remote.fetch);
    const { chat } = core.api;
    const conversationId = await askTurns(chat, 6);
    expect(remote.rejections()).toBe(1);
    expect(await chat.contextNotice(conversationId)).not.toBeNull();
  });

  it('a conversation that fits has no notice', async () => {
    const remote = recordingFetch();
    const core = await setUp(remote.fetch);
    const answer = await core.api.chat.complete({ content: 'Hi', provider_id: 'local' });
    expect(await core.api.chat.contextNotice(answer.conversation_id)).toBeNull();
  });
});
