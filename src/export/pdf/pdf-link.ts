/**
 * A link's address as a PDF URI action holds it: PDF 32000 §12.6.4.7 wants 7-bit ASCII. The
 * Markdown parser already percent-encodes what a person typed (a Chinese path, a host in
 * punycode); anything else outside ASCII that reaches here is encoded as UTF-8 the same way.
 * Written as a hex string, the parentheses and backslashes an address may hold need no escaping:
 * in a literal string, one unbalanced "(" ended the string early and broke the whole file.
 */
export function uriHexDigits(url: string): string {
  const ascii = url.replace(/[^\x21-\x7e]/gu, (character) => encodeURIComponent(character));
  return Array.from(ascii, (character) => character.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}
