/**
 * The bytes `text` takes as UTF-8, as `TextEncoder` would write it (a lone
 * surrogate as U+FFFD, three bytes), counted without encoding: sizing a note
 * of 100 MB this way allocates nothing, where encoding it made a copy larger
 * than the note.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
      continue;
    }
    // A surrogate pair is two code units and four bytes.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2;
        index += 1;
        continue;
      }
    }
    bytes += 2;
  }
  return bytes;
}
