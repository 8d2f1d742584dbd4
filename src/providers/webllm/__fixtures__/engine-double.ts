import { MetonaProviderError } from '../../../ir';
import { modelFileMissingError } from '../map-error';
import type {
  ModelDownloadProgress,
  WebLlmCachePort,
  WebLlmChatRequest,
  WebLlmChunk,
  WebLlmEnginePort,
  WebLlmProgressReport,
  WebLlmUsage,
} from '../engine-port';

/**
 * An in-memory stand-in for web-llm's engine, for tests and the conformance
 * suite: it plays scripted chunks in web-llm's own shapes (the delta chunks,
 * the final chunk with `finish_reason` and Hermes' `tool_calls`, the separate
 * usage chunk with `usage.extra`), answers `interruptGenerate()` the way
 * web-llm does (a final chunk with `finish_reason: "abort"`), enforces the
 * request rules web-llm enforces, and downloads "shards" into a fake cache
 * with web-llm's progress texts, so cancel and resume can be tested.
 */

/** One line of a script: a chunk, a pause, or an error the engine throws. */
export type EngineStep =
  WebLlmChunk | { $: 'delay'; ms: number } | { $: 'throw'; name: string; message: string };

export type EngineScript = EngineStep[];

/** `__fixtures__/webllm-*.chunks.txt`: one JSON step per line; blank lines and `#` comments ignored. */
export function parseEngineScript(text: string): EngineScript {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => JSON.parse(line) as EngineStep);
}

const CREATED = 1_719_000_000;

export function deltaChunk(model: string, content: string): WebLlmChunk {
  return {
    id: 'chatcmpl-double',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta: { content, role: 'assistant' }, finish_reason: null, logprobs: null }],
  };
}

export function finalChunk(
  model: string,
  finishReason: 'stop' | 'length' | 'tool_calls' | 'abort',
  toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }>,
): WebLlmChunk {
  return {
    id: 'chatcmpl-double',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        delta: toolCalls
          ? {
              role: 'assistant',
              tool_calls: toolCalls.map((call, index) => ({
                index,
                type: 'function' as const,
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : {},
        finish_reason: finishReason,
      },
    ],
  };
}

export function usageChunk(
  model: string,
  usage: { prompt: number; completion: number; extra?: Partial<WebLlmUsage['extra']> },
): WebLlmChunk {
  return {
    id: 'chatcmpl-double',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
      extra: {
        e2e_latency_s: 1.5,
        prefill_tokens_per_s: 240,
        decode_tokens_per_s: 32,
        time_to_first_token_s: 0.25,
        time_per_output_token_s: 1 / 32,
        ...usage.extra,
      },
    },
  };
}

/** A plain answer as web-llm streams it: deltas, the final chunk, usage. */
export function textScript(
  model: string,
  pieces: string[],
  usage = { prompt: 12, completion: 8 },
): EngineScript {
  return [
    ...pieces.map((piece) => deltaChunk(model, piece)),
    finalChunk(model, 'stop'),
    usageChunk(model, usage),
  ];
}

/** An error shaped like web-llm's: a plain Error with the class name in `name`. */
export function engineError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

// ---- the cache --------------------------------------------------------------

export interface FakeDownloadOptions {
  /** This many shards of this size, one every `shardDelayMs` (default: 4 × 8 MiB, no delay). */
  shards?: number;
  shardBytes?: number;
  shardDelayMs?: number;
  /** Thrown after this many shards (e.g. `new TypeError('Failed to fetch')` offline). */
  failAfterShards?: { shards: number; error: unknown };
  /** Model ids the host does not have: the download fails at once, as on a 404. */
  missing?: string[];
  /** The download waits here before its last shard: a test holds it "running" for as long as it needs. */
  beforeLastShard?: Promise<void>;
}

/**
 * web-llm's Cache API storage, in memory: shards per model, complete or not.
 * `download()` fetches "shards" with byte progress and honours the signal, as
 * `createBrowserModelCache` does over the network.
 */
export class FakeModelCache implements WebLlmCachePort {
  readonly #shards = new Map<string, number[]>();
  readonly #complete = new Set<string>();
  readonly #download: FakeDownloadOptions;
  readonly downloads: string[] = [];

  constructor(download: FakeDownloadOptions = {}) {
    this.#download = download;
  }

  /** A fully downloaded model. */
  seed(modelId: string, bytes: number): void {
    this.#shards.set(modelId, [bytes]);
    this.#complete.add(modelId);
  }

  addShard(modelId: string, bytes: number): void {
    this.#shards.set(modelId, [...(this.#shards.get(modelId) ?? []), bytes]);
  }

  shardCount(modelId: string): number {
    return this.#shards.get(modelId)?.length ?? 0;
  }

  markComplete(modelId: string): void {
    this.#complete.add(modelId);
  }

  async has(modelId: string): Promise<boolean> {
    return this.#complete.has(modelId);
  }

  async sizeBytes(modelId: string): Promise<number | undefined> {
    const shards = this.#shards.get(modelId);
    return shards ? shards.reduce((sum, bytes) => sum + bytes, 0) : undefined;
  }

  async delete(modelId: string): Promise<void> {
    this.#shards.delete(modelId);
    this.#complete.delete(modelId);
  }

  async download(
    modelId: string,
    options: { signal: AbortSignal; onProgress: (progress: ModelDownloadProgress) => void },
  ): Promise<{ bytes: number }> {
    this.downloads.push(modelId);
    const {
      shards = 4,
      shardBytes = 8 * MIB,
      shardDelayMs = 0,
      failAfterShards,
      missing = [],
      beforeLastShard,
    } = this.#download;
    if (missing.includes(modelId)) {
      throw new MetonaProviderError(
        modelFileMissingError(modelId, `https://hub.test/${modelId}/tensor-cache.json`, 404),
      );
    }
    const totalBytes = shards * shardBytes;
    for (let index = this.shardCount(modelId); index < shards; index++) {
      if (failAfterShards && index === failAfterShards.shards) throw failAfterShards.error;
      if (beforeLastShard && index === shards - 1) await beforeLastShard;
      await sleep(shardDelayMs, options.signal);
      this.addShard(modelId, shardBytes);
      options.onProgress({
        loadedBytes: (index + 1) * shardBytes,
        totalBytes,
        file: `params_shard_${index}.bin`,
      });
    }
    this.markComplete(modelId);
    return { bytes: totalBytes };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    function done() {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }
  });
}

