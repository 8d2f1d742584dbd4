import {
  DEFAULT_MOCK_MODEL,
  type ProviderPresetDto,
  type ProviderPresetId,
  type ProviderType,
} from '../contracts';
import { ANTHROPIC_BASE_URL } from './anthropic';
import { OLLAMA_DEFAULT_BASE_URL } from './ollama';
import { OPENAI_COMPATIBLE_PRESETS } from './openai-compatible';

const PRESET_TYPES: Record<ProviderPresetId, ProviderType> = {
  mock: 'mock',
  deepseek: 'openai-compatible',
  'agnes-ai': 'openai-compatible',
  openai: 'openai-compatible',
  custom: 'openai-compatible',
  anthropic: 'anthropic',
  ollama: 'ollama',
  webllm: 'webllm',
};

export function presetType(preset: ProviderPresetId): ProviderType {
  return PRESET_TYPES[preset];
}

/** The presets a provider can be created from (`GET /api/providers/presets`). */
export const PROVIDER_PRESETS: readonly ProviderPresetDto[] = [
  {
    preset: 'mock',
    type: 'mock',
    display_name: 'Mock (scripted demo)',
    base_url: 'mock://local',
    default_model: DEFAULT_MOCK_MODEL,
    requires_api_key: false,
    browser_access: 'none',
  },
  ...(['deepseek', 'agnes-ai', 'openai'] as const).map((id): ProviderPresetDto => ({
    preset: id,
    type: 'openai-compatible',
    display_name: OPENAI_COMPATIBLE_PRESETS[id].displayName,
    base_url: OPENAI_COMPATIBLE_PRESETS[id].baseUrl,
    default_model: OPENAI_COMPATIBLE_PRESETS[id].defaultModel ?? null,
    requires_api_key: true,
    browser_access: 'cors',
  })),
  {
    preset: 'custom',
    type: 'openai-compatible',
    display_name: 'OpenAI-compatible',
    base_url: 'http://localhost:8000/v1',
    default_model: null,
    requires_api_key: false,
    browser_access: 'cors',
  },
  {
    preset: 'anthropic',
    type: 'anthropic',
    display_name: 'Anthropic',
    base_url: ANTHROPIC_BASE_URL,
    default_model: 'claude-sonnet-4-5',
    requires_api_key: true,
    browser_access: 'anthropic-browser-header',
  },
  {
    preset: 'ollama',
    type: 'ollama',
    display_name: 'Ollama',
    base_url: OLLAMA_DEFAULT_BASE_URL,
    default_model: null,
    requires_api_key: false,
    browser_access: 'ollama-origins',
  },
];

export function presetById(preset: ProviderPresetId): ProviderPresetDto {
  return PROVIDER_PRESETS.find((entry) => entry.preset === preset)!;
}
