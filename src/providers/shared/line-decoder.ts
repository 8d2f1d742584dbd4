/**
 * Bytes to text lines, the layer under the SSE and NDJSON parsers.
 *
 * - LF, CRLF and a lone CR all end a line (the SSE grammar allows all three),
 *   including a CR at the end of one chunk whose LF opens the next.
 * - A UTF-8 character split across chunks is decoded once whole: the decoder
 *   runs in stream mode and keeps the partial bytes until the rest arrives.
 */
export class LineDecoder {
  readonly #decoder = new TextDecoder('utf-8');
  #partial = '';
  #pendingCarriageReturn = false;

  /** The lines completed by this chunk, without their terminators. */
  push(chunk: Uint8Array): string[] {
    return this.#split(this.#decoder.decode(chunk, { stream: true }));
  }

  /** Flushes the decoder; an unterminated last line is returned as a line. */
  end(): string[] {
    const lines = this.#split(this.#decoder.decode());
    if (this.#partial !== '') lines.push(this.#partial);
    this.#partial = '';
    this.#pendingCarriageReturn = false;
    return lines;
  }

  #split(text: string): string[] {
    const lines: string[] = [];
    if (text === '') return lines;
    let start = 0;
    if (this.#pendingCarriageReturn) {
      this.#pendingCarriageReturn = false;
      if (text.charCodeAt(0) === 10) start = 1;
    }
    if (text.indexOf('\r', start) === -1) {
      // No CR in this piece (the usual case): let indexOf find the LFs natively.
      for (let end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        lines.push(this.#partial === '' ? text.slice(start, end) : this.#partial + text.slice(start, end));
        this.#partial = '';
        start = end + 1;
      }
      this.#partial += text.slice(start);
      return lines;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== 10 && code !== 13) continue;
      lines.push(this.#partial + text.slice(start, i));
      this.#partial = '';
      if (code === 13) {
        if (i + 1 === text.length) this.#pendingCarriageReturn = true;
        else if (text.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
    }
    this.#partial += text.slice(start);
    return lines;
  }
}

/**
 * Reads a body chunk by chunk. Leaving early (break, return, a throw in the
 * consumer) cancels the body, which closes the upstream connection.
 */
export async function* readBytes(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array, void> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const result = await reader.read();
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    // Not awaited: cancelling an errored or aborted body may never settle.
    if (!finished) reader.cancel().catch(() => undefined);
  }
}