// ---- the engine -------------------------------------------------------------

export interface EngineDoubleOptions {
  /** What `chat.completions.create` plays for a request (a fixed script or per request). */
  script?: EngineScript | ((request: WebLlmChatRequest) => EngineScript);
  cache?: FakeModelCache;
  /** Models web-llm accepts `tools` for (its `functionCallingModelIds`). */
  functionCallingModelIds?: string[];
  /** `reload()` rejects with this (e.g. `new TypeError('Failed to fetch')` offline). */
  reloadError?: Error;
  /** Each step of `reload()` from the cache takes this long, like a large model (aborted by `unload()`). */
  loadStepDelayMs?: number;
}

const MIB = 2 ** 20;

export class WebLlmEngineDouble implements WebLlmEnginePort {
  readonly requests: WebLlmChatRequest[] = [];
  readonly reloads: string[] = [];
  interrupts = 0;
  unloads = 0;
  loadedModelId: string | undefined;
  readonly cache: FakeModelCache;
  readonly #options: EngineDoubleOptions;
  #progress: ((report: WebLlmProgressReport) => void) | undefined;
  #interrupted = false;
  #wake: (() => void) | undefined;
  #reloadAbort: AbortController | undefined;

  readonly chat = {
    completions: {
      create: async (request: WebLlmChatRequest): Promise<AsyncIterable<WebLlmChunk>> => {
        this.#check(request);
        this.requests.push(structuredClone(request));
        const script =
          typeof this.#options.script === 'function' ? this.#options.script(request) : this.#options.script;
        return this.#play(script ?? textScript(this.loadedModelId!, ['Hello!']), request);
      },
    },
  };

  constructor(options: EngineDoubleOptions = {}) {
    this.#options = options;
    this.cache = options.cache ?? new FakeModelCache();
  }

  setInitProgressCallback(callback: (report: WebLlmProgressReport) => void): void {
    this.#progress = callback;
  }

  interruptGenerate(): void {
    this.interrupts++;
    this.#interrupted = true;
    this.#wake?.();
  }

  async unload(): Promise<void> {
    this.unloads++;
    this.loadedModelId = undefined;
    this.#reloadAbort?.abort(new DOMException('Engine.unload() is called.', 'AbortError'));
  }

