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
import { toOpenAIRequest } from './convert-request';
import { readOpenAIStream } from './convert-stream';
import { readOpenAIErrorBody } from './map-error';
import {
  OPENAI_COMPATIBLE_PRESETS,
  UNKNOWN_MODEL,
  type ModelCatalogEntry,
  type OpenAICompatiblePreset,
  type OpenAICompatiblePresetId,
} from './presets';
import { openAIModelListSchema } from './wire-schemas';

export interface OpenAICompatibleConfig {
  preset: OpenAICompatiblePresetId | OpenAICompatiblePreset;
  apiKey?: string;
  /** Defaults to the preset's default model. */
  model?: string;
  /** Defaults to the preset's URL; point it at a proxy or a local replay server. */
  baseUrl?: string;
  fetch?: FetchFunction;
  clock?: Clock;
  headers?: Record<string, string>;
}

/** One Chat Completions endpoint and model; DeepSeek, Agnes and OpenAI differ only by preset. */
export class OpenAICompatibleAdapter implements IMetonaProviderAdapter {
  readonly providerId: string;
  readonly supportedModels: string[];
  readonly model: string;
  readonly preset: OpenAICompatiblePreset;
  readonly #config: OpenAICompatibleConfig;
  readonly #baseUrl: string;
  readonly #clock: Clock;

  constructor(config: OpenAICompatibleConfig) {
    this.preset =
      typeof config.preset === 'string' ? OPENAI_COMPATIBLE_PRESETS[config.preset] : config.preset;
    const model = config.model ?? this.preset.defaultModel;
    if (!model) throw new Error(`Provider "${this.preset.id}" needs a model name`);
    this.providerId = this.preset.id;
    this.model = model;
    this.supportedModels = Object.keys(this.preset.models);
    this.#config = config;
    this.#baseUrl = config.baseUrl ?? this.preset.baseUrl;
    this.#clock = config.clock ?? systemClock;
  }

  getContextWindow(model: string = this.model): number {
    return this.#catalog(model).contextWindow;
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
        const body = toOpenAIRequest(request, this.preset, this.model, codec);
        const response = await httpRequest(
          joinUrl(this.#baseUrl, 'chat/completions'),
          { method: 'POST', headers: { ...this.#headers(), Accept: 'text/event-stream' }, body },
          this.#http(abort.signal, abort.timeoutSignal),
        );
        return readOpenAIStream(
          requireBody(response, this.providerId),
          { provider: this.providerId, requestId: request.meta.requestId },
          codec,
        );
      },
    });
  }

  /** `GET /models`, with catalog figures for the models we know and conservative ones otherwise. */
  async listModels(options: MetonaCallOptions = {}): Promise<MetonaModelInfo[]> {
    const response = await httpRequest(
      joinUrl(this.#baseUrl, 'models'),
      { method: 'GET', headers: this.#headers() },
      this.#http(options.signal),
    );
    const parsed = openAIModelListSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      const error = invalidResponseError(this.providerId, 'The model list is not in the expected format.');
      throw new MetonaProviderError(error);
    }
    return parsed.data.data.map(({ id, context_length, max_model_len }) => {
      const entry = this.#catalog(id);
      return {
        id,
        providerId: this.providerId,
        displayName: entry.displayName || id,
        contextWindow: context_length ?? max_model_len ?? entry.contextWindow,
        maxOutput: entry.maxOutput,
        supportsStreaming: true,
        supportsThinking: entry.thinking,
        supportsImages: entry.images,
        supportsToolCalling: entry.tools,
        // Claimed only for catalog models of an API documented to take a schema.
        supportsStructuredOutput:
          entry !== UNKNOWN_MODEL && this.preset.responseFormats?.includes('json_schema') === true,
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

  #catalog(model: string): ModelCatalogEntry {
    return this.preset.models[model] ?? UNKNOWN_MODEL;
  }

  #headers(): Record<string, string> {
    return {
      'Content-Type': 'application/json',
      ...(this.#config.apiKey && { Authorization: `Bearer ${this.#config.apiKey}` }),
      ...this.#config.headers,
    };
  }

  #http(signal?: AbortSignal, timeoutSignal?: AbortSignal): HttpContext {
    return {
      fetch: this.#config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      provider: this.providerId,
      signal,
      timeoutSignal,
      readError: readOpenAIErrorBody,
      clock: this.#clock,
    };
  }
}

export function createOpenAICompatibleAdapter(config: OpenAICompatibleConfig): OpenAICompatibleAdapter {
  return new OpenAICompatibleAdapter(config);
}

export const createDeepSeekAdapter = (config: Omit<OpenAICompatibleConfig, 'preset'>) =>
  new OpenAICompatibleAdapter({ ...config, preset: 'deepseek' });
export const createAgnesAdapter = (config: Omit<OpenAICompatibleConfig, 'preset'>) =>
  new OpenAICompatibleAdapter({ ...config, preset: 'agnes-ai' });
export const createOpenAIAdapter = (config: Omit<OpenAICompatibleConfig, 'preset'>) =>
  new OpenAICompatibleAdapter({ ...config, preset: 'openai' });
