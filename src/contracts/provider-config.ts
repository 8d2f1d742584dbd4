import type { ErrorCode } from './error-codes';

/**
 * Provider DTOs (contract §8: `/api/providers/*`, `POST /api/chat`). Zod-free so
 * the page can import them; the request schemas live in provider-schemas.ts.
 * API keys go in through `api_key` fields and never come back: a read says only
 * `has_api_key`.
 */
export const PROVIDER_TYPES = ['openai-compatible', 'anthropic', 'ollama', 'mock', 'webllm'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

/**
 * Presets a provider can be created from; `custom` is any other OpenAI-compatible
 * endpoint. `webllm` is the built-in local provider's and cannot be created.
 */
export const PROVIDER_PRESET_IDS = [
  'mock',
  'deepseek',
  'agnes-ai',
  'openai',
  'custom',
  'anthropic',
  'ollama',
  'webllm',
] as const;
export type ProviderPresetId = (typeof PROVIDER_PRESET_IDS)[number];

/** The provider every install starts with: scripted, offline, for demos and tests. */
export const DEFAULT_PROVIDER_ID = 'mock';
export const DEFAULT_MOCK_MODEL = 'mock-1';

/**
 * In-browser models (web-llm): a built-in provider, never stored, created or
 * deleted; its models are downloaded and removed in Settings → Local models.
 */
export const LOCAL_PROVIDER_ID = 'webllm';

/** The vault name of a provider's key; the `plugin.*` namespace belongs to plugins. */
export function providerSecretName(providerId: string): string {
  return `provider.${providerId}.api_key`;
}
export const RESERVED_CREDENTIAL_PREFIX = 'plugin.';

export interface ProviderPresetDto {
  preset: ProviderPresetId;
  type: ProviderType;
  display_name: string;
  base_url: string;
  default_model: string | null;
  requires_api_key: boolean;
  /** What the user must set up so a browser page may call this endpoint (CORS). */
  browser_access: 'none' | 'cors' | 'ollama-origins' | 'anthropic-browser-header';
}

export interface ProviderFallbackDto {
  provider_id: string;
  model: string;
}

export interface ProviderDto {
  provider_id: string;
  type: ProviderType;
  preset: ProviderPresetId;
  display_name: string;
  base_url: string;
  default_model: string;
  enabled: boolean;
  /** Whether a key is stored; the key itself is never returned. */
  has_api_key: boolean;
  fallback: ProviderFallbackDto | null;
  created_at: string;
  updated_at: string;
}

export interface CreateProviderInput {
  provider_id?: string;
  preset: ProviderPresetId;
  display_name?: string;
  base_url?: string;
  default_model?: string;
  enabled?: boolean;
  /** Write-only: stored encrypted in the vault, never returned. */
  api_key?: string;
  fallback?: ProviderFallbackDto | null;
}

export interface PatchProviderInput {
  display_name?: string;
  base_url?: string;
  default_model?: string;
  enabled?: boolean;
  /** A string replaces the stored key, null removes it, absent keeps it. */
  api_key?: string | null;
  fallback?: ProviderFallbackDto | null;
}

/** §8.1 capabilities; unknown models get the conservative `chat` + `streaming`. */
export const MODEL_CAPABILITIES = [
  'chat',
  'streaming',
  'tool_calling',
  'vision',
  'reasoning',
  'structured_output',
] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];
export const CONSERVATIVE_CAPABILITIES: readonly ModelCapability[] = ['chat', 'streaming'];

export interface ModelInfoDto {
  model: string;
  display_name: string;
  capabilities: ModelCapability[];
  context_window: number | null;
  max_output_tokens: number | null;
  deprecated: boolean;
  metadata: Record<string, unknown>;
}

/** `POST /api/providers/test`: a saved provider, or an unsaved config; the key is used once. */
export interface TestProviderInput {
  provider_id?: string;
  preset?: ProviderPresetId;
  base_url?: string;
  model?: string;
  /** Temporary: used for this test only, never stored. */
  api_key?: string;
}

export interface ProviderTestResultDto {
  ok: boolean;
  latency_ms: number;
  model_count: number | null;
  /**
   * The model the test was about: the one given in the test, else the provider's
   * default; null where there is none (a custom endpoint with no model yet).
   */
  model: string | null;
  /**
   * Whether the provider's list offers `model` under the name it would be sent by.
   * Null claims nothing: the test failed, there is no model, or the list was empty
   * (some servers list nothing yet answer every model). False is a warning, not a failure.
   */
  model_listed: boolean | null;
  /** The listed model ids, in the provider's order, so a model can be picked from them; null on failure. */
  listed_models: string[] | null;
  /** `metona_code`: as on a chat message's error, the provider failure behind `code`. */
  error: { code: ErrorCode; message: string; metona_code?: string } | null;
}
