import { describe, expect, it } from 'vitest';
import type { MetonaRequest, MetonaResponse, MetonaStreamEvent } from '../../ir';
import { MockAdapter } from './adapter';
import { mockScenarios } from './scenarios';

const request = (content = 'hi'): MetonaRequest => ({
  meta: { sessionId: 's', iteration: 1, requestId: 'r', timestamp: 0, agentVersion: 'test' },
  systemPrompt: { roleDefinition: '', outputConstraints: '', safetyGuidelines: '' },
  messages: [{ role: 'user', content, timestamp: 0 }],
  params: { stream: true },
});

async function play(
  adapter: MockAdapter,
  content?: string,
  signal?: AbortSignal,
): Promise<{ events: MetonaStreamEvent[]; response?: MetonaResponse; error?: unknown }> {
  const events: MetonaStreamEvent[] = [];
  const result = await adapter
    .sendStream(request(content), (event) => events.push(event), { signal })
    .then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
  return { events, ...result };
}

describe('MockAdapter', () => {
  it('loads every built-in scenario', () => {
    expect(Object.keys(mockScenarios)).toContain('text');
    expect(Object.keys(mockScenarios).length).toBeGreaterThanOrEqual(13);
  });

  it('plays the default text scenario as provider mock / model mock-1', async () => {
    const { response } = await play(new MockAdapter());
    expect(response).toMatchObject({
      content: 'Hello! How can I help you today?',
      finishReason: 'stop',
      usage: { inputTokens: 12, outputTokens: 8, totalTokens: 20 },
      meta: { provider: 'mock', model: 'mock-1' },
    });
  });

  it('picks a scenario with /scenario and assembles its tool calls', async () => {
    const { response, events } = await play(new MockAdapter(), '/scenario tool-calls-parallel');
    expect(response?.toolCalls?.map((call) => [call.name, call.args])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_time', { timezone: 'Europe/Paris' }],
    ]);
    expect(events.filter((e) => e.type === 'tool_call_delta')[0]?.toolCallDelta).toEqual({
      index: 0,
      name: 'get_weather',
    });
  });

  it('plays errors with their retry data', async () => {
    const { error, events } = await play(new MockAdapter({ scenario: 'http-429' }));
    expect(error).toMatchObject({ code: 'rate_limited', retryable: true, retryAfterMs: 2000 });
    expect(events.map((e) => e.type)).toEqual(['error']);
  });

  it('stops a slow scenario on abort, without waiting for its delays', async () => {
    // The delay before the first chunk passes; every later one lasts until the abort, so only
    // the abort can end the stream.
    let passes = 1;
    const sleep = (_ms: number, signal?: AbortSignal) =>
      passes-- > 0
        ? Promise.resolve()
        : new Promise<void>((_resolve, reject) => {
            const abort = () => reject(new DOMException('Aborted', 'AbortError'));
            if (signal?.aborted) abort();
            signal?.addEventListener('abort', abort, { once: true });
          });
    const controller = new AbortController();
    const adapter = new MockAdapter({ scenario: 'slow-text', sleep });
    const events: MetonaStreamEvent[] = [];
    const error = await adapter
      .sendStream(
        request(),
        (event) => {
          events.push(event);
          if (event.type === 'text_delta') controller.abort();
        },
        { signal: controller.signal },
      )
      .then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
    expect(error).toMatchObject({ code: 'user_aborted' });
    expect(events.at(-1)?.type).toBe('error');
    expect(events.filter((e) => e.type === 'text_delta')).toHaveLength(1);
  });

  it('rejects an unknown scenario name', () => {
    expect(() => new MockAdapter({ scenario: 'nope' })).toThrow(/Unknown mock scenario/);
  });

  it('skips its reasoning when the request turns thinking off, and thinks otherwise', async () => {
    const adapter = new MockAdapter({ scenario: 'reasoning' });
    const thinking = await adapter.send(request());
    expect(thinking.reasoningContent).toBeTruthy();
    const off = await adapter.send({ ...request(), params: { stream: true, thinkingEnabled: false } });
    expect(off.reasoningContent ?? '').toBe('');
    expect(off.content).toBe(thinking.content);
  });
});
