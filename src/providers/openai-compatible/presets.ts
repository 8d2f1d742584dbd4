/** How a preset turns `thinkingEnabled`/`thinkingEffort` into wire fields (the standard's mapping table). */
export type ThinkingStyle = 'deepseek' | 'chat-template-kwargs' | 'reasoning-effort' | 'none';

export interface ModelCatalogEntry {
  displayName: string;
  contextWindow: number;
  maxOutput: number;
  thinking: boolean;
  images: boolean;
  tools: boolean;
}

export interface OpenAICompatiblePreset {
  id: string;
  displayName: string;
  baseUrl: string;
  defaultModel?: string;
  thinking: ThinkingStyle;
  /** DeepSeek: `reasoning_content` of tool-call rounds must go back to the API. */
  reasoningPassback: 'tool-call-rounds' | 'never';
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  parallelToolCalls: boolean;
  /** Known models. Anything else gets the conservative defaults below. */
  models: Record<string, ModelCatalogEntry>;
  /**
   * The `response_format` types the API documents. Absent: the server is not
   * known (llama.cpp, vLLM, LM Studio take both), so the format is sent and
   * the server answers for itself.
   */
  responseFormats?: readonly ('json_object' | 'json_schema')[];
}

/** For models the catalog does not know: claim nothing we cannot vouch for (contract §8.1). */
export const UNKNOWN_MODEL: ModelCatalogEntry = {
  displayName: '',
  // Small local servers (llama.cpp, LM Studio) often run 4k contexts: assume no more.
  contextWindow: 4096,
  maxOutput: 4096,
  thinking: false,
  images: false,
  tools: false,
};

export const DEEPSEEK_PRESET: OpenAICompatiblePreset = {
  id: 'deepseek',
  displayName: 'DeepSeek',
  baseUrl: 'https://api.deepseek.com',
  defaultModel: 'deepseek-chat',
  thinking: 'deepseek',
  reasoningPassback: 'tool-call-rounds',
  maxTokensField: 'max_tokens',
  parallelToolCalls: false,
  // DeepSeek's JSON Output is `json_object` only; a schema would be ignored.
  responseFormats: ['json_object'],
  models: {
    'deepseek-chat': {
      displayName: 'DeepSeek Chat',
      contextWindow: 128_000,
      maxOutput: 8192,
      thinking: true,
      images: false,
      tools: true,
    },
    'deepseek-reasoner': {
      displayName: 'DeepSeek Reasoner',
      contextWindow: 128_000,
      maxOutput: 65_536,
      thinking: true,
      images: false,
      tools: true,
    },
  },
};

export const AGNES_AI_PRESET: OpenAICompatiblePreset = {
  id: 'agnes-ai',
  displayName: 'Agnes AI',
  baseUrl: 'https://apihub.agnes-ai.com/v1',
  thinking: 'chat-template-kwargs',
  reasoningPassback: 'never',
  maxTokensField: 'max_tokens',
  parallelToolCalls: false,
  models: {},
};

export const OPENAI_PRESET: OpenAICompatiblePreset = {
  id: 'openai',
  displayName: 'OpenAI',
  baseUrl: 'https://api.openai.com/v1',
  defaultModel: 'gpt-4o-mini',
  thinking: 'reasoning-effort',
  reasoningPassback: 'never',
  maxTokensField: 'max_completion_tokens',
  parallelToolCalls: true,
  responseFormats: ['json_object', 'json_schema'],
  models: {
    'gpt-4o': {
      displayName: 'GPT-4o',
      contextWindow: 128_000,
      maxOutput: 16_384,
      thinking: false,
      images: true,
      tools: true,
    },
    'gpt-4o-mini': {
      displayName: 'GPT-4o mini',
      contextWindow: 128_000,
      maxOutput: 16_384,
      thinking: false,
      images: true,
      tools: true,
    },
    'gpt-4.1': {
      displayName: 'GPT-4.1',
      contextWindow: 1_047_576,
      maxOutput: 32_768,
      thinking: false,
      images: true,
      tools: true,
    },
    'o4-mini': {
      displayName: 'o4-mini',
      contextWindow: 200_000,
      maxOutput: 100_000,
      thinking: true,
      images: true,
      tools: true,
    },
  },
};

export const OPENAI_COMPATIBLE_PRESETS = {
  deepseek: DEEPSEEK_PRESET,
  'agnes-ai': AGNES_AI_PRESET,
  openai: OPENAI_PRESET,
} as const satisfies Record<string, OpenAICompatiblePreset>;
export type OpenAICompatiblePresetId = keyof typeof OPENAI_COMPATIBLE_PRESETS;
