import type { MetonaFinishReason, MetonaPerfStats, MetonaTokenUsage } from '../../ir';
import type { OllamaChunk } from './wire-schemas';

/** `done_reason` to the IR; Ollama says "stop" even when the answer is tool calls. */
export function mapOllamaFinishReason(
  reason: string | null | undefined,
  sawToolCalls: boolean,
): MetonaFinishReason {
  if (reason === 'length') return 'length';
  return sawToolCalls ? 'tool_calls' : 'stop';
}

export function mapOllamaUsage(chunk: OllamaChunk): MetonaTokenUsage | undefined {
  if (chunk.prompt_eval_count == null && chunk.eval_count == null) return undefined;
  const input = chunk.prompt_eval_count ?? 0;
  const output = chunk.eval_count ?? 0;
  return { inputTokens: input, outputTokens: output, totalTokens: input + output };
}

const NS_PER_MS = 1_000_000;

/** Durations arrive in nanoseconds; tokens/s is generated tokens over generation time. */
export function mapOllamaPerfStats(chunk: OllamaChunk): MetonaPerfStats | undefined {
  const stats: MetonaPerfStats = {
    ...(chunk.load_duration != null && { loadDurationMs: chunk.load_duration / NS_PER_MS }),
    ...(chunk.prompt_eval_duration != null && {
      promptEvalDurationMs: chunk.prompt_eval_duration / NS_PER_MS,
    }),
    ...(chunk.eval_duration != null && { evalDurationMs: chunk.eval_duration / NS_PER_MS }),
    ...(chunk.eval_count != null &&
      chunk.eval_duration != null &&
      chunk.eval_duration > 0 && { tokensPerSecond: chunk.eval_count / (chunk.eval_duration / 1e9) }),
  };
  return Object.keys(stats).length > 0 ? stats : undefined;
}
