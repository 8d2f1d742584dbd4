import { invalidResponseError, mapStreamError } from '../shared/errors';
import { LineDecoder } from '../shared/line-decoder';
import { readStreamParts } from '../shared/read-stream-parts';
import type { StreamPart } from '../shared/stream-parts';
import { parseToolArguments, withArgumentsError } from '../shared/tool-call-assembler';
import type { ToolNameCodec } from '../shared/tool-names';
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
export function createOllamaStreamConverter({
  provider,
  requestId,
}: OllamaStreamOptions): (line: string, out: StreamPart[]) => boolean {
  let toolCount = 0;
  let model: string | undefined;

  function convertChunk(chunk: OllamaChunk, out: StreamPart[]): boolean {
    model ||= chunk.model ?? undefined;
    const message = chunk.message;
    if (message?.thinking) out.push({ type: 'reasoning_delta', delta: message.thinking });
    if (message?.content) out.push({ type: 'text_delta', delta: message.content });
    for (const call of message?.tool_calls ?? []) {
      const index = toolCount++;
      const raw = call.function.arguments ?? {};
      const parsed = typeof raw === 'string' ? parseToolArguments(raw) : { ok: true as const, args: raw };
      const id = call.id || `call_${requestId}_${index}`;
      if (!parsed.ok) {
        out.push({
          type: 'tool_call_complete',
          toolCall: withArgumentsError({ id, name: call.function.name }, String(raw), parsed.reason),
        });
        continue;
      }
      out.push({
        type: 'tool_call_complete',
        toolCall: {
          id,
          name: call.function.name,
          args: parsed.args,
        },
      });
    }
    return true;
  }

  /** Appends the parts of one NDJSON line; false once the stream has ended. */
  return (line, out) => {
    // Blank lines are skipped; a line that opens an object never pays for the trim.
    if (line.charCodeAt(0) !== 123 /* '{' */ && line.trim() === '') return true;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      out.push({
        type: 'error',
        error: invalidResponseError(provider, `Stream line is not JSON: ${message}`),
      });
      return false;
    }
    const item = parseOllamaLine(value);
    switch (item.kind) {
      case 'chunk': {
        if (!convertChunk(item.chunk, out)) return false;
        if (!item.chunk.done) return true;
        const usage = mapOllamaUsage(item.chunk);
        if (usage) out.push({ type: 'usage', usage });
        const perfStats = mapOllamaPerfStats(item.chunk);
        out.push({
          type: 'finish',
          finishReason: mapOllamaFinishReason(item.chunk.done_reason, toolCount > 0),
          ...(model && { model }),
          ...(perfStats && { perfStats }),
        });
        return false;
      }
      case 'error':
        out.push({
          type: 'error',
          error: mapStreamError(
            { message: item.message, providerCode: ollamaProviderCode(item.message) },
            provider,
          ),
        });
        return false;
      case 'invalid':
        out.push({ type: 'error', error: invalidResponseError(provider, item.message) });
        return false;
      default: {
        const unhandled: never = item;
        throw new Error(`Unknown stream item ${JSON.stringify(unhandled)}`);
      }
    }
  };
}

/** A response body straight to stream parts, one array per network read (see readStreamParts). */
export function readOllamaStream(
  body: ReadableStream<Uint8Array>,
  options: OllamaStreamOptions,
  codec: ToolNameCodec,
): AsyncGenerator<StreamPart[]> {
  return readStreamParts(body, new LineDecoder(), createOllamaStreamConverter(options), codec);
}
