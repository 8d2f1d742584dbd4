import type { MetonaError, MetonaFinishReason, MetonaTokenUsage } from '../../ir';
import type { OpenAIUsage } from './wire-schemas';

/**
 * `finish_reason` to the IR. DeepSeek's `insufficient_system_resource` is not
 * an ending but a failure of the service, so it maps to a retryable error.
 */
export function mapOpenAIFinishReason(
  reason: string,
  provider: string,
): { finishReason: MetonaFinishReason } | { error: MetonaError } {
  switch (reason) {
    case 'stop':
      return { finishReason: 'stop' };
    case 'length':
      return { finishReason: 'length' };
    case 'tool_calls':
    case 'function_call':
      return { finishReason: 'tool_calls' };
    case 'content_filter':
      return { finishReason: 'content_filter' };
    case 'insufficient_system_resource':
      return {
        error: {
          code: 'model_overloaded',
          message: 'The provider ran out of capacity while answering.',
          provider,
          providerCode: reason,
          retryable: true,
        },
      };
    default:
      return { finishReason: 'stop' };
  }
}

/**
 * Usage with reasoning and cache figures: DeepSeek reports
 * `prompt_cache_hit_tokens`/`prompt_cache_miss_tokens`, OpenAI
 * `prompt_tokens_details.cached_tokens`; both put reasoning in
 * `completion_tokens_details.reasoning_tokens` (already inside completion_tokens).
 */
export function mapOpenAIUsage(usage: OpenAIUsage): MetonaTokenUsage {
  const cacheHit = usage.prompt_cache_hit_tokens ?? usage.prompt_tokens_details?.cached_tokens ?? undefined;
  const cacheMiss =
    usage.prompt_cache_miss_tokens ??
    (cacheHit != null ? Math.max(0, usage.prompt_tokens - cacheHit) : undefined);
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? undefined;
  return {
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
    ...(reasoning != null && { reasoningTokens: reasoning }),
    ...(cacheHit != null && { cacheHitTokens: cacheHit }),
    ...(cacheMiss != null && { cacheMissTokens: cacheMiss }),
  };
}