  async reload(modelId: string): Promise<void> {
    this.reloads.push(modelId);
    this.loadedModelId = undefined;
    const controller = new AbortController();
    this.#reloadAbort = controller;
    try {
      if (this.#options.reloadError) throw this.#options.reloadError;
      // web-llm's own reload downloads what is missing; the app downloads first (FakeModelCache.download).
      const shards = 4;
      const shardBytes = 8 * MIB;
      const shardDelayMs = 0;
      const total = shards * shardBytes;
      const cached = await this.cache.has(modelId);
      this.#report(0, 'Start to fetch params');
      for (let i = 1; i <= shards; i++) {
        if (!cached && this.cache.shardCount(modelId) < i) {
          await this.#sleep(shardDelayMs, controller.signal);
          this.cache.addShard(modelId, shardBytes);
        }
        if (cached && this.#options.loadStepDelayMs)
          await this.#sleep(this.#options.loadStepDelayMs, controller.signal);
        const fetched = i * shardBytes;
        const percent = Math.floor((fetched * 100) / total);
        const mb = Math.ceil(fetched / MIB);
        this.#report(
          fetched / total,
          cached
            ? `Loading model from cache[${i}/${shards}]: ${mb}MB loaded. ${percent}% completed, 0 secs elapsed.`
            : `Fetching param cache[${i}/${shards}]: ${mb}MB fetched. ${percent}% completed, 1 secs elapsed. ` +
                'It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
        );
      }
      this.cache.markComplete(modelId);
      this.#report(0.5, 'Loading GPU shader modules[5/10]: 50% completed, 1 secs elapsed.');
      this.#report(1, 'Finish loading on WebGPU - test double');
      this.loadedModelId = modelId;
    } finally {
      if (this.#reloadAbort === controller) this.#reloadAbort = undefined;
    }
  }

  #report(progress: number, text: string): void {
    this.#progress?.({ progress, timeElapsed: 0, text });
  }

  #sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(done, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      function done() {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }
    });
  }

  /** The request rules web-llm enforces (postInitAndCheckFields, getConversationFromChatCompletionRequest). */
  #check(request: WebLlmChatRequest): void {
    const model = this.loadedModelId;
    if (!model) throw new Error('Model not loaded before trying to complete ChatCompletionRequest.');
    if (request.model && request.model !== model) {
      throw engineError('SpecifiedModelNotFoundError', `Specified model ${request.model} is not loaded.`);
    }
    request.messages.forEach((message, index) => {
      if (message.role === 'system' && index !== 0) {
        throw engineError('SystemMessageOrderError', 'System prompt should always be the first message.');
      }
      if (message.role === 'assistant' && typeof message.content !== 'string') {
        throw engineError('ContentTypeError', "assistant's message content should be a string.");
      }
      if (message.role === 'user' && typeof message.content !== 'string') {
        throw engineError('UserMessageContentErrorForNonVLM', 'This model is not a vision model.');
      }
    });
    const last = request.messages.at(-1);
    if (last?.role !== 'user' && last?.role !== 'tool') {
      throw engineError('MessageOrderError', 'Last message should be from either `user` or `tool`.');
    }
    if (request.tools) {
      if (!(this.#options.functionCallingModelIds ?? []).includes(model)) {
        throw engineError('UnsupportedModelIdError', `${model} does not support function calling.`);
      }
      if (request.messages.some((message) => message.role === 'system')) {
        throw engineError(
          'CustomSystemPromptError',
          'When using Hermes function calling, do not set a system prompt.',
        );
      }
    }
  }

  async *#play(script: EngineScript, request: WebLlmChatRequest): AsyncGenerator<WebLlmChunk> {
    this.#interrupted = false;
    const model = this.loadedModelId!;
    let completion = 0;
    for (const step of script) {
      if (this.#interrupted) {
        // web-llm: the loop stops, then the final chunk and (when asked) usage still come.
        yield finalChunk(model, 'abort');
        if (request.stream_options?.include_usage) yield usageChunk(model, { prompt: 12, completion });
        return;
      }
      if ('$' in step) {
        if (step.$ === 'delay') {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, step.ms);
            this.#wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.#wake = undefined;
          continue;
        }
        throw engineError(step.name, step.message);
      }
      if (step.usage && !request.stream_options?.include_usage) continue;
      if (step.choices.some((choice) => choice.delta.content)) completion++;
      yield step;
    }
  }
}
