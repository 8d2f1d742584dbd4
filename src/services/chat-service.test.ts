import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../contracts';
import { ReplayServer } from '../providers/conformance/replay-server';
import type { DeviceProbe } from '../models/device-check';
import {
  WebLlmEngineDouble,
  textScript,
  type EngineDoubleOptions,
} from '../providers/webllm/__fixtures__/engine-double';
import { WebLlmWorkerHost } from '../providers/webllm/worker-host';
import { DEFAULT_RETRIEVAL_PROFILE } from '../retrieval';
import { thinkingOf } from './chat-service';
import { firstSourceTitle, formatSources } from './notes-context';
import { testCore } from './test-core';

const KEY = 'sk-replay-SECRET-42';
const fixture = (name: string) =>
  fileURLToPath(new URL(`../providers/openai-compatible/__fixtures__/${name}.chunks.txt`, import.meta.url));
const instant = async (_ms: number, signal?: AbortSignal) => signal?.throwIfAborted();

async function eventsOf(core: ReturnType<typeof testCore>, turnId: string): Promise<EventEnvelope[]> {
  return (await core.api.events.list(turnId, { limit: 1000 })).items;
}

describe('ChatService', () => {
  let core: ReturnType<typeof testCore>;
  let server: ReplayServer | undefined;
  afterEach(async () => {
    await core?.api.chat.idle();
    await core?.close();
    await server?.stop();
    server = undefined;
  });

  it('chats with the default mock provider: thinking, text, usage, persisted events and messages', async () => {
    core = testCore();
    const turn = await core.api.chat.send({ content: 'Hello' });
    expect(turn.assistant_message).toMatchObject({
      status: 'streaming',
      provider_id: 'mock',
      model: 'mock-1',
    });
    const seen: EventEnvelope[] = [];
    const subscription = core.api.events.subscribe(turn.turn_id, 0, (event) => seen.push(event));
    const message = await core.api.chat.settled(turn.turn_id);
    await subscription.closed;

    expect(message).toMatchObject({
      status: 'completed',
      finish_reason: 'stop',
      provider_id: 'mock',
      model: 'mock-1',
      usage: { output_tokens: 48 },
    });
    expect(message.content).toContain('**mock**');
    expect(message.reasoning_content).toContain('demo model');
    expect(message.reasoning_duration_ms).toBeGreaterThanOrEqual(0);
    expect(message.tokens_per_second).toBeGreaterThan(0);
    expect(message.latency_ms).toBeGreaterThan(0);

    const names = seen.map((event) => event.event);
    expect(names[0]).toBe('ThinkingDelta');
    expect(names).toContain('TextDelta');
    expect(names).toContain('Usage');
    expect(names.at(-1)).toBe('Done');
    expect(names.filter((name) => name === 'Done')).toHaveLength(1);
    expect(seen.map((event) => event.sequence)).toEqual([...seen.keys()].map((index) => index + 1));
    expect(await eventsOf(core, turn.turn_id)).toEqual(seen);

    const detail = await core.api.chat.getConversation(turn.conversation_id);
    expect(detail.messages.map((row) => [row.role, row.status])).toEqual([
      ['user', 'completed'],
      ['assistant', 'completed'],
    ]);
    expect((await core.api.chat.listConversations()).items[0]?.title).toBe('Hello');
  });

  it('replays events after a sequence', async () => {
    core = testCore();
    const turn = await core.api.chat.send({ content: 'Hi' });
    await core.api.chat.settled(turn.turn_id);
    const all = await eventsOf(core, turn.turn_id);
    const later: EventEnvelope[] = [];
    await core.api.events.subscribe(turn.turn_id, 2, (event) => later.push(event)).closed;
    expect(later).toEqual(all.slice(2));
  });

  it('validates input and reports missing conversations', async () => {
    core = testCore();
    await expect(core.api.chat.send({ content: '   ' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(core.api.chat.send({ content: 'x', provider_id: 'Bad Id' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(core.api.chat.send({ content: 'x', conversation_id: 'nope' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    await expect(core.api.chat.send({ content: 'x', provider_id: 'nope' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    await expect(core.api.chat.getConversation('nope')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('refuses a second turn while one is running in the same conversation, and a disabled provider', async () => {
    core = testCore();
    const turn = await core.api.chat.send({ content: '/scenario long' });
    await expect(
      core.api.chat.send({ conversation_id: turn.conversation_id, content: 'again' }),
    ).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
    await expect(core.api.chat.deleteConversation(turn.conversation_id)).rejects.toMatchObject({
      code: 'STATE_CONFLICT',
    });
    await core.api.chat.cancel(turn.turn_id);
    await core.api.chat.settled(turn.turn_id);
    await core.api.providers.patch('mock', { enabled: false });
    await expect(core.api.chat.send({ content: 'x' })).rejects.toMatchObject({ code: 'STATE_CONFLICT' });
  });

  it('cancels: the stream stops where Stop came, Done cancelled, partial answer kept', async () => {
    // The `long` scenario pauses before each chunk: two reasoning chunks, then text. The first three
    // pauses pass; the next one waits until the cancel aborts it, so exactly one text chunk is sent.
    let passes = 3;
    const sleep = (_ms: number, signal?: AbortSignal) =>
      passes-- > 0
        ? Promise.resolve()
        : new Promise<void>((_resolve, reject) => {
            const abort = () => reject(new DOMException('Aborted', 'AbortError'));
            if (signal?.aborted) abort();
            signal?.addEventListener('abort', abort, { once: true });
          });
    core = testCore({ providers: { sleep } });
    const turn = await core.api.chat.send({ content: '/scenario long' });
    const seen: EventEnvelope[] = [];
    let textArrived!: () => void;
    const firstText = new Promise<void>((resolve) => (textArrived = resolve));
    const subscription = core.api.events.subscribe(turn.turn_id, 0, (event) => {
      seen.push(event);
      if (event.event === 'TextDelta') textArrived();
    });
    await firstText;
    await core.api.chat.cancel(turn.turn_id);
    const message = await core.api.chat.settled(turn.turn_id);
    await subscription.closed;
    expect(message.status).toBe('cancelled');
    expect(message.content).toBe('1 ');
    const names = seen.map((event) => event.event);
    expect(names.filter((name) => name === 'TextDelta')).toHaveLength(1);
    expect(names.indexOf('TextDelta')).toBeLessThan(names.indexOf('Done'));
    expect(seen.at(-1)).toMatchObject({ event: 'Done', data: { status: 'cancelled' } });
    expect(await eventsOf(core, turn.turn_id)).toEqual(seen);

    // Retry answers the same question again in a new turn.
    const retried = await core.api.chat.retry(turn.conversation_id);
    await core.api.chat.cancel(retried.turn_id);
    await core.api.chat.settled(retried.turn_id);
    const detail = await core.api.chat.getConversation(turn.conversation_id);
    expect(detail.messages).toHaveLength(2);
  });

  it('fails at runtime: Error then Done failed, persisted, no retry of a non-retryable error', async () => {
    core = testCore({ providers: { router: { sleep: instant } } });
    const turn = await core.api.chat.send({ content: '/scenario http-401' });
    const message = await core.api.chat.settled(turn.turn_id);
    expect(message).toMatchObject({ status: 'failed', error: { code: 'PROVIDER_AUTH_FAILED' } });
    const events = await eventsOf(core, turn.turn_id);
    expect(events.map((event) => event.event).slice(-2)).toEqual(['Error', 'Done']);
    expect(events.at(-1)?.data).toMatchObject({ status: 'failed', error_code: 'PROVIDER_AUTH_FAILED' });
    expect((await core.api.chat.getConversation(turn.conversation_id)).messages[1]?.status).toBe('failed');
  });

  it('chats through an OpenAI-compatible provider on a local replay server; the key never leaks', async () => {
    server = new ReplayServer((path) =>
      path.endsWith('/chat/completions') ? { file: fixture('openai-text'), framing: 'sse' } : undefined,
    );
    await server.start();
    core = testCore();
    await core.api.providers.create({ preset: 'openai', base_url: `${server.url}/v1`, api_key: KEY });
    const message = await core.api.chat.complete({ content: 'Say hi', provider_id: 'openai' });
    expect(message).toMatchObject({ status: 'completed', provider_id: 'openai', finish_reason: 'stop' });
    expect(message.content.length).toBeGreaterThan(0);
    expect(server.lastRequest('/v1/chat/completions')?.headers.authorization).toBe(`Bearer ${KEY}`);

    const everything = JSON.stringify([
      await core.api.providers.list(),
      await core.api.chat.getConversation(message.conversation_id),
      await eventsOf(core, message.message_id),
      await core.db.events.toArray(),
      await core.db.messages.toArray(),
      await core.db.providers.toArray(),
    ]);
    expect(everything).not.toContain(KEY);
  });

  it('cancelling aborts the upstream fetch', async () => {
    server = new ReplayServer(() => ({ file: fixture('openai-slow-text'), framing: 'sse' }));
    await server.start();
    core = testCore();
    await core.api.providers.create({ preset: 'openai', base_url: `${server.url}/v1` });
    const turn = await core.api.chat.send({ content: 'Count', provider_id: 'openai' });
    // Cancel once the answer is streaming, i.e. the upstream request is open.
    let textArrived!: () => void;
    const firstText = new Promise<void>((resolve) => (textArrived = resolve));
    const subscription = core.api.events.subscribe(turn.turn_id, 0, (event) => {
      if (event.event === 'TextDelta') textArrived();
    });
    await firstText;
    await core.api.chat.cancel(turn.turn_id);
    expect((await core.api.chat.settled(turn.turn_id)).status).toBe('cancelled');
    await subscription.closed;
    const request = server.lastRequest('/v1/chat/completions')!;
    await request.closed;
    expect(request.completed).toBe(false);
  });

  it('fails over to the configured fallback after retries and says so', async () => {
    server = new ReplayServer(() => ({ file: fixture('openai-http-500'), framing: 'sse' }));
    await server.start();
    core = testCore({ providers: { router: { sleep: instant } } });
    await core.api.providers.create({
      preset: 'openai',
      base_url: `${server.url}/v1`,
      fallback: { provider_id: 'mock', model: 'mock-1' },
    });
    const turn = await core.api.chat.send({ content: 'Hello', provider_id: 'openai' });
    const message = await core.api.chat.settled(turn.turn_id);
    expect(message).toMatchObject({ status: 'completed', provider_id: 'mock', model: 'mock-1' });
    const events = await eventsOf(core, turn.turn_id);
    expect(events.find((event) => event.event === 'ProviderSwitched')?.data).toMatchObject({
      from: { provider_id: 'openai' },
      to: { provider_id: 'mock', model: 'mock-1' },
    });
    expect(events.at(-1)).toMatchObject({ event: 'Done', data: { provider: 'mock', model: 'mock-1' } });
    expect(server.requests.length).toBe(4);
  });

  it('keeps what failed behind a provider error with the message: a 5xx is a server that answered', async () => {
    server = new ReplayServer(() => ({ file: fixture('openai-http-500'), framing: 'sse' }));
    await server.start();
    core = testCore({ providers: { router: { sleep: instant } } });
    await core.api.providers.create({ preset: 'openai', base_url: `${server.url}/v1` });
    const turn = await core.api.chat.send({ content: 'Hello', provider_id: 'openai' });
    const message = await core.api.chat.settled(turn.turn_id);
    expect(message.status).toBe('failed');
    expect(message.error).toMatchObject({ code: 'PROVIDER_UNAVAILABLE', metona_code: 'model_overloaded' });
    const events = await eventsOf(core, turn.turn_id);
    expect(events.find((event) => event.event === 'Error')?.data).toMatchObject({
      metona_code: 'model_overloaded',
    });
  });

  it('marks a turn a closed tab left streaming as failed on recovery', async () => {
    core = testCore();
    const turn = await core.api.chat.send({ content: '/scenario long' });
    await core.api.chat.cancel(turn.turn_id);
    await core.api.chat.settled(turn.turn_id);
    const row = (await core.db.messages.get(turn.turn_id))!;
    await core.db.messages.put({ ...row, status: 'streaming' });
    await core.db.events
      .where('[resource_id+sequence]')
      .between([turn.turn_id, 0], [turn.turn_id, 1e9])
      .delete();
    await core.api.chat.recover();
    expect((await core.db.messages.get(turn.turn_id))?.status).toBe('failed');
  });

  describe('use_notes (Ask your notes)', () => {
    it('publishes one Citation per source, in order, before the answer, and stores them', async () => {
      core = testCore({ providers: { sleep: instant } });
      const kernel = await core.api.notes.create({
        title: 'Kernel notes',
        body: 'The zephyrine scheduler picks the next task every 4 ms.\n\nMemory uses paging.',
      });
      await core.api.notes.create({ title: 'Zephyrine', body: 'Zephyrine is also a mineral.' });
      await core.api.notes.create({ title: 'Cooking', body: 'Braise the pork belly slowly.' });

      const turn = await core.api.chat.send({ content: 'What does zephyrine do?', use_notes: true });
      const stored = turn.assistant_message.citations ?? [];
      expect(stored.length).toBeGreaterThanOrEqual(2);
      expect(stored.length).toBeLessThanOrEqual(DEFAULT_RETRIEVAL_PROFILE.context_top_k);
      expect(stored.map((citation) => citation.index)).toEqual(stored.map((_, index) => index + 1));
      expect(stored.map((citation) => citation.note_id)).not.toContain(undefined);
      expect(stored.some((citation) => citation.note_id === kernel.note_id)).toBe(true);
      expect(stored.every((citation) => citation.block_id !== '' && citation.snippet !== '')).toBe(true);

      const message = await core.api.chat.settled(turn.turn_id);
      expect(message.status).toBe('completed');
      expect(message.citations).toEqual(stored);
      expect(message.content).toContain(`“${stored[0]!.title}”`);
      expect(message.content).toContain('[1]');

      const events = await eventsOf(core, turn.turn_id);
      const names = events.map((event) => event.event);
      const citations = events.filter((event) => event.event === 'Citation');
      expect(citations.map((event) => event.data)).toEqual(stored);
      expect(names.slice(0, stored.length)).toEqual(stored.map(() => 'Citation'));
      expect(names.indexOf('TextDelta')).toBeGreaterThan(names.lastIndexOf('Citation'));

      const detail = await core.api.chat.getConversation(turn.conversation_id);
      expect(detail.messages[1]?.citations).toEqual(stored);
    });

    it('puts numbered sources with a citing instruction into the system prompt', async () => {
      const sources = [
        { note_id: 'n1', block_id: 'b1', title: 'A', snippet: 's', start_line: 0, text: 'first\nblock' },
        { note_id: 'n2', block_id: 'b2', title: '', snippet: 's', start_line: 2, text: 'second' },
      ];
      const section = formatSources(sources);
      expect(section).toContain('[1] A \u2014 first block');
      expect(section).toContain('[2] Untitled \u2014 second');
      expect(section).toMatch(/cite .* as \[n\]/);
      expect(firstSourceTitle(section)).toBe('A');
      expect(firstSourceTitle('no sources here')).toBeUndefined();
    });

    it('sends no citations when there is no source, or without use_notes', async () => {
      core = testCore({ providers: { sleep: instant } });
      const none = await core.api.chat.send({ content: 'What is the scheduler?', use_notes: true });
      const noneMessage = await core.api.chat.settled(none.turn_id);
      expect(noneMessage.citations).toEqual([]);
      expect(noneMessage.content).toContain('**mock**');
      expect((await eventsOf(core, none.turn_id)).map((event) => event.event)).not.toContain('Citation');

      await core.api.notes.create({ title: 'Kernel', body: 'The scheduler picks the next task.' });
      // Notes exist but none is about the question: no invented sources.
      const unrelated = await core.api.chat.send({ content: 'braised pork recipe', use_notes: true });
      expect((await core.api.chat.settled(unrelated.turn_id)).citations).toEqual([]);
      const plain = await core.api.chat.send({ content: 'scheduler', conversation_id: none.conversation_id });
      const plainMessage = await core.api.chat.settled(plain.turn_id);
      expect(plainMessage.citations ?? []).toEqual([]);
      expect((await eventsOf(core, plain.turn_id)).map((event) => event.event)).not.toContain('Citation');
    });

    it('a retried answer asks the notes again: fresh citations, published and stored', async () => {
      core = testCore({ providers: { sleep: instant } });
      const first = await core.api.notes.create({
        title: 'Scenario planning',
        body: 'A long scenario needs a plan.',
      });
      const turn = await core.api.chat.send({ content: '/scenario long', use_notes: true });
      expect(turn.assistant_message.citations?.map((citation) => citation.note_id)).toEqual([first.note_id]);
      await core.api.chat.cancel(turn.turn_id);
      await core.api.chat.settled(turn.turn_id);
      // A note written meanwhile is found by the retry's new search.
      const second = await core.api.notes.create({
        title: 'Long scenario',
        body: 'The long scenario streams slowly.',
      });

      const retried = await core.api.chat.retry(turn.conversation_id);
      const cited = retried.assistant_message.citations ?? [];
      expect(cited.map((citation) => citation.note_id).sort()).toEqual(
        [first.note_id, second.note_id].sort(),
      );
      expect(cited.map((citation) => citation.index)).toEqual([1, 2]);
      await core.api.chat.cancel(retried.turn_id);
      const message = await core.api.chat.settled(retried.turn_id);
      expect(message.citations).toEqual(cited);
      const events = await eventsOf(core, retried.turn_id);
      expect(events.filter((event) => event.event === 'Citation').map((event) => event.data)).toEqual(cited);

      // A conversation that did not ask the notes does not start to on retry.
      const plain = await core.api.chat.send({ content: '/scenario long' });
      await core.api.chat.cancel(plain.turn_id);
      await core.api.chat.settled(plain.turn_id);
      const plainRetry = await core.api.chat.retry(plain.conversation_id);
      expect(plainRetry.assistant_message.citations).toBeUndefined();
      await core.api.chat.cancel(plainRetry.turn_id);
      await core.api.chat.settled(plainRetry.turn_id);
    });

    it('validates use_notes', async () => {
      core = testCore();
      await expect(
        core.api.chat.send({ content: 'x', use_notes: 'yes' as unknown as boolean }),
      ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });
  });
});

describe('ChatService with a local model that must load first', () => {
  const LOCAL = 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC';
  let core: ReturnType<typeof testCore>;
  afterEach(async () => {
    await core?.api.chat.idle();
    await core?.close();
  });

  /** The web-llm worker host in-thread over the engine double, the model already downloaded. */
  function localCore(options: EngineDoubleOptions = {}) {
    const engine = new WebLlmEngineDouble({
      script: (request) => textScript(request.model!, ['Hello', ' there']),
      ...options,
    });
    engine.cache.seed(LOCAL, 100);
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
    const gpu: DeviceProbe['gpu'] = {
      requestAdapter: async () => ({
        features: new Set<string>(),
        limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 30 },
      }),
    };
    core = testCore({
      localModels: () => ({ client: host, device: { gpu } }),
      providers: { router: { sleep: instant } },
    });
    return { engine };
  }

  async function turnOf(content: string, conversationId?: string) {
    const turn = await core.api.chat.send({
      content,
      provider_id: 'webllm',
      model: LOCAL,
      ...(conversationId && { conversation_id: conversationId }),
    });
    const message = await core.api.chat.settled(turn.turn_id);
    return { turn, message, events: await eventsOf(core, turn.turn_id) };
  }

  it('publishes ModelLoading while the model loads, then the text, then Done; not again once loaded', async () => {
    localCore();
    const first = await turnOf('Hi');
    expect(first.message).toMatchObject({ status: 'completed', content: 'Hello there' });
    const names = first.events.map((event) => event.event);
    const loading = first.events.filter((event) => event.event === 'ModelLoading');
    // Every ModelLoading comes before any output; then deltas, usage and exactly one Done.
    expect(names.lastIndexOf('ModelLoading')).toBeLessThan(names.indexOf('TextDelta'));
    expect(names.slice(loading.length)).toEqual(['TextDelta', 'TextDelta', 'Usage', 'Done']);
    expect(loading.map((event) => event.data)).toEqual([
      // The worker's own report, at once; web-llm's own 0 % adds nothing and is not published.
      { provider: 'webllm', model: LOCAL, progress: 0, text: 'Starting to load the model' },
      ...[0.25, 0.5, 0.75, 1].map((progress) => ({
        provider: 'webllm',
        model: LOCAL,
        progress,
        text: expect.stringMatching(/^Loading model from cache\[\d\/4\]/),
      })),
      { provider: 'webllm', model: LOCAL, progress: 0.5, text: expect.stringMatching(/^Loading GPU shader/) },
      { provider: 'webllm', model: LOCAL, progress: 1, text: expect.stringMatching(/^Finish loading/) },
    ]);
    // The model stays loaded: the next turn streams at once.
    const second = await turnOf('Again', first.turn.conversation_id);
    expect(second.events.map((event) => event.event)).not.toContain('ModelLoading');
    expect(second.message.status).toBe('completed');
  });

  it('publishes one ModelLoading per whole percent, however often web-llm reports', async () => {
    const { engine } = localCore();
    const reload = engine.reload.bind(engine);
    let report: ((progress: number) => void) | undefined;
    engine.setInitProgressCallback = (callback) => {
      report = (progress) => callback({ progress, timeElapsed: 0, text: 'Loading model from cache' });
    };
    engine.reload = async (modelId) => {
      for (let i = 0; i <= 1000; i++) report?.(i / 1000);
      return reload(modelId);
    };
    const { events } = await turnOf('Hi');
    const percents = events
      .filter((event) => event.event === 'ModelLoading')
      .map((event) => Math.floor((event.data as { progress: number }).progress * 100));
    expect(percents).toEqual([...Array(101).keys()]);
  });

  it('Stop during loading aborts the load: Done cancelled, no text, the model not left loaded', async () => {
    const { engine } = localCore({ loadStepDelayMs: 300 });
    const turn = await core.api.chat.send({ content: 'Hi', provider_id: 'webllm', model: LOCAL });
    let stopped = false;
    const subscription = core.api.events.subscribe(turn.turn_id, 0, (event) => {
      // Stop once web-llm is loading (its first report past 0 %).
      const progress = (event.data as { progress?: number }).progress ?? 0;
      if (event.event === 'ModelLoading' && progress > 0 && !stopped) {
        stopped = true;
        void core.api.chat.cancel(turn.turn_id);
      }
    });
    const message = await core.api.chat.settled(turn.turn_id);
    await subscription.closed;
    expect(message).toMatchObject({ status: 'cancelled', content: '' });
    const events = await eventsOf(core, turn.turn_id);
    const names = events.map((event) => event.event);
    // The load was aborted where it was, not waited for: it never reached 100 %.
    const progresses = events
      .filter((event) => event.event === 'ModelLoading')
      .map((event) => (event.data as { progress: number }).progress);
    expect(progresses).not.toContain(1);
    expect(names).not.toContain('TextDelta');
    expect(names.at(-1)).toBe('Done');
    expect(events.at(-1)?.data).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => engine.unloads).toBe(1);
    expect(engine.requests).toHaveLength(0);
  });

  it('a load failure keeps the clear error: Error then Done failed', async () => {
    localCore({ reloadError: new TypeError('Failed to fetch') });
    const { message, events } = await turnOf('Hi');
    expect(message).toMatchObject({ status: 'failed', content: '' });
    expect(message.error?.message).toMatch(/unreachable \(offline\?\)/);
    expect(events.map((event) => event.event).slice(-2)).toEqual(['Error', 'Done']);
    expect(events.at(-1)?.data).toMatchObject({ status: 'failed' });
  });
});

describe('thinkingOf', () => {
  it('maps the composer toggle and effort to the IR thinking options', () => {
    expect(thinkingOf({})).toEqual({});
    expect(thinkingOf({ thinking: false, thinking_effort: 'high' })).toEqual({ thinkingEnabled: false });
    expect(thinkingOf({ thinking: true })).toEqual({ thinkingEnabled: true });
    expect(thinkingOf({ thinking: true, thinking_effort: 'low' })).toEqual({
      thinkingEnabled: true,
      thinkingEffort: 'low',
    });
  });
});
