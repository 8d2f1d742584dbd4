/** A stretch of a text (UTF-16 offsets, `to` exclusive) and what it becomes. */
export interface SpanReplacement {
  from: number;
  to: number;
  text: string;
}

/**
 * `text` with each span replaced, the rest kept byte for byte. Spans come in order and
 * do not overlap: a rewrite finds them scanning the text once.
 */
export function replaceSpans(text: string, spans: Iterable<SpanReplacement>): string {
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    if (span.from < cursor || span.to < span.from || span.to > text.length)
      throw new RangeError(`Span ${span.from}–${span.to} is out of order or out of the text`);
    result += text.slice(cursor, span.from) + span.text;
    cursor = span.to;
  }
  return result + text.slice(cursor);
}
