import { LineDecoder, readBytes } from './line-decoder';

/** A JSON text parsed, or kept with the reason it is not JSON (the caller decides what that means). */
export type JsonParseResult = { ok: true; value: unknown } | { ok: false; line: string; message: string };

/** One non-blank NDJSON line. */
export type NdjsonItem = JsonParseResult;

/** Incremental newline-delimited JSON parser; blank lines are skipped. */
export class NdjsonDecoder {
  readonly #lines = new LineDecoder();

  push(chunk: Uint8Array): NdjsonItem[] {
    return parseLines(this.#lines.push(chunk));
  }

  /** A last line without its newline is still a line in NDJSON. */
  end(): NdjsonItem[] {
    return parseLines(this.#lines.end());
  }
}

function parseLines(lines: string[]): NdjsonItem[] {
  const items: NdjsonItem[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      items.push({ ok: true, value: JSON.parse(line) as unknown });
    } catch (error) {
      items.push({ ok: false, line, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return items;
}

/** A response body as NDJSON items; leaving the loop early cancels the body. */
export async function* readNdjson(body: ReadableStream<Uint8Array>): AsyncGenerator<NdjsonItem, void> {
  const decoder = new NdjsonDecoder();
  for await (const chunk of readBytes(body)) yield* decoder.push(chunk);
  yield* decoder.end();
}

/** Shared by SSE `data:` payloads: JSON or a reason it is not. */
export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, line: text, message: error instanceof Error ? error.message : String(error) };
  }
}
