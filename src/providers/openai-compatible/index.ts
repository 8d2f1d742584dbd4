export {
  OpenAICompatibleAdapter,
  createAgnesAdapter,
  createDeepSeekAdapter,
  createOpenAIAdapter,
  createOpenAICompatibleAdapter,
  type OpenAICompatibleConfig,
} from './adapter';
export {
  AGNES_AI_PRESET,
  DEEPSEEK_PRESET,
  OPENAI_COMPATIBLE_PRESETS,
  OPENAI_PRESET,
  type ModelCatalogEntry,
  type OpenAICompatiblePreset,
  type OpenAICompatiblePresetId,
  type ThinkingStyle,
} from './presets';
