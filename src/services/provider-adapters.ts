import {
  CONSERVATIVE_CAPABILITIES,
  type ModelCapability,
  type ModelInfoDto,
  type ProviderPresetId,
} from '../contracts';
import type { IMetonaProviderAdapter, MetonaModelInfo, MetonaRequest, MetonaResponse } from '../ir';
import {
  OPENAI_COMPATIBLE_PRESETS,
  createAnthropicAdapter,
  createMockAdapter,
  createOllamaAdapter,
  createOpenAICompatibleAdapter,
  type FetchFunction,
  type MockScenarioInput,
  type OpenAICompatiblePreset,
  type Sleep,
} from '../providers';
import { requestLanguage } from '../core/request-language';
import { firstSourceTitle } from './notes-context';

/** What the service hands in besides the stored config. */
export interface AdapterDependencies {
  fetch?: FetchFunction;
  /** The built-in local provider's adapter for a model (the local-model worker). */
  localAdapter?: (model: string) => Promise<IMetonaProviderAdapter>;
  /** The mock's delays (tests pass an instant sleep). */
  sleep?: Sleep;
  /** Mock scenario when the message does not pick one with `/scenario <name>`. */
  mockScenario?: string;
}

export interface AdapterConfig {
  provider_id: string;
  preset: ProviderPresetId;
  base_url: string;
  model: string;
  api_key?: string;
  /** The window to run the model with (Ollama's num_ctx), when known. */
  context_window?: number;
}

/**
 * Scenarios the chat offers besides the built-in ones: `demo` (thinking, then a
 * Markdown answer, streamed at reading pace) is what a fresh install answers;
 * `long` streams for several seconds, for trying Stop.
 */
export const CHAT_MOCK_SCENARIOS: Record<string, MockScenarioInput> = {
  demo: {
    id: 'demo',
    description: 'Thinking, then a Markdown answer.',
    chunk_delay_ms: 25,
    steps: [
      {
        type: 'reasoning',
        chunks: [
          'The user wrote to the demo model.',
          ' I will explain what I am',
          ' and how to add a real one.',
        ],
      },
      {
        type: 'text',
        chunks: [
          'Hello! I am the **mock** model: a scripted, offline demo.',
          '\n\n- Add a real provider in *Settings → Providers*',
          '\n- Type `/scenario long` to try **Stop**',
          '\n- Type `/scenario tool-call` to see a tool call',
        ],
      },
      { type: 'usage', input_tokens: 24, output_tokens: 48, reasoning_tokens: 16 },
      { type: 'finish', reason: 'stop' },
    ],
  },
  /** `demo` for a message written in Chinese: the mock answers in the language it was asked in. */
  'demo-zh': {
    id: 'demo-zh',
    description: 'Thinking, then a Markdown answer, in Chinese.',
    chunk_delay_ms: 25,
    steps: [
      {
        type: 'reasoning',
        chunks: ['用户在和演示模型对话。', '我来说明我是什么，', '以及怎样添加真正的模型。'],
      },
      {
        type: 'text',
        chunks: [
          '你好！我是 **mock** 模型：一个离线的脚本演示。',
          '\n\n- 在 *设置 → AI 服务* 中添加真正的服务商',
          '\n- 输入 `/scenario long` 试试 **停止**',
          '\n- 输入 `/scenario tool-call` 看看工具调用',
        ],
      },
      { type: 'usage', input_tokens: 24, output_tokens: 48, reasoning_tokens: 16 },
      { type: 'finish', reason: 'stop' },
    ],
  },
  long: {
    id: 'long',
    description: 'A long answer at 20 chunks a second: to try Stop.',
    chunk_delay_ms: 50,
    steps: [
      { type: 'reasoning', chunks: ['Counting slowly', ' so there is time to press Stop.'] },
      { type: 'text', chunks: Array.from({ length: 400 }, (_, index) => `${index + 1} `) },
      { type: 'usage', input_tokens: 10, output_tokens: 400 },
      { type: 'finish', reason: 'stop' },
    ],
  },
};

/**
 * The mock's answer when the system prompt carries note sources ("Ask your
 * notes"): it cites source [1] by its title, so tests and demos are deterministic.
 */
export function citedAnswerScenario(request: MetonaRequest): MockScenarioInput | undefined {
  const title = firstSourceTitle(request.systemPrompt.dynamicReminders);
  if (title === undefined) return undefined;
  return {
    id: 'cited-answer',
    description: 'An answer that cites the first note source.',
    chunk_delay_ms: 10,
    steps: [
      { type: 'text', chunks: citedAnswerChunks(title, lastUserText(request)) },
      { type: 'usage', input_tokens: 64, output_tokens: 16 },
      { type: 'finish', reason: 'stop' },
    ],
  };
}

