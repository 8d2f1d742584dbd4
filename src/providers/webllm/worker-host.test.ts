import { describe, expect, it } from 'vitest';
import {
  FakeModelCache,
  WebLlmEngineDouble,
  deltaChunk,
  finalChunk,
  textScript,
  usageChunk,
  type EngineScript,
} from './__fixtures__/engine-double';
import type { WebLlmChatRequest, WebLlmChunk } from './engine-port';
import type { MetonaLoadProgress } from '../../ir';
import { WebLlmWorkerHost, toLoadProgress, type ChatCall } from './worker-host';

const A = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const B = 'Llama-3.2-1B-Instruct-q4f32_1-MLC';

const chatRequest: WebLlmChatRequest = { messages: [{ role: 'user', content: 'hi' }], stream: true };
const call = (callId: string, modelId: string): ChatCall => ({ callId, modelId, request: chatRequest });

function setup(script?: EngineScript | ((request: WebLlmChatRequest) => EngineScript)) {
  const engine = new WebLlmEngineDouble({
    script: script ?? ((request) => textScript(request.model!, [`from ${request.model}`])),
  });
  engine.cache.seed(A, 100);
  engine.cache.seed(B, 200);
  let loads = 0;
  const host = new WebLlmWorkerHost({
    load: async () => {
      loads++;
      return { engine };
    },
    cache: engine.cache,
  });
  return { engine, host, loads: () => loads };
}

const collect = () => {
  const chunks: WebLlmChunk[] = [];
  return { chunks, sink: (chunk: WebLlmChunk) => void chunks.push(chunk) };
};

const slow = (model: string): EngineScript => [
  deltaChunk(model, 'a'),
  ...Array.from({ length: 20 }, (_, i) => [
    { $: 'delay' as const, ms: 50 },
    deltaChunk(model, `${i}`),
  ]).flat(),
  finalChunk(model, 'stop'),
  usageChunk(model, { prompt: 1, completion: 21 }),
];

