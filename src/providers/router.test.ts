import { describe, expect, it } from 'vitest';
import type {
  IMetonaProviderAdapter,
  MetonaCallOptions,
  MetonaRequest,
  MetonaResponse,
  MetonaStreamEvent,
} from '../ir';
import { irOrderViolations } from './conformance/check-event-order';
import { MockAdapter, type MockScenarioInput } from './mock';
import { ProviderRouter, withoutProviderState, type RouterNotification } from './router';

const t = 1719000000000;
const request: MetonaRequest = {
  meta: { sessionId: 's', iteration: 2, requestId: 'r_route', timestamp: t, agentVersion: 'test' },
  systemPrompt: { roleDefinition: '', outputConstraints: '', safetyGuidelines: '' },
  messages: [
    { role: 'user', content: 'read it', timestamp: t },
    {
      role: 'assistant',
      content: '',
      reasoningContent: 'DeepSeek-only thought',
      toolCalls: [{ id: 'c1', name: 'read_file', args: {}, iteration: 1, timestamp: t }],
      timestamp: t,
    },
  ],
  params: { stream: true },
};

const partialThenCut: MockScenarioInput = {
  id: 'partial',
  steps: [{ type: 'text', chunks: ['Hel', 'lo wor'] }, { type: 'cut' }],
};

/** A provider double that plays one mock scenario per call, in order, and records what it was sent. */
class ScriptedProvider implements IMetonaProviderAdapter {
  readonly supportedModels = ['m'];
  readonly requests: MetonaRequest[] = [];
  readonly #script: (string | MockScenarioInput)[];

  constructor(
    readonly providerId: string,
    script: (string | MockScenarioInput)[],
  ) {
    this.#script = [...script];
  }

  getContextWindow() {
    return 1000;
  }
  async healthCheck() {
    return true;
  }
  async listModels() {
    return [];
  }
  send(req: MetonaRequest, options?: MetonaCallOptions) {
    return this.sendStream(req, () => undefined, options);
  }
  async sendStream(
    req: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: MetonaCallOptions,
  ): Promise<MetonaResponse> {
    this.requests.push(req);
    const scenario = this.#script.shift() ?? 'text';
    const response = await new MockAdapter({ scenario }).sendStream(req, onEvent, options);
    return {
      ...response,
      meta: { ...response.meta, provider: this.providerId, model: `${this.providerId}-model` },
    };
  }
}

function harness(primary: ScriptedProvider, fallback?: ScriptedProvider) {
  const sleeps: number[] = [];
  const router = new ProviderRouter({
    primary: { adapter: primary, model: `${primary.providerId}-model` },
    ...(fallback && { fallback: { adapter: fallback, model: `${fallback.providerId}-model` } }),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    baseDelayMs: 1000,
  });
  const events: MetonaStreamEvent[] = [];
  const notifications: RouterNotification[] = [];
  const log: string[] = [];
  const run = () =>
    router
      .route(
        request,
        (event) => {
          events.push(event);
          log.push(event.type);
        },
        {
          onNotification: (notification) => {
            notifications.push(notification);
            log.push(notification.type);
          },
        },
      )
      .then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      );
  return { router, sleeps, events, notifications, log, run };
}

/** A local-model-like provider: it reports its model load before it streams. */
class LoadingProvider extends ScriptedProvider {
  override sendStream(
    req: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options?: MetonaCallOptions,
  ): Promise<MetonaResponse> {
    options?.onLoadProgress?.({ phase: 'loading', progress: 0.5, text: `${this.providerId} loading` });
    return super.sendStream(req, onEvent, options);
  }
}

