import { LineDecoder, readBytes } from './line-decoder';

/** One dispatched Server-Sent Event (WHATWG HTML §9.2 "event stream" parsing). */
export interface SseEvent {
  /** The `event:` field; `message` when the server sent none. */
  event: string;
  /** The `data:` lines joined with LF. */
  data: string;
  /** The last `id:` seen so far in the stream, as the spec's "last event ID". */
  id?: string;
  retry?: number;
}

/**
 * Incremental SSE parser: push bytes, get the events they completed.
 * Comment lines (`: keep-alive`, heartbeats) are dropped; an event is dispatched
 * on a blank line only, so an event cut off by the end of the stream is never
 * delivered half-read.
 */
export class SseDecoder {
  readonly #lines = new LineDecoder();
  #data: string[] = [];
  #event = '';
  #lastEventId: string | undefined;
  #retry: number | undefined;

  push(chunk: Uint8Array): SseEvent[] {
    return this.#consume(this.#lines.push(chunk));
  }

  /** Ends the stream: whatever has not been closed by a blank line is discarded. */
  end(): SseEvent[] {
    const events = this.#consume(this.#lines.end());
    this.#data = [];
    this.#event = '';
    return events;
  }

  #consume(lines: string[]): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of lines) {
      if (line === '') {
        const event = this.#dispatch();
        if (event) events.push(event);
        continue;
      }
      if (line.charCodeAt(0) === 58 /* ':' */) continue;
      if (line.startsWith('data:')) {
        // Nearly every line; skips cutting out the field name.
        this.#data.push(line.charCodeAt(5) === 32 /* ' ' */ ? line.slice(6) : line.slice(5));
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32 /* ' ' */) value = value.slice(1);
      switch (field) {
        case 'data':
          this.#data.push(value);
          break;
        case 'event':
          this.#event = value;
          break;
        case 'id':
          if (!value.includes('\u0000')) this.#lastEventId = value;
          break;
        case 'retry':
          if (/^\d+$/.test(value)) this.#retry = Number(value);
          break;
        default:
          break; // unknown fields are ignored by the spec
      }
    }
    return events;
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    if (data.length === 0) return undefined;
    const dispatched: SseEvent = {
      event: event || 'message',
      data: data.length === 1 ? data[0]! : data.join('\n'),
    };
    if (this.#lastEventId !== undefined) dispatched.id = this.#lastEventId;
    if (this.#retry !== undefined) dispatched.retry = this.#retry;
    return dispatched;
  }
}

/** A response body as SSE events; leaving the loop early cancels the body. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void> {
  const decoder = new SseDecoder();
  for await (const chunk of readBytes(body)) yield* decoder.push(chunk);
  yield* decoder.end();
}
