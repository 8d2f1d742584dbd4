// Its own module: the Markdown grammar (markdown/syntax.ts) reads link targets this way,
// and wikilinks.ts finds code through that grammar, so neither may import the other.

/**
 * A link target split into the note's title and the place in it, at the first
 * `#` that a heading or block id follows at once (`Note#Heading`, `Note#^id`,
 * `#Heading`). Obsidian does not allow `#` in note names, but a note written
 * here may be called "C# tips" or "F#": a `#` before a space or at the end is
 * part of the title.
 */
export function splitWikilinkTarget(target: string): { title: string; fragment: string | null } {
  const hash = target.search(/#\S/u);
  if (hash === -1) return { title: target.trim() === '#' ? '' : target.trim(), fragment: null };
  return { title: target.slice(0, hash).trim(), fragment: target.slice(hash + 1).trim() || null };
}