describe('WebLlmWorkerHost', () => {
  it('loads web-llm once and reloads only when a request names another model', async () => {
    const { host, engine, loads } = setup();
    for (const [id, model] of [
      ['1', A],
      ['2', A],
      ['3', B],
      ['4', A],
    ] as const) {
      const { sink } = collect();
      expect(await host.chat(call(id, model), sink)).toMatchObject({ ok: true });
    }
    expect(engine.reloads).toEqual([A, B, A]);
    expect(loads()).toBe(1);
    expect(await host.loadedModel()).toBe(A);
    expect(engine.requests.map((request) => request.model)).toEqual([A, A, B, A]);
  });

  it('reports the load duration of the call that loaded the model', async () => {
    let now = 0;
    const engine = new WebLlmEngineDouble();
    engine.cache.seed(A, 1);
    const host = new WebLlmWorkerHost({
      load: async () => ({ engine }),
      cache: engine.cache,
      now: () => (now += 250),
    });
    expect(await host.chat(call('1', A), () => undefined)).toEqual({
      ok: true,
      value: { loadDurationMs: 250 },
    });
    expect(await host.chat(call('2', A), () => undefined)).toEqual({ ok: true, value: {} });
  });

  it("reports web-llm's init progress while the model loads, before any chunk, and not on the next call", async () => {
    const { host } = setup();
    const seen: string[] = [];
    const onProgress = (progress: MetonaLoadProgress) =>
      void seen.push(`${progress.phase} ${progress.progress.toFixed(2)} ${progress.text.slice(0, 25)}`);
    const onChunk = () => void seen.push('chunk');
    expect(await host.chat(call('1', A), onChunk, onProgress)).toMatchObject({ ok: true });
    expect(seen).toEqual([
      'loading 0.00 Starting to load the mode', // at once, before web-llm is imported
      'loading 0.00 Start to fetch params',
      'loading 0.25 Loading model from cache[',
      'loading 0.50 Loading model from cache[',
      'loading 0.75 Loading model from cache[',
      'loading 1.00 Loading model from cache[',
      'loading 0.50 Loading GPU shader module',
      'loading 1.00 Finish loading on WebGPU ',
      'chunk',
      'chunk',
    ]);
    seen.length = 0;
    expect(await host.chat(call('2', A), onChunk, onProgress)).toMatchObject({ ok: true });
    expect(seen.every((entry) => entry === 'chunk')).toBe(true); // loaded already: nothing to report
  });

  it('keeps load progress in 0..1 with tidy text', () => {
    expect(toLoadProgress({ progress: 1.2, timeElapsed: 0, text: 'Finish\n  loading ' })).toEqual({
      phase: 'loading',
      progress: 1,
      text: 'Finish loading',
    });
    expect(toLoadProgress({ progress: Number.NaN, timeElapsed: 0, text: '' }).progress).toBe(0);
  });

  it('a Stop while the model loads aborts the load (unload), ends cancelled, and the next call loads again', async () => {
    const engine = new WebLlmEngineDouble({ loadStepDelayMs: 200 });
    engine.cache.seed(A, 100);
    const host = new WebLlmWorkerHost({ load: async () => ({ engine }), cache: engine.cache });
    const progress: number[] = [];
    const outcome = host.chat(
      call('1', A),
      () => undefined,
      (report) => {
        progress.push(report.progress);
        if (progress.length === 2) void host.interrupt('1'); // web-llm's first report: reload() runs
      },
    );
    expect(await outcome).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(progress).not.toContain(1); // stopped inside the load, not after all of it
    expect(engine.unloads).toBe(1);
    expect(engine.interrupts).toBe(0);
    expect(engine.requests).toHaveLength(0);
    expect(await host.loadedModel()).toBeNull();
    expect(await host.chat(call('2', A), () => undefined)).toMatchObject({ ok: true });
    expect(engine.reloads).toEqual([A, A]);
  });

  it('a Stop before the load began (web-llm still importing) ends cancelled without loading', async () => {
    const { host, engine } = setup();
    const outcome = host.chat(
      call('1', A),
      () => undefined,
      () => void host.interrupt('1'),
    );
    expect(await outcome).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(engine.reloads).toEqual([]);
    expect(engine.unloads).toBe(0);
  });

  it('runs one generation at a time and skips a queued call that was interrupted', async () => {
    const { host, engine } = setup(() => slow(A));
    const first = collect();
    const running = host.chat(call('1', A), first.sink);
    const queued = host.chat(call('2', A), () => undefined);
    await host.interrupt('2');
    expect(await queued).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(await running).toMatchObject({ ok: true });
    expect(engine.requests).toHaveLength(1);
    expect(engine.interrupts).toBe(0);
  });

  it('interrupts the running generation; its stream ends with "abort"', async () => {
    const { host, engine } = setup(() => slow(A));
    const { chunks, sink } = collect();
    const running = host.chat(call('1', A), (chunk) => {
      sink(chunk);
      if (chunks.length === 2) void host.interrupt('1');
    });
    expect(await running).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(engine.interrupts).toBe(1);
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'abort')).toBe(true);
    expect(chunks.length).toBeLessThan(10);
    await host.interrupt('1'); // a late interrupt is harmless
    expect(engine.interrupts).toBe(1);
  });

  it('stops generating when the page side is gone', async () => {
    let scripts = 0;
    const { host, engine } = setup(() => (scripts++ === 0 ? slow(A) : textScript(A, ['next'])));
    let delivered = 0;
    const outcome = await host.chat(call('1', A), () => {
      if (++delivered === 2) throw new Error('proxy released');
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(engine.interrupts).toBe(1);
    // It drained web-llm's stream, so the engine serves the next call.
    expect(await host.chat(call('2', A), () => undefined)).toMatchObject({ ok: true });
  });

  it('lists cached models with sizes and deletes one, unloading it first', async () => {
    const { host, engine } = setup();
    expect(await host.listCached([A, B, 'Qwen3-4B-q4f32_1-MLC'])).toEqual({
      ok: true,
      value: [
        { modelId: A, sizeBytes: 100 },
        { modelId: B, sizeBytes: 200 },
      ],
    });
    await host.chat(call('1', A), () => undefined);
    expect(await host.deleteCached(A)).toEqual({ ok: true, value: undefined });
    expect(engine.unloads).toBe(1);
    expect(await host.loadedModel()).toBeNull();
    expect(await host.listCached([A, B])).toMatchObject({ value: [{ modelId: B }] });
  });

  it('retries the library import after a failed one (offline first use)', async () => {
    const engine = new WebLlmEngineDouble();
    let attempts = 0;
    const host = new WebLlmWorkerHost({
      load: async () => {
        if (attempts++ === 0)
          throw new TypeError('Failed to fetch dynamically imported module: /assets/web-llm.js');
        return { engine };
      },
      cache: engine.cache,
    });
    engine.cache.seed(A, 1);
    // Listing reads the cache only: it works before the library ever loads.
    expect(await host.listCached([A])).toEqual({ ok: true, value: [{ modelId: A, sizeBytes: 1 }] });
    expect(await host.chat(call('1', A), () => undefined)).toMatchObject({
      ok: false,
      error: { providerCode: 'engine_import_failed' },
    });
    expect(await host.chat(call('2', A), () => undefined)).toMatchObject({ ok: true });
  });

  it('downloads without loading the library, one at a time, and cancels only the named model', async () => {
    const cache = new FakeModelCache({ shards: 4, shardBytes: 10, shardDelayMs: 20 });
    let loads = 0;
    const host = new WebLlmWorkerHost({
      load: async () => {
        loads++;
        return { engine: new WebLlmEngineDouble({ cache }) };
      },
      cache,
    });
    const seen: string[] = [];
    let firstProgress!: () => void;
    const started = new Promise<void>((resolve) => (firstProgress = resolve));
    const first = host.download(A, (progress) => {
      seen.push(`A ${progress.loadedBytes}/${progress.totalBytes}`);
      firstProgress();
    });
    const second = host.download(B, (progress) => void seen.push(`B ${progress.loadedBytes}`));
    // B is queued behind A: cancel it once A is under way (A's first shard), not after a fixed time.
    await started;
    await host.cancelDownload(B);
    expect(await first).toEqual({ ok: true, value: { bytes: 40 } });
    expect(await second).toMatchObject({ ok: false, error: { code: 'user_aborted' } });
    expect(seen).toEqual(['A 10/40', 'A 20/40', 'A 30/40', 'A 40/40']);
    expect(cache.downloads).toEqual([A]); // B was cancelled while it waited
    expect(loads).toBe(0);
  });
});
