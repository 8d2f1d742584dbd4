import { readBytes } from './line-decoder';
import type { StreamPart } from './stream-parts';
import { decodeToolName, type ToolNameCodec } from './tool-names';

/** Cuts a response body's bytes into items: SSE events, or NDJSON lines. */
export interface StreamItemDecoder<T> {
  push(chunk: Uint8Array): Iterable<T>;
  end(): Iterable<T>;
}

/**
 * A response body straight to stream parts in one loop (bytes, items, the
 * provider's converter, tool names), one array per network read: an async
 * generator per stage would cost a promise and a result object per stage per
 * token. `convert` appends the parts of one item and returns false once the
 * stream is finished; `finish` adds what an ended stream still owes.
 */
export async function* readStreamParts<T>(
  body: ReadableStream<Uint8Array>,
  decoder: StreamItemDecoder<T>,
  convert: (item: T, out: StreamPart[]) => boolean,
  codec: ToolNameCodec,
  finish?: (out: StreamPart[]) => void,
): AsyncGenerator<StreamPart[]> {
  const named = (parts: StreamPart[]) => {
    for (let i = 0; i < parts.length; i++) parts[i] = decodeToolName(parts[i]!, codec);
    return parts;
  };
  for await (const bytes of readBytes(body)) {
    const out: StreamPart[] = [];
    for (const item of decoder.push(bytes)) {
      if (!convert(item, out)) {
        yield named(out);
        return;
      }
    }
    if (out.length > 0) yield named(out);
  }
  // A last item without its terminator (an unterminated line) still counts.
  const out: StreamPart[] = [];
  for (const item of decoder.end()) if (!convert(item, out)) break;
  finish?.(out);
  if (out.length > 0) yield named(out);
}