describe('ProviderRouter', () => {
  it('passes each attempt the load-progress callback, before that attempt streams', async () => {
    const router = new ProviderRouter({
      primary: { adapter: new LoadingProvider('local', ['server_error']), model: 'local-model' },
      fallback: { adapter: new LoadingProvider('other', ['text']), model: 'other-model' },
      maxRetries: 0,
    });
    const log: string[] = [];
    const result = await router.route(request, (event) => log.push(event.type), {
      onLoadProgress: (progress) => log.push(progress.text),
      onNotification: (notification) => log.push(notification.type),
    });
    expect(result.provider).toBe('other');
    expect(log.slice(0, 3)).toEqual(['local loading', 'provider_switched', 'other loading']);
    expect(log.at(-1)).toBe('done');
  });

  it('retries a retryable error up to 3 times, then fails with it when there is no fallback', async () => {
    const primary = new ScriptedProvider('deepseek', [
      'http-500',
      'http-500',
      'http-500',
      'http-500',
      'text',
    ]);
    const { run, sleeps, notifications, events } = harness(primary);
    const { error } = await run();
    expect(primary.requests).toHaveLength(4);
    expect(error).toMatchObject({ code: 'model_overloaded' });
    expect(notifications.map((n) => n.type)).toEqual(['retrying', 'retrying', 'retrying']);
    // Backoff 1000·2^(n-1) with equal jitter at random 0.5: 75 % of the ceiling.
    expect(sleeps).toEqual([750, 1500, 3000]);
    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(irOrderViolations(events)).toEqual([]);
  });

  it('honours Retry-After and succeeds on the retry', async () => {
    const primary = new ScriptedProvider('deepseek', ['http-429', 'text']);
    const { run, sleeps, notifications } = harness(primary);
    const { result } = await run();
    expect(sleeps).toEqual([2000]);
    expect(notifications).toEqual([
      expect.objectContaining({ type: 'retrying', attempt: 1, delayMs: 2000, provider: 'deepseek' }),
    ]);
    expect(result).toMatchObject({
      provider: 'deepseek',
      model: 'deepseek-model',
      response: { content: 'Hello! How can I help you today?' },
    });
    expect(result?.attempts.map((a) => [a.attempt, a.error?.code])).toEqual([
      [1, 'rate_limited'],
      [2, undefined],
    ]);
  });

  it('switches to the fallback after the retries, says so, and reports who answered', async () => {
    const primary = new ScriptedProvider('deepseek', ['http-500', 'http-500', 'http-500', 'http-500']);
    const fallback = new ScriptedProvider('ollama', ['text']);
    const { run, notifications, events } = harness(primary, fallback);
    const { result } = await run();
    expect(notifications.map((n) => n.type)).toEqual([
      'retrying',
      'retrying',
      'retrying',
      'provider_switched',
    ]);
    expect(notifications.at(-1)).toEqual({
      type: 'provider_switched',
      from: { provider: 'deepseek', model: 'deepseek-model' },
      to: { provider: 'ollama', model: 'ollama-model' },
      error: expect.objectContaining({ code: 'model_overloaded' }),
    });
    expect(result).toMatchObject({ provider: 'ollama', model: 'ollama-model' });
    expect(fallback.requests).toHaveLength(1);
    expect(irOrderViolations(events)).toEqual([]);
  });

  it('does not retry a non-retryable error but fails over at once', async () => {
    const primary = new ScriptedProvider('openai', ['http-401']);
    const fallback = new ScriptedProvider('anthropic', ['text']);
    const { run, sleeps, notifications } = harness(primary, fallback);
    const { result } = await run();
    expect(primary.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(notifications.map((n) => n.type)).toEqual(['provider_switched']);
    expect(result?.provider).toBe('anthropic');
  });

  it('fails with the last error when the fallback fails too', async () => {
    const primary = new ScriptedProvider('openai', ['http-401']);
    const fallback = new ScriptedProvider('anthropic', ['http-401']);
    const { run, events } = harness(primary, fallback);
    const { error } = await run();
    expect(error).toMatchObject({ code: 'auth_invalid' });
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('marks an attempt that streamed text as discarded before the retry streams', async () => {
    const primary = new ScriptedProvider('deepseek', [partialThenCut, 'text']);
    const { run, log, events, notifications } = harness(primary);
    const { result } = await run();
    expect(log).toEqual([
      'text_delta',
      'text_delta',
      'attempt_discarded',
      'retrying',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'usage',
      'done',
    ]);
    expect(notifications[0]).toMatchObject({
      type: 'attempt_discarded',
      attempt: 1,
      error: { code: 'network_error' },
    });
    expect(result?.response.content).toBe('Hello! How can I help you today?');
    expect(result?.attempts[0]?.discarded).toBe(true);
    expect(irOrderViolations(events)).toEqual([]);
  });

  it('drops provider-owned state when the conversation moves to another provider', async () => {
    const primary = new ScriptedProvider('deepseek', ['http-401']);
    const fallback = new ScriptedProvider('openai', ['text']);
    await harness(primary, fallback).run();
    expect(primary.requests[0]!.messages[1]!.reasoningContent).toBe('DeepSeek-only thought');
    expect(fallback.requests[0]!.messages[1]).not.toHaveProperty('reasoningContent');
    expect(withoutProviderState(request).messages[1]!.toolCalls).toHaveLength(1);
  });

  it('keeps provider state for a fallback model of the same provider', async () => {
    const primary = new ScriptedProvider('deepseek', ['http-401']);
    const fallback = new ScriptedProvider('deepseek', ['text']);
    await harness(primary, fallback).run();
    expect(fallback.requests[0]!.messages[1]!.reasoningContent).toBe('DeepSeek-only thought');
  });

  it('never retries or fails over a cancelled call', async () => {
    const primary = new ScriptedProvider('deepseek', ['slow-text']);
    const fallback = new ScriptedProvider('ollama', ['text']);
    const router = new ProviderRouter({
      primary: { adapter: primary, model: 'a' },
      fallback: { adapter: fallback, model: 'b' },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 60);
    await expect(router.send(request, { signal: controller.signal })).rejects.toMatchObject({
      code: 'user_aborted',
    });
    expect(fallback.requests).toHaveLength(0);
  });

  it('does not wait out a Retry-After longer than its limit', async () => {
    const primary = new ScriptedProvider('deepseek', [
      {
        id: 'long',
        steps: [{ type: 'error', code: 'rate_limited', message: 'later', retry_after_ms: 3_600_000 }],
      },
    ]);
    const fallback = new ScriptedProvider('ollama', ['text']);
    const { run, sleeps } = harness(primary, fallback);
    const { result } = await run();
    expect(sleeps).toEqual([]);
    expect(result?.provider).toBe('ollama');
  });
});
