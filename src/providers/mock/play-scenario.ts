import { isRetryableCode } from '../shared/errors';
import type { Sleep } from '../shared/sleep';
import type { StreamPart } from '../shared/stream-parts';
import { ToolCallAssembler } from '../shared/tool-call-assembler';
import type { MockScenario } from './scenario-schema';

export interface PlayOptions {
  requestId: string;
  sleep: Sleep;
  signal?: AbortSignal;
  /** The request turned thinking off: reasoning steps are skipped, as a reasoning model does. */
  thinkingOff?: boolean;
}

/**
 * A scenario as stream parts, the mock's wire→IR conversion. Tool calls go
 * through the same assembly buffer as the remote adapters, so a scenario with
 * broken arguments yields the same `parse_error`.
 */
export async function* playScenario(
  scenario: MockScenario,
  options: PlayOptions,
): AsyncGenerator<StreamPart> {
  const toolCalls = new ToolCallAssembler({
    provider: 'mock',
    fallbackId: (index) => `call_${options.requestId}_${index}`,
  });
  let toolIndex = 0;
  const pause = async () => {
    if (scenario.chunk_delay_ms > 0) await options.sleep(scenario.chunk_delay_ms, options.signal);
    if (options.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
  };
  const flushToolCalls = function* (): Generator<StreamPart> {
    for (const result of toolCalls.complete()) {
      yield result.ok
        ? { type: 'tool_call_complete', toolCall: result.call }
        : { type: 'error', error: result.error };
    }
  };

  for (const step of scenario.steps) {
    switch (step.type) {
      case 'reasoning':
      case 'text':
        if (step.type === 'reasoning' && options.thinkingOff) break;
        for (const chunk of step.chunks) {
          await pause();
          yield { type: step.type === 'text' ? 'text_delta' : 'reasoning_delta', delta: chunk };
        }
        break;
      case 'tool_call': {
        const index = toolIndex++;
        await pause();
        toolCalls.add({ index, id: step.id, name: step.name });
        yield { type: 'tool_call_delta', toolCallDelta: { index, name: step.name } };
        for (const chunk of step.argument_chunks) {
          await pause();
          toolCalls.add({ index, argsDelta: chunk });
          yield { type: 'tool_call_delta', toolCallDelta: { index, argsDelta: chunk } };
        }
        break;
      }
      case 'usage':
        yield {
          type: 'usage',
          usage: {
            inputTokens: step.input_tokens,
            outputTokens: step.output_tokens,
            totalTokens: step.input_tokens + step.output_tokens,
            ...(step.reasoning_tokens !== undefined && { reasoningTokens: step.reasoning_tokens }),
            ...(step.cache_hit_tokens !== undefined && { cacheHitTokens: step.cache_hit_tokens }),
            ...(step.cache_miss_tokens !== undefined && { cacheMissTokens: step.cache_miss_tokens }),
          },
        };
        break;
      case 'delay':
        await options.sleep(step.ms, options.signal);
        break;
      case 'error':
        yield {
          type: 'error',
          error: {
            code: step.code,
            message: step.message,
            provider: 'mock',
            retryable: step.retryable ?? isRetryableCode(step.code),
            ...(step.retry_after_ms !== undefined && { retryAfterMs: step.retry_after_ms }),
          },
        };
        return;
      case 'cut':
        return;
      case 'finish': {
        const hadToolCalls = toolIndex > 0;
        yield* flushToolCalls();
        yield {
          type: 'finish',
          finishReason: step.reason ?? (hadToolCalls ? 'tool_calls' : 'stop'),
          model: scenario.model,
        };
        return;
      }
      default: {
        const unhandled: never = step;
        throw new Error(`Unknown mock step ${JSON.stringify(unhandled)}`);
      }
    }
  }
  // No explicit finish step: the scenario ends naturally.
  const hadToolCalls = toolIndex > 0;
  yield* flushToolCalls();
  yield { type: 'finish', finishReason: hadToolCalls ? 'tool_calls' : 'stop', model: scenario.model };
}
