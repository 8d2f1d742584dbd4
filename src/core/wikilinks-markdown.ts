import { noteLinkTarget, type NoteLinkMeta } from './markdown/obsidian-syntax';

export interface MarkdownNoteLink extends NoteLinkMeta {
  /** Offset of the link's `](` in the source (where its address starts). */
  start: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// `](address)` or `](address "title")`, the address bare or in `<...>`.
const LINK_ADDRESS = /\]\(\s*(<[^<>\n]*>|[^\s()]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

/**
 * The Markdown links to notes in `body` (`[text](Folder/Note.md#Heading)`, see
 * `noteLinkTarget`), for the link index: they are links between notes as `[[...]]` are.
 * Like `parseWikilinks`, links in fenced code and code spans are not links.
 */
export function parseMarkdownNoteLinks(body: string): MarkdownNoteLink[] {
  const links: MarkdownNoteLink[] = [];
  if (!body.includes('.md')) return links;
  let fence: string | null = null;
  let offset = 0;
  for (const line of body.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker)
        fence = null;
    } else if (marker) {
      fence = marker;
    } else if (line.includes('](')) {
      // Code spans blanked out, so offsets stay those of the source.
      const text = line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
      for (const match of text.matchAll(LINK_ADDRESS)) {
        const address = (match[1] ?? '').replace(/^<(.*)>$/, '$1');
        const note = noteLinkTarget(address.replace(/ /g, '%20'));
        if (note) links.push({ ...note, start: offset + match.index });
      }
    }
    offset += line.length + 1;
  }
  return links;
}
