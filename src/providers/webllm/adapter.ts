import { proxy } from 'comlink';
import { systemClock, type Clock } from '../../core/ids';
import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaLoadProgress,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../../ir';
import { runStream } from '../shared/stream-driver';
import { AsyncQueue } from './async-queue';
import { decodeToolNames } from '../shared/tool-names';
import { toWebLlmRequest } from './convert-request';
import { convertWebLlmStream } from './convert-stream';
import { checkDevice, type DeviceProbe } from '../../models/device-check';
import type { WebLlmChunk } from './engine-port';
import {
  UNKNOWN_MODEL_CONTEXT_WINDOW,
  WEBLLM_CATALOG,
  WEBLLM_PROVIDER_ID,
  findCatalogEntry,
  toModelInfo,
  type ToolCallingMode,
  type WebLlmCatalogEntry,
} from '../../models/model-catalog';
import type { WebLlmWorkerHost } from './worker-host';

/** Every method of `T`, returning a promise: what a Comlink proxy of `T` offers. */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/**
 * What the page holds: the worker's host through Comlink (`Remote<WebLlmWorkerHost>`
 * is assignable to it), or the host itself in tests. Typed from the
 * implementation, as the house style asks; not Comlink's `RemoteObject`, which turns
 * a promised union (`Outcome`) into a union of promises that the in-thread
 * host does not match.
 */
export type WebLlmClient = Promised<WebLlmWorkerHost>;

export interface WebLlmAdapterConfig {
  client: WebLlmClient;
  /** A web-llm model id, normally one of `WEBLLM_CATALOG`. */
  model: string;
  /** `auto` (default): native tool calling where web-llm supports it, prompt-described tools elsewhere. */
  toolMode?: 'auto' | ToolCallingMode;
  /** For `healthCheck`: `browserDeviceProbe()` on the page. */
  device?: DeviceProbe;
  clock?: Clock;
}

/** The in-browser provider: one web-llm model behind the IR adapter interface. */
export class WebLlmAdapter implements IMetonaProviderAdapter {
  readonly providerId = WEBLLM_PROVIDER_ID;
  readonly supportedModels = WEBLLM_CATALOG.map((entry) => entry.id);
  readonly model: string;
  readonly entry: WebLlmCatalogEntry | undefined;
  readonly #config: WebLlmAdapterConfig;
  readonly #clock: Clock;

  constructor(config: WebLlmAdapterConfig) {
    this.model = config.model;
    this.entry = findCatalogEntry(config.model);
    this.#config = config;
    this.#clock = config.clock ?? systemClock;
  }

  getContextWindow(model: string = this.model): number {
    return findCatalogEntry(model)?.contextWindow ?? UNKNOWN_MODEL_CONTEXT_WINDOW;
  }

  /** The device can run the model and the model is downloaded. */
  async healthCheck(): Promise<boolean> {
    try {
      if (this.#config.device && this.entry) {
        const check = await checkDevice(this.#config.device, this.entry, { downloaded: true });
        if (!check.ok) return false;
      }
      const cached = await this.#config.client.listCached([this.model]);
      return cached.ok && cached.value.length === 1;
    } catch {
      return false;
    }
  }

  async listModels(): Promise<MetonaModelInfo[]> {
    return WEBLLM_CATALOG.map(toModelInfo);
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: MetonaCallOptions = {},
  ): Promise<MetonaResponse> {
    const client = this.#config.client;
    const callId = request.meta.requestId;
    let loadDurationMs: number | undefined;

    return runStream({
      request,
      provider: this.providerId,
      model: this.model,
      onEvent,
      signal: options.signal,
      clock: this.#clock,
      open: async (abort) => {
        // Converted here, so a refused request ends as the stream's error event too.
        const plan = toWebLlmRequest(request, {
          modelId: this.model,
          entry: this.entry,
          toolMode: this.#config.toolMode ?? 'auto',
        });
        const chunks = new AsyncQueue<WebLlmChunk>();
        const signals = [abort.signal, abort.timeoutSignal].filter((s): s is AbortSignal => s !== undefined);
        // Stop or deadline: the worker aborts the model load or interrupts the generation; the driver has already ended the stream.
        const stop = () => void client.interrupt(callId).catch(() => undefined);
        for (const signal of signals) signal.addEventListener('abort', stop, { once: true });
        const sink = proxy((chunk: WebLlmChunk) => chunks.push(chunk));
        const onLoadProgress = options.onLoadProgress;
        let answered = false;
        // Load reports only until the engine answers: a late one must not follow the text.
        const loadSink =
          onLoadProgress &&
          proxy((progress: MetonaLoadProgress) => {
            if (!answered && !options.signal?.aborted) onLoadProgress(progress);
          });
        void chunks.ready().then(
          () => (answered = true),
          () => (answered = true),
        );
        client
          .chat({ callId, modelId: this.model, request: plan.request }, sink, loadSink)
          .then(
            (outcome) => {
              if (!outcome.ok) return chunks.fail(new MetonaProviderError(outcome.error));
              loadDurationMs = outcome.value.loadDurationMs;
              chunks.close();
            },
            (error: unknown) => chunks.fail(error),
          )
          .finally(() => {
            for (const signal of signals) signal.removeEventListener('abort', stop);
          });
        // Like an HTTP response: the call is open once the engine answers. A
        // failure before that (no WebGPU, offline load) is the call's error,
        // not an interrupted stream.
        await chunks.ready();
        const parts = convertWebLlmStream(chunks, {
          requestId: request.meta.requestId,
          toolMode: plan.toolMode,
          toolNames: plan.toolNames,
          perfExtras: () => (loadDurationMs === undefined ? {} : { loadDurationMs }),
        });
        return decodeToolNames(parts, plan.toolNameCodec);
      },
    });
  }
}

export function createWebLlmAdapter(config: WebLlmAdapterConfig): WebLlmAdapter {
  return new WebLlmAdapter(config);
}
