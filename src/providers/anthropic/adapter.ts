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
import { toAnthropicRequest } from './convert-request';
import { readAnthropicStream } from './convert-stream';
import { readAnthropicErrorBody } from './map-error';
import { ThinkingSignatures } from './thinking-signatures';
import { anthropicModelListSchema } from './wire-schemas';

export const ANTHROPIC_PROVIDER_ID = 'anthropic';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

interface CatalogEntry {
  displayName: string;
  maxOutput: number;
  /** Structured outputs (`output_config.format`) are documented for this model. */
  jsonSchema: boolean;
}

/** Known models; every current Claude model has a 200K window, vision, tools and thinking. */
const CATALOG: Record<string, CatalogEntry> = {
  'claude-sonnet-4-5': { displayName: 'Claude Sonnet 4.5', maxOutput: 64_000, jsonSchema: true },
  'claude-haiku-4-5': { displayName: 'Claude Haiku 4.5', maxOutput: 64_000, jsonSchema: true },
  'claude-opus-4-1': { displayName: 'Claude Opus 4.1', maxOutput: 32_000, jsonSchema: true },
  'claude-sonnet-4-0': { displayName: 'Claude Sonnet 4', maxOutput: 64_000, jsonSchema: false },
};
const CONTEXT_WINDOW = 200_000;

/** A dated id (claude-sonnet-4-5-20250929) resolves to its alias's entry. */
function catalogEntry(model: string): CatalogEntry | undefined {
  return CATALOG[model] ?? CATALOG[model.replace(/-\d{8}$/, '')];
}

export interface AnthropicAdapterConfig {
  /** Another provider speaking this protocol (the standard's "Agnes, Anthropic-compatible" row). */
  providerId?: string;
  apiKey?: string;
  model?: string;
  baseUrl?: string;
  fetch?: FetchFunction;
  clock?: Clock;
  /** Extra headers, e.g. `anthropic-beta`. */
  headers?: Record<string, string>;
}

/**
 * The Messages API over SSE. Calls from a web page need the
 * `anthropic-dangerous-direct-browser-access` header: the key then lives in the
 * user's own browser, which is this app's model.
 */
export class AnthropicAdapter implements IMetonaProviderAdapter {
  readonly providerId: string;
  readonly supportedModels = Object.keys(CATALOG);
  readonly model: string;
  readonly #config: AnthropicAdapterConfig;
  readonly #baseUrl: string;
  readonly #clock: Clock;
  /** Provider-owned state: it lives and dies with this adapter (see ThinkingSignatures). */
  readonly #signatures = new ThinkingSignatures();

  constructor(config: AnthropicAdapterConfig = {}) {
    this.#config = config;
    this.providerId = config.providerId ?? ANTHROPIC_PROVIDER_ID;
    this.model = config.model ?? 'claude-sonnet-4-5';
    this.#baseUrl = config.baseUrl ?? ANTHROPIC_BASE_URL;
    this.#clock = config.clock ?? systemClock;
  }

  getContextWindow(): number {
    return CONTEXT_WINDOW;
  }

  send(request: MetonaRequest, options?: MetonaCallOptions): Promise<MetonaResponse> {
    return this.sendStream(request, () => undefined, options);
  }

  sendStream(
    request: MetonaRequest,
    onEvent: (event: MetonaStreamEvent) => void,
    options: MetonaCallOptions = {},
  ): Promise<MetonaResponse> {
    const codec = createToolNameCodec(request.tools ?? []);
    return runStream({
      request,
      provider: this.providerId,
      model: this.model,
      onEvent,
      signal: options.signal,
      clock: this.#clock,
      open: async (abort) => {
        // Converted here, so a refused request ends as the stream's error event too.
        const body = toAnthropicRequest(request, this.model, this.#signatures, codec, this.providerId);
        const response = await httpRequest(
          joinUrl(this.#baseUrl, 'v1/messages'),
          { method: 'POST', headers: { ...this.#headers(), Accept: 'text/event-stream' }, body },
          this.#http(abort.signal, abort.timeoutSignal),
        );
        return readAnthropicStream(
          requireBody(response, this.providerId),
          { provider: this.providerId, requestId: request.meta.requestId, signatures: this.#signatures },
          codec,
        );
      },
    });
  }

  async listModels(options: MetonaCallOptions = {}): Promise<MetonaModelInfo[]> {
    const response = await httpRequest(
      joinUrl(this.#baseUrl, 'v1/models'),
      { method: 'GET', headers: this.#headers() },
      this.#http(options.signal),
    );
    const parsed = anthropicModelListSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new MetonaProviderError(
        invalidResponseError(this.providerId, 'The model list is not in the expected format.'),
      );
    }
    return parsed.data.data.map(({ id, display_name }) => {
      const known = catalogEntry(id);
      return {
        id,
        providerId: this.providerId,
        displayName: display_name ?? known?.displayName ?? id,
        contextWindow: CONTEXT_WINDOW,
        maxOutput: known?.maxOutput ?? 4096,
        supportsStreaming: true,
        // Only what we know about; unknown models claim nothing (contract §8.1).
        supportsThinking: known !== undefined,
        supportsImages: known !== undefined,
        supportsToolCalling: known !== undefined,
        supportsStructuredOutput: known?.jsonSchema === true,
      };
    });
  }

  async healthCheck(): Promise<boolean> {
    try {
      await this.listModels({ signal: AbortSignal.timeout(10_000) });
      return true;
    } catch {
      return false;
    }
  }

  #headers(): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
      'anthropic-dangerous-direct-browser-access': 'true',
      ...(this.#config.apiKey && { 'x-api-key': this.#config.apiKey }),
      ...this.#config.headers,
    };
  }

  #http(signal?: AbortSignal, timeoutSignal?: AbortSignal): HttpContext {
    return {
      fetch: this.#config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      provider: this.providerId,
      signal,
      timeoutSignal,
      readError: readAnthropicErrorBody,
      clock: this.#clock,
    };
  }
}

export function createAnthropicAdapter(config?: AnthropicAdapterConfig): AnthropicAdapter {
  return new AnthropicAdapter(config);
}
