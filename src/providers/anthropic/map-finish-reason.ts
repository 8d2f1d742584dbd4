import type { MetonaFinishReason, MetonaTokenUsage } from '../../ir';
import type { AnthropicUsage } from './wire-schemas';

export function mapAnthropicStopReason(reason: string | null | undefined): MetonaFinishReason {
  switch (reason) {
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
    default:
      return 'stop';
  }
}

/**
 * Anthropic's `input_tokens` excludes cached input; the IR's `inputTokens` is
 * the whole prompt (as OpenAI's `prompt_tokens`), so cache reads and writes are
 * added back and reported as hits and misses.
 */
export function mapAnthropicUsage(usage: AnthropicUsage): MetonaTokenUsage {
  const uncached = usage.input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const input = uncached + cacheRead + cacheWrite;
  const output = usage.output_tokens ?? 0;
  const hasCache = usage.cache_read_input_tokens != null || usage.cache_creation_input_tokens != null;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output,
    ...(hasCache && { cacheHitTokens: cacheRead, cacheMissTokens: uncached + cacheWrite }),
  };
}

/** message_start carries the input figures, message_delta the running output: later non-null values win. */
export function mergeAnthropicUsage(previous: AnthropicUsage, next: AnthropicUsage): AnthropicUsage {
  return {
    input_tokens: next.input_tokens ?? previous.input_tokens,
    output_tokens: next.output_tokens ?? previous.output_tokens,
    cache_creation_input_tokens: next.cache_creation_input_tokens ?? previous.cache_creation_input_tokens,
    cache_read_input_tokens: next.cache_read_input_tokens ?? previous.cache_read_input_tokens,
  };
}
