// Its own module, with nothing heavy behind it: the editor's [[ completion runs in the page's
// shell, and wikilinks.ts reaches markdown-it (to tell code from text) for the core worker.

/**
 * The link being typed at `cursor`: an unclosed `[[` earlier on the same line
 * with no `|` or `#` after it (titles are offered, not headings). Returns where
 * the target starts and what was typed.
 */
export function wikilinkQueryAt(text: string, cursor: number): { start: number; query: string } | null {
  const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
  const before = text.slice(lineStart, cursor);
  const open = before.lastIndexOf('[[');
  if (open === -1) return null;
  const query = before.slice(open + 2);
  // Past a heading's `#` (see splitWikilinkTarget) the query is no longer a title.
  if (/[[\]|]|#\S/u.test(query)) return null;
  return { start: lineStart + open + 2, query };
}
