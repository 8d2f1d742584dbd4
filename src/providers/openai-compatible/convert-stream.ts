import type { MetonaFinishReason } from '../../ir';
import { invalidResponseError, mapStreamError } from '../shared/errors';
import type { SseEvent } from '../shared/sse';
import type { StreamPart } from '../shared/stream-parts';
import { ToolCallAssembler } from '../shared/tool-call-assembler';
import { openAIErrorDetails } from './map-error';
import { mapOpenAIFinishReason, mapOpenAIUsage } from './map-finish-reason';
import { parseOpenAIStreamData, type OpenAIChunk } from './wire-schemas';

export interface OpenAIStreamOptions {
  provider: string;
  requestId: string;
}

/**
 * Chat Completions SSE to stream parts. Per-call state lives in this closure:
 * the tool-call buffer, the finish reason and the model name. The stream ends
 * at `[DONE]`; a stream that closes after its `finish_reason` without `[DONE]`
 * is accepted (several compatible servers omit it), one that closes before is
 * left unfinished so the driver reports it interrupted.
 */
export async function* convertOpenAIStream(
  events: AsyncIterable<SseEvent>,
  { provider, requestId }: OpenAIStreamOptions,
): AsyncGenerator<StreamPart> {
  const toolCalls = new ToolCallAssembler({ provider, fallbackId: (index) => `call_${requestId}_${index}` });
  let finishReason: MetonaFinishReason | undefined;
  let model: string | undefined;
  let sawToolCall = false;

  /** Completes buffered calls; false when one of them failed (the stream ends with its error). */
  function* flushToolCalls(): Generator<StreamPart, boolean> {
    for (const result of toolCalls.complete()) {
      if (!result.ok) {
        yield { type: 'error', error: result.error };
        return false;
      }
      yield { type: 'tool_call_complete', toolCall: result.call };
    }
    return true;
  }

  function* finish(): Generator<StreamPart> {
    if (!(yield* flushToolCalls())) return;
    yield {
      type: 'finish',
      finishReason: finishReason ?? (sawToolCall ? 'tool_calls' : 'stop'),
      ...(model && { model }),
    };
  }

  /** Parts of one chunk; returns false when the chunk ended the stream with an error. */
  function* convertChunk(chunk: OpenAIChunk): Generator<StreamPart, boolean> {
    model ||= chunk.model ?? undefined;
    for (const choice of chunk.choices ?? []) {
      if ((choice.index ?? 0) !== 0) continue; // n > 1 is never requested
      const delta = choice.delta;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) yield { type: 'reasoning_delta', delta: reasoning };
      if (delta?.content) yield { type: 'text_delta', delta: delta.content };
      for (const [position, fragment] of (delta?.tool_calls ?? []).entries()) {
        const index = fragment.index ?? position;
        const isNew = !toolCalls.has(index);
        const name = fragment.function?.name ?? undefined;
        const argsDelta = fragment.function?.arguments ?? undefined;
        toolCalls.add({ index, id: fragment.id ?? undefined, name, argsDelta });
        sawToolCall = true;
        yield {
          type: 'tool_call_delta',
          toolCallDelta: { index, ...(isNew && name && { name }), ...(argsDelta && { argsDelta }) },
        };
      }
      if (choice.finish_reason) {
        const mapped = mapOpenAIFinishReason(choice.finish_reason, provider);
        if ('error' in mapped) {
          yield { type: 'error', error: mapped.error };
          return false;
        }
        finishReason = mapped.finishReason;
        // The standard: complete the calls on finish_reason "tool_calls".
        if (!(yield* flushToolCalls())) return false;
      }
    }
    if (chunk.usage) yield { type: 'usage', usage: mapOpenAIUsage(chunk.usage) };
    return true;
  }

  for await (const event of events) {
    const item = parseOpenAIStreamData(event.data);
    switch (item.kind) {
      case 'done':
        yield* finish();
        return;
      case 'chunk':
        if (!(yield* convertChunk(item.chunk))) return;
        break;
      case 'error':
        yield { type: 'error', error: mapStreamError(openAIErrorDetails(item.body), provider) };
        return;
      case 'invalid':
        yield { type: 'error', error: invalidResponseError(provider, item.message) };
        return;
      default: {
        const unhandled: never = item;
        throw new Error(`Unknown stream item ${JSON.stringify(unhandled)}`);
      }
    }
  }
  if (finishReason !== undefined) yield* finish();
}
