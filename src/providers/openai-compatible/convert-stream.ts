import type { MetonaFinishReason } from '../../ir';
import { invalidResponseError, mapStreamError } from '../shared/errors';
import { SseDecoder, type SseEvent } from '../shared/sse';
import { readStreamParts } from '../shared/read-stream-parts';
import type { StreamPart } from '../shared/stream-parts';
import { ToolCallAssembler } from '../shared/tool-call-assembler';
import type { ToolNameCodec } from '../shared/tool-names';
import { openAIErrorDetails } from './map-error';
import { mapOpenAIFinishReason, mapOpenAIUsage } from './map-finish-reason';
import { parseOpenAIStreamData, type OpenAIChunk } from './wire-schemas';

export interface OpenAIStreamOptions {
  provider: string;
  requestId: string;
}

/** Synchronous core of the conversion, fed one SSE `data:` payload at a time. */
export interface OpenAIStreamConverter {
  /** Appends the parts of one payload to `out`; false once the stream has ended. */
  push(data: string, out: StreamPart[]): boolean;
  /** The wire closed: finishes a stream that sent its finish_reason without `[DONE]`. */
  end(out: StreamPart[]): void;
}

/**
 * Chat Completions SSE to stream parts. Per-call state lives in this closure:
 * the tool-call buffer, the finish reason and the model name. The stream ends
 * at `[DONE]`; a stream that closes after its `finish_reason` without `[DONE]`
 * is accepted (several compatible servers omit it), one that closes before is
 * left unfinished so the driver reports it interrupted.
 */
export function createOpenAIStreamConverter({
  provider,
  requestId,
}: OpenAIStreamOptions): OpenAIStreamConverter {
  const toolCalls = new ToolCallAssembler({ provider, fallbackId: (index) => `call_${requestId}_${index}` });
  let finishReason: MetonaFinishReason | undefined;
  let model: string | undefined;
  let sawToolCall = false;
  let ended = false;

  /** Completes buffered calls; false when one of them failed (the stream ends with its error). */
  function flushToolCalls(out: StreamPart[]): boolean {
    for (const result of toolCalls.complete()) {
      if (!result.ok) {
        out.push({ type: 'error', error: result.error });
        return false;
      }
      out.push({ type: 'tool_call_complete', toolCall: result.call });
    }
    return true;
  }

  function finish(out: StreamPart[]): void {
    if (!flushToolCalls(out)) return;
    out.push({
      type: 'finish',
      finishReason: finishReason ?? (sawToolCall ? 'tool_calls' : 'stop'),
      ...(model && { model }),
    });
  }

  /** Parts of one chunk; false when the chunk ended the stream with an error. */
  function convertChunk(chunk: OpenAIChunk, out: StreamPart[]): boolean {
    model ||= chunk.model ?? undefined;
    const choices = chunk.choices;
    if (choices) {
      for (const choice of choices) {
        if ((choice.index ?? 0) !== 0) continue; // n > 1 is never requested
        const delta = choice.delta;
        if (delta) {
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (reasoning) out.push({ type: 'reasoning_delta', delta: reasoning });
          if (delta.content) out.push({ type: 'text_delta', delta: delta.content });
          const fragments = delta.tool_calls;
          if (fragments) {
            for (let position = 0; position < fragments.length; position++) {
              const fragment = fragments[position]!;
              const index = fragment.index ?? position;
              const isNew = !toolCalls.has(index);
              const name = fragment.function?.name ?? undefined;
              const argsDelta = fragment.function?.arguments ?? undefined;
              toolCalls.add({ index, id: fragment.id ?? undefined, name, argsDelta });
              sawToolCall = true;
              out.push({
                type: 'tool_call_delta',
                toolCallDelta: { index, ...(isNew && name && { name }), ...(argsDelta && { argsDelta }) },
              });
            }
          }
        }
        if (choice.finish_reason) {
          const mapped = mapOpenAIFinishReason(choice.finish_reason, provider);
          if ('error' in mapped) {
            out.push({ type: 'error', error: mapped.error });
            return false;
          }
          finishReason = mapped.finishReason;
          // The standard: complete the calls on finish_reason "tool_calls".
          if (!flushToolCalls(out)) return false;
        }
      }
    }
    if (chunk.usage) out.push({ type: 'usage', usage: mapOpenAIUsage(chunk.usage) });
    return true;
  }

  function convert(data: string, out: StreamPart[]): boolean {
    const item = parseOpenAIStreamData(data);
    switch (item.kind) {
      case 'done':
        finish(out);
        return false;
      case 'chunk':
        return convertChunk(item.chunk, out);
      case 'error':
        out.push({ type: 'error', error: mapStreamError(openAIErrorDetails(item.body), provider) });
        return false;
      case 'invalid':
        out.push({ type: 'error', error: invalidResponseError(provider, item.message) });
        return false;
      default: {
        const unhandled: never = item;
        throw new Error(`Unknown stream item ${JSON.stringify(unhandled)}`);
      }
    }
  }

  return {
    push(data, out) {
      if (ended) return false;
      if (!convert(data, out)) ended = true;
      return !ended;
    },
    end(out) {
      if (ended) return;
      ended = true;
      if (finishReason !== undefined) finish(out);
    },
  };
}

/** The converter over an iterable of SSE events, one part at a time. */
export async function* convertOpenAIStream(
  events: AsyncIterable<SseEvent>,
  options: OpenAIStreamOptions,
): AsyncGenerator<StreamPart> {
  const converter = createOpenAIStreamConverter(options);
  const out: StreamPart[] = [];
  for await (const event of events) {
    const more = converter.push(event.data, out);
    yield* out.splice(0);
    if (!more) return;
  }
  converter.end(out);
  yield* out;
}

/** A response body straight to stream parts, one array per network read (see readStreamParts). */
export function readOpenAIStream(
  body: ReadableStream<Uint8Array>,
  options: OpenAIStreamOptions,
  codec: ToolNameCodec,
): AsyncGenerator<StreamPart[]> {
  const converter = createOpenAIStreamConverter(options);
  return readStreamParts(
    body,
    new SseDecoder(),
    (event: SseEvent, out) => converter.push(event.data, out),
    codec,
    (out) => converter.end(out),
  );
}
