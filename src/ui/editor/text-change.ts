/** One replaced range: `from`..`to` of the old text became `insert`. */
export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/**
 * The smallest single change turning `before` into `after` (common start and
 * end kept), or null when they are equal. A change made outside the editor (a
 * reloaded note, text held during a switch) is applied as this, so the caret,
 * scroll and undo history around it survive.
 */
export function textChange(before: string, after: string): TextChange | null {
  if (before === after) return null;
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start += 1;
  let end = 0;
  while (
    end < shorter - start &&
    before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)
  )
    end += 1;
  // Never split a surrogate pair: widen the change to take the whole character.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start -= 1;
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end -= 1;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
