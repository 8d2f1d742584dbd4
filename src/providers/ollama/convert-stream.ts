import { invalidResponseError, mapStreamError } from '../shared/errors';
import type { NdjsonItem } from '../shared/ndjson';
import type { StreamPart } from '../shared/stream-parts';
import { parseToolArguments } from '../shared/tool-call-assembler';
import { ollamaProviderCode } from './map-error';
import { mapOllamaFinishReason, mapOllamaPerfStats, mapOllamaUsage } from './map-finish-reason';
import { parseOllamaLine, type OllamaChunk } from './wire-schemas';

export interface OllamaStreamOptions {
  provider: string;
  requestId: string;
}

/**
 * /api/chat NDJSON to stream parts. Tool calls arrive whole, so they become
 * `tool_call_complete` directly, with no deltas (the standard's Ollama row).
 * The stream ends at the line with `done: true`; without it, it was cut.
 */
export async function* convertOllamaStream(
  items: AsyncIterable<NdjsonItem>,
  { provider, requestId }: OllamaStreamOptions,
): AsyncGenerator<StreamPart> {
  let toolCount = 0;
  let model: string | undefined;

  function* convertChunk(chunk: OllamaChunk): Generator<StreamPart, boolean> {
    model ||= chunk.model ?? undefined;
    const message = chunk.message;
    if (message?.thinking) yield { type: 'reasoning_delta', delta: message.thinking };
    if (message?.content) yield { type: 'text_delta', delta: message.content };
    for (const call of message?.tool_calls ?? []) {
      const index = toolCount++;
      const raw = call.function.arguments ?? {};
      const parsed = typeof raw === 'string' ? parseToolArguments(raw) : { ok: true as const, args: raw };
      if (!parsed.ok) {
        yield {
          type: 'error',
          error: {
            code: 'parse_error',
            message: `The arguments of tool call "${call.function.name}" are not a JSON object: ${parsed.reason}`,
            provider,
            retryable: false,
          },
        };
        return false;
      }
      yield {
        type: 'tool_call_complete',
        toolCall: {
          id: call.id || `call_${requestId}_${index}`,
          name: call.function.name,
          args: parsed.args,
        },
      };
    }
    return true;
  }

  for await (const line of items) {
    if (!line.ok) {
      yield {
        type: 'error',
        error: invalidResponseError(provider, `Stream line is not JSON: ${line.message}`),
      };
      return;
    }
    const item = parseOllamaLine(line.value);
    switch (item.kind) {
      case 'chunk': {
        if (!(yield* convertChunk(item.chunk))) return;
        if (!item.chunk.done) break;
        const usage = mapOllamaUsage(item.chunk);
        if (usage) yield { type: 'usage', usage };
        const perfStats = mapOllamaPerfStats(item.chunk);
        yield {
          type: 'finish',
          finishReason: mapOllamaFinishReason(item.chunk.done_reason, toolCount > 0),
          ...(model && { model }),
          ...(perfStats && { perfStats }),
        };
        return;
      }
      case 'error':
        yield {
          type: 'error',
          error: mapStreamError(
            { message: item.message, providerCode: ollamaProviderCode(item.message) },
            provider,
          ),
        };
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
}
