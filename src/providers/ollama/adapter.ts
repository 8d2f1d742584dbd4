import { systemClock, type Clock } from '../../core/ids';
import {
  MetonaProviderError,
  type IMetonaProviderAdapter,
  type MetonaCallOptions,
  type MetonaModelInfo,
  type MetonaRequest,
  type MetonaResponse,
  type MetonaStreamEvent,
} from '../../ir';
import { invalidResponseError } from '../shared/errors';
import {
  joinUrl,
  request as httpRequest,
  requireBody,
  type FetchFunction,
  type HttpContext,
} from '../shared/http';
import { runStream } from '../shared/stream-driver';
import { createToolNameCodec } from '../shared/tool-names';
import { toOllamaRequest } from './convert-request';
import { readOllamaStream } from './convert-stream';
import { readOllamaErrorBody } from './map-error';
import { ollamaTagsSchema } from './wire-schemas';

export const OLLAMA_PROVIDER_ID = 'ollama';
export const OLLAMA_DEFAULT_BASE_URL = 'http://localhost:11434';
/** Ollama's default `num_ctx` when nothing else is configured. */
const DEFAULT_CONTEXT_WINDOW = 4096;

export interface OllamaAdapterConfig {
  model: string;
  /** Defaults to http://localhost:11434; the browser origin must be in OLLAMA_ORIGINS. */
  baseUrl?: string;
  /** Sent as num_ctx; also what getContextWindow reports. */
  contextWindow?: number;
  /** For Ollama behind an authenticating proxy or ollama.com. */
  apiKey?: string;
  fetch?: FetchFunction;
  clock?: Clock;
}

/** A local (or proxied) Ollama server through its native /api/chat NDJSON stream. */
export class OllamaAdapter implements IMetonaProviderAdapter {
  readonly providerId = OLLAMA_PROVIDER_ID;
  readonly supportedModels: string[];
  readonly model: string;
  readonly #config: OllamaAdapterConfig;
  readonly #baseUrl: string;
  readonly #clock: Clock;

  constructor(config: OllamaAdapterConfig) {
    this.#config = config;
    this.model = config.model;
    this.supportedModels = [config.model];
    this.#baseUrl = config.baseUrl ?? OLLAMA_DEFAULT_BASE_URL;
    this.#clock = config.clock ?? systemClock;
  }

  getContextWindow(): number {
    return this.#config.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: MetonaCallOptions = {},
  ): Promise<MetonaResponse> {
    return runStream({
      request,
      provider: this.providerId,
      model: this.model,
      onEvent,
      signal: options.signal,
      clock: this.#clock,
      open: async (abort) => {
        const http = this.#http(abort.signal, abort.timeoutSignal);
        const codec = createToolNameCodec(request.tools ?? []);
        const body = await toOllamaRequest(request, {
          toolNames: codec,
          model: this.model,
          contextWindow: this.#config.contextWindow,
          fetch: http.fetch,
          signal: abort.signal,
        });
        const response = await httpRequest(
          joinUrl(this.#baseUrl, 'api/chat'),
          { method: 'POST', headers: this.#headers(), body },
          http,
        );
        return readOllamaStream(
          requireBody(response, this.providerId),
          { provider: this.providerId, requestId: request.meta.requestId },
          codec,
        );
      },
    });
  }

  /**
   * The pulled models (`/api/tags`). Their abilities are not listed there, so
   * they are reported conservatively: no tools, vision or thinking claimed.
   */
  async listModels(options: MetonaCallOptions = {}): Promise<MetonaModelInfo[]> {
    const response = await httpRequest(
      joinUrl(this.#baseUrl, 'api/tags'),
      { method: 'GET', headers: this.#headers() },
      this.#http(options.signal),
    );
    const parsed = ollamaTagsSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new MetonaProviderError(
        invalidResponseError(this.providerId, 'The model list is not in the expected format.'),
      );
    }
    return parsed.data.models.map((model) => ({
      id: model.name,
      providerId: this.providerId,
      displayName: model.details?.parameter_size
        ? `${model.name} (${model.details.parameter_size})`
        : model.name,
      contextWindow: this.getContextWindow(),
      maxOutput: this.getContextWindow(),
      supportsStreaming: true,
      supportsThinking: false,
      supportsImages: false,
      supportsToolCalling: false,
      // `format` is Ollama's own grammar constraint (0.5+), whatever the model.
      supportsStructuredOutput: true,
    }));
  }

  /**
   * The model's trained window from `/api/show` (`model_info["<arch>.context_length"]`),
   * or undefined when the server does not say or cannot be asked.
   */
  async reportedContextWindow(options: MetonaCallOptions = {}): Promise<number | undefined> {
    try {
      const response = await httpRequest(
        joinUrl(this.#baseUrl, 'api/show'),
        // The body goes as given: httpRequest encodes it (a string here would be sent as a JSON string).
        { method: 'POST', headers: this.#headers(), body: { model: this.model } },
        this.#http(options.signal),
      );
      return contextLengthOf(await response.json());
    } catch {
      return undefined;
    }
  }

  async healthCheck(): Promise<boolean> {
    try {
      await httpRequest(
        joinUrl(this.#baseUrl, 'api/version'),
        { method: 'GET', headers: this.#headers() },
        this.#http(AbortSignal.timeout(5_000)),
      );
      return true;
    } catch {
      return false;
    }
  }

  #headers(): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      ...(this.#config.apiKey && { Authorization: `Bearer ${this.#config.apiKey}` }),
    };
  }

  #http(signal?: AbortSignal, timeoutSignal?: AbortSignal): HttpContext {
    return {
      fetch: this.#config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      provider: this.providerId,
      signal,
      timeoutSignal,
      readError: readOllamaErrorBody,
      clock: this.#clock,
    };
  }
}

/** The `*.context_length` entry of an `/api/show` answer's model_info. */
export function contextLengthOf(show: unknown): number | undefined {
  const info = (show as { model_info?: unknown } | null)?.model_info;
  if (!info || typeof info !== 'object') return undefined;
  for (const [key, value] of Object.entries(info)) {
    if (key.endsWith('.context_length') && typeof value === 'number' && Number.isInteger(value) && value > 0)
      return value;
  }
  return undefined;
}

export function createOllamaAdapter(config: OllamaAdapterConfig): OllamaAdapter {
  return new OllamaAdapter(config);
}
