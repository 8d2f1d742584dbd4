/**
 * Obsidian comments (`%%…%%`) taken out of a note's source before anything reads it:
 * every character between the marks (marks included) goes, line breaks stay.
 *
 * Why the whole source and not a parse rule alone: a comment may open in one block and
 * close in another (`text %%plan\n\nmore plan%%`, a quote, a heading, a callout's title),
 * and the preview renders block by block, so no rule that sees one block at a time can
 * hide it. Keeping the line breaks keeps every line number (source maps, the preview's
 * scroll sync) as it was.
 *
 * A comment is private: unclosed, it hides the rest of the note, as in Obsidian. `%%`
 * inside fenced code or a code span is text (TeX and MATLAB use it).
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The index just past the code span opened by the backtick run at `start`, or -1 if it is no span. */
function codeSpanEnd(src: string, start: number, runLength: number): number {
  // A span ends at the same-length run; it cannot cross a blank line (the paragraph ends).
  const blank = src.slice(start).search(/\n[ \t]*\n/);
  const limit = blank === -1 ? src.length : start + blank;
  let index = start + runLength;
  while (index < limit) {
    const next = src.indexOf('`', index);
    if (next === -1 || next >= limit) return -1;
    let end = next;
    while (src.charCodeAt(end) === 0x60) end += 1;
    if (end - next === runLength) return end;
    index = end;
  }
  return -1;
}

function blank(units: string[], from: number, to: number): void {
  for (let index = from; index < to; index++) if (units[index] !== '\n') units[index] = '';
}

export function stripObsidianComments(src: string): string {
  if (!src.includes('%%')) return src;
  // UTF-16 units, as `src`'s offsets count them (an emoji is two).
  const units = src.split('');
  let fence: string | null = null;
  let index = 0;
  let lineStart = true;
  while (index < src.length) {
    if (lineStart) {
      const lineEnd = src.indexOf('\n', index);
      const line = src.slice(index, lineEnd === -1 ? src.length : lineEnd);
      const marker = FENCE.exec(line)?.[1];
      if (fence !== null) {
        // Inside fenced code: only its closing fence (same character, at least as long) ends it.
        if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
          fence = null;
        index = lineEnd === -1 ? src.length : lineEnd + 1;
        continue;
      }
      if (marker) {
        fence = marker;
        index = lineEnd === -1 ? src.length : lineEnd + 1;
        continue;
      }
      lineStart = false;
    }
    const code = src.charCodeAt(index);
    if (code === 0x0a) {
      lineStart = true;
      index += 1;
    } else if (code === 0x5c) {
      // A backslash escapes the next character (`\%%` is two percent signs).
      index += 2;
    } else if (code === 0x60) {
      let run = index;
      while (src.charCodeAt(run) === 0x60) run += 1;
      const end = codeSpanEnd(src, index, run - index);
      index = end === -1 ? run : end;
    } else if (code === 0x25 && src.charCodeAt(index + 1) === 0x25) {
      const close = src.indexOf('%%', index + 2);
      const end = close === -1 ? src.length : close + 2;
      blank(units, index, end);
      index = end;
    } else {
      index += 1;
    }
  }
  return units.join('');
}