/** A real model answers in the language it was asked in; so does the script. */
function citedAnswerChunks(title: string, question: string): string[] {
  return requestLanguage(question) === 'zh'
    ? ['根据你的笔记', `“${title}”`, '，你写的内容如下 [1]。']
    : ['According to your note ', `“${title}”`, ', here is what you wrote [1].'];
}

function lastUserText(request: MetonaRequest): string {
  return request.messages.findLast((message) => message.role === 'user')?.content ?? '';
}

/** A provider of this app speaks under its own id, whatever the adapter calls itself. */
function underId(adapter: IMetonaProviderAdapter, providerId: string): IMetonaProviderAdapter {
  if (adapter.providerId === providerId) return adapter;
  const rename = (response: MetonaResponse): MetonaResponse => ({
    ...response,
    meta: { ...response.meta, provider: providerId },
  });
  return {
    providerId,
    supportedModels: adapter.supportedModels,
    getContextWindow: (model) => adapter.getContextWindow(model),
    healthCheck: () => adapter.healthCheck(),
    listModels: async () => (await adapter.listModels()).map((info) => ({ ...info, providerId })),
    send: async (request, options) => rename(await adapter.send(request, options)),
    sendStream: async (request, onEvent, options) =>
      rename(await adapter.sendStream(request, onEvent, options)),
  };
}

/** Builds the adapter for one stored provider and model with the `src/providers` factories. */
export function buildAdapter(config: AdapterConfig, deps: AdapterDependencies = {}): IMetonaProviderAdapter {
  const { provider_id: providerId, model, api_key: apiKey } = config;
  const fetch = deps.fetch;
  switch (config.preset) {
    case 'mock':
      return underId(
        createMockAdapter({
          scenario: deps.mockScenario ?? 'demo',
          scenarios: CHAT_MOCK_SCENARIOS,
          pick: (request) =>
            citedAnswerScenario(request) ??
            // The demo greeting in the language of the message; a scenario a test chose stays as it is.
            (deps.mockScenario === undefined && requestLanguage(lastUserText(request)) === 'zh'
              ? CHAT_MOCK_SCENARIOS['demo-zh']
              : undefined),
          ...(deps.sleep && { sleep: deps.sleep }),
        }),
        providerId,
      );
    case 'deepseek':
    case 'agnes-ai':
    case 'openai':
    case 'custom': {
      const base: OpenAICompatiblePreset =
        config.preset === 'custom'
          ? {
              id: providerId,
              displayName: providerId,
              baseUrl: config.base_url,
              thinking: 'none',
              reasoningPassback: 'never',
              maxTokensField: 'max_tokens',
              parallelToolCalls: false,
              models: {},
            }
          : OPENAI_COMPATIBLE_PRESETS[config.preset];
      return createOpenAICompatibleAdapter({
        preset: { ...base, id: providerId },
        model,
        baseUrl: config.base_url,
        ...(apiKey && { apiKey }),
        ...(fetch && { fetch }),
      });
    }
    case 'anthropic':
      return createAnthropicAdapter({
        providerId,
        model,
        baseUrl: config.base_url,
        ...(apiKey && { apiKey }),
        ...(fetch && { fetch }),
      });
    case 'ollama':
      return underId(
        createOllamaAdapter({
          model,
          baseUrl: config.base_url,
          ...(config.context_window && { contextWindow: config.context_window }),
          ...(apiKey && { apiKey }),
          ...(fetch && { fetch }),
        }),
        providerId,
      );
    case 'webllm':
      throw new Error('The local provider is built by ProviderService.adapterFor');
    default: {
      const unknown: never = config.preset;
      throw new Error(`Unknown preset ${String(unknown)}`);
    }
  }
}

/** IR model info to §8.1's ModelInfo; only what the adapter vouches for is claimed. */
export function toModelInfo(info: MetonaModelInfo): ModelInfoDto {
  const capabilities: ModelCapability[] = ['chat'];
  if (info.supportsStreaming) capabilities.push('streaming');
  if (info.supportsToolCalling) capabilities.push('tool_calling');
  if (info.supportsImages) capabilities.push('vision');
  if (info.supportsThinking) capabilities.push('reasoning');
  if (info.supportsStructuredOutput) capabilities.push('structured_output');
  return {
    model: info.id,
    display_name: info.displayName || info.id,
    capabilities,
    context_window: info.contextWindow,
    max_output_tokens: info.maxOutput,
    deprecated: false,
    metadata: {},
  };
}

/** A model nobody described: the conservative set (§8.1). */
export function unknownModelInfo(model: string): ModelInfoDto {
  return {
    model,
    display_name: model,
    capabilities: [...CONSERVATIVE_CAPABILITIES],
    context_window: null,
    max_output_tokens: null,
    deprecated: false,
    metadata: {},
  };
}
