import { describe, expect, it } from 'vitest';
import { MetonaProviderError, type MetonaRequest, type MetonaStreamEvent } from '../../ir';
import { runStream } from './stream-driver';
import type { StreamPart } from './stream-parts';

const request: MetonaRequest = {
  meta: { sessionId: 's_1', iteration: 2, requestId: 'r_1', timestamp: 0, agentVersion: 'test' },
  systemPrompt: { roleDefinition: 'r', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content: 'hi', timestamp: 0 }],
  params: { stream: true },
};

async function* parts(list: StreamPart[], tail?: () => Promise<void>): AsyncGenerator<StreamPart> {
  for (const part of list) yield part;
  await tail?.();
}

function run(list: StreamPart[], extra: { signal?: AbortSignal; tail?: () => Promise<void> } = {}) {
  const events: MetonaStreamEvent[] = [];
  let clock = 1000;
  const promise = runStream({
    request,
    provider: 'p',
    model: 'm',
    onEvent: (event) => events.push(event),
    clock: () => (clock += 10),
    signal: extra.signal,
    open: async () => parts(list, extra.tail),
  });
  return { events, promise };
}

describe('runStream', () => {
  it('stamps the envelope, wraps reasoning in thinking_start/end and puts usage before done', async () => {
    const { events, promise } = run([
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } },
      { type: 'reasoning_delta', delta: 'hmm' },
      { type: 'reasoning_delta', delta: '…' },
      { type: 'text_delta', delta: 'Hi' },
      { type: 'tool_call_delta', toolCallDelta: { index: 0, name: 'f', argsDelta: '{}' } },
      { type: 'tool_call_complete', toolCall: { id: 'c1', name: 'f', args: {} } },
      { type: 'usage', usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, reasoningTokens: 2 } },
      { type: 'finish', finishReason: 'tool_calls', model: 'm-2024' },
    ]);
    const response = await promise;
    expect(events.map((e) => e.type)).toEqual([
      'thinking_start',
      'reasoning_delta',
      'reasoning_delta',
      'thinking_end',
      'text_delta',
      'tool_call_delta',
      'tool_call_complete',
      'usage',
      'done',
    ]);
    expect(events.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.every((e) => e.requestId === 'r_1' && e.sessionId === 's_1' && e.iteration === 2)).toBe(
      true,
    );
    expect(response).toMatchObject({
      content: 'Hi',
      reasoningContent: 'hmm…',
      toolCalls: [{ id: 'c1', name: 'f', args: {}, iteration: 2 }],
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7, reasoningTokens: 2 },
      finishReason: 'tool_calls',
      meta: { requestId: 'r_1', provider: 'p', model: 'm-2024' },
    });
  });

  it('ends with one error event and rejects on an error part', async () => {
    const { events, promise } = run([
      { type: 'reasoning_delta', delta: 'a' },
      { type: 'error', error: { code: 'parse_error', message: 'bad', retryable: false } },
      { type: 'text_delta', delta: 'never' },
    ]);
    await expect(promise).rejects.toBeInstanceOf(MetonaProviderError);
    expect(events.map((e) => e.type)).toEqual(['thinking_start', 'reasoning_delta', 'thinking_end', 'error']);
  });

  it('a stream without its end marker is an interrupted stream', async () => {
    const { events, promise } = run([{ type: 'text_delta', delta: 'Hel' }]);
    await expect(promise).rejects.toMatchObject({
      code: 'network_error',
      providerCode: 'stream_interrupted',
    });
    expect(events.at(-1)?.type).toBe('error');
  });

  it('a network failure while reading is an interrupted stream', async () => {
    const { promise } = run([{ type: 'text_delta', delta: 'Hel' }], {
      tail: async () => {
        throw new TypeError('terminated');
      },
    });
    await expect(promise).rejects.toMatchObject({
      code: 'network_error',
      providerCode: 'stream_interrupted',
    });
  });

  it('an abort ends a stalled stream at once with user_aborted', async () => {
    const controller = new AbortController();
    const { events, promise } = run([{ type: 'text_delta', delta: 'Hel' }], {
      signal: controller.signal,
      tail: () => new Promise(() => undefined), // the wire never answers again
    });
    setTimeout(() => controller.abort(), 20);
    await expect(promise).rejects.toMatchObject({ code: 'user_aborted' });
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error']);
  });

  it('an HTTP failure from open() becomes the single error event', async () => {
    const events: MetonaStreamEvent[] = [];
    const promise = runStream({
      request,
      provider: 'p',
      model: 'm',
      onEvent: (event) => events.push(event),
      open: async () => {
        throw new MetonaProviderError({ code: 'auth_invalid', message: 'no', retryable: false });
      },
    });
    await expect(promise).rejects.toMatchObject({ code: 'auth_invalid' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', seq: 0, error: { code: 'auth_invalid' } });
  });

  it('takes parts in batches (one per network read) with the same events as one by one', async () => {
    const list: StreamPart[] = [
      { type: 'reasoning_delta', delta: 'hmm' },
      { type: 'text_delta', delta: 'Hi' },
      { type: 'text_delta', delta: '!' },
      { type: 'finish', finishReason: 'stop' },
      { type: 'text_delta', delta: 'after the end' },
    ];
    const single = run(list);
    const events: MetonaStreamEvent[] = [];
    let clock = 1000;
    const batched = await runStream({
      request,
      provider: 'p',
      model: 'm',
      onEvent: (event) => events.push(event),
      clock: () => (clock += 10),
      open: async () =>
        (async function* () {
          yield list.slice(0, 2);
          yield list.slice(2);
        })(),
    });
    expect(batched).toEqual(await single.promise);
    expect(events).toEqual(single.events);
    expect(batched.content).toBe('Hi!');
  });

  it('stops inside a batch when onEvent presses Stop', async () => {
    const controller = new AbortController();
    const events: MetonaStreamEvent[] = [];
    const promise = runStream({
      request,
      provider: 'p',
      model: 'm',
      signal: controller.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'text_delta') controller.abort();
      },
      open: async () =>
        (async function* () {
          yield [
            { type: 'text_delta', delta: 'a' },
            { type: 'text_delta', delta: 'b' },
            { type: 'finish', finishReason: 'stop' },
          ] satisfies StreamPart[];
        })(),
    });
    await expect(promise).rejects.toBeInstanceOf(MetonaProviderError);
    expect(events.map((e) => e.type)).toEqual(['text_delta', 'error']);
    expect(events[1]).toMatchObject({ error: { code: 'user_aborted' } });
  });
});
