import { readableText } from './readable-text';

const EXCERPT_LENGTH = 160;
/**
 * What of the body the excerpt reads: its start, cut at a line end. Parsing
 * all of a long body for 160 characters would cost every save of it.
 */
const EXCERPT_SOURCE_LENGTH = 4 * 1024;
const FRONT_MATTER = /^---\r?\n[\s\S]*?\r?\n---(?:\r?\n|$)/;

/**
 * A note's first words as the note list shows them: no front matter, the
 * readable text of its Markdown (the preview's grammar, so `$O(n)$` stays
 * `O(n)` and a link shows its label), on one line, at most 160 characters.
 */
export function noteExcerpt(body: string): string {
  let source = body.length > EXCERPT_SOURCE_LENGTH * 2 ? body.slice(0, EXCERPT_SOURCE_LENGTH * 2) : body;
  source = source.replace(FRONT_MATTER, '');
  if (source.length > EXCERPT_SOURCE_LENGTH) {
    const lineEnd = source.lastIndexOf('\n', EXCERPT_SOURCE_LENGTH);
    source = source.slice(0, lineEnd > 0 ? lineEnd : EXCERPT_SOURCE_LENGTH);
  }
  const text = readableText(source).replace(/\s+/g, ' ').trim();
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH)}…` : text;
}
