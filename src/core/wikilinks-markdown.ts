import { noteLinkTarget, type NoteLinkMeta } from './markdown/obsidian-syntax';
import { rewriteLinkTargets } from './wikilinks';

export interface MarkdownNoteLink extends NoteLinkMeta {
  /** Offset of the link's `](` in the source (where its address starts). */
  start: number;
}

/** Where a note link's address is in the source, as written (`<...>` left out). */
interface AddressSpan {
  link: MarkdownNoteLink;
  /** Offsets of the address, inside the angle brackets when it has them. */
  from: number;
  to: number;
  angled: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// `](address)` or `](address "title")`, the address bare or in `<...>`.
const LINK_ADDRESS = /\]\((\s*)(<[^<>\n]*>|[^\s()]+)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;

function* noteLinkAddresses(body: string): Generator<AddressSpan> {
  if (!body.includes('.md')) return;
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
        const written = match[2] ?? '';
        const angled = written.startsWith('<');
        const address = angled ? written.slice(1, -1) : written;
        const note = noteLinkTarget(address.replace(/ /g, '%20'));
        if (!note) continue;
        const from = offset + match.index + 2 + (match[1] ?? '').length + (angled ? 1 : 0);
        yield { link: { ...note, start: offset + match.index }, from, to: from + address.length, angled };
      }
    }
    offset += line.length + 1;
  }
}

/**
 * The Markdown links to notes in `body` (`[text](Folder/Note.md#Heading)`, see
 * `noteLinkTarget`), for the link index: they are links between notes as `[[...]]` are.
 * Like `parseWikilinks`, links in fenced code and code spans are not links.
 */
export function parseMarkdownNoteLinks(body: string): MarkdownNoteLink[] {
  return [...noteLinkAddresses(body)].map((span) => span.link);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// What a bare address cannot hold as it is: it would end the address, the link or the path
// (`"` too: a link may sit in a quoted front-matter value, which it would end).
const UNSAFE_BARE = /[\s()<>#?%\\"]/gu;
// Inside `<...>` spaces and parentheses are fine.
const UNSAFE_ANGLED = /[<>\n#?%\\"]/gu;
const percent = (char: string) =>
  [...new TextEncoder().encode(char)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/**
 * A path part written as the link wrote its own: Obsidian's links encode every
 * character beyond ASCII (`%E7%AC%94`) when the written one did, else only what
 * the address needs encoded (spaces in a bare one as `%20`); a part in `<...>`
 * written with no escapes stays readable.
 */
function encodePart(part: string, style: { full: boolean; angled: boolean }): string {
  if (style.full) return encodeURIComponent(part).replace(/[()!'*]/g, percent);
  return part.replace(style.angled ? UNSAFE_ANGLED : UNSAFE_BARE, percent);
}

/**
 * The address `written` (as in the source, `<...>` left out) pointing at the
 * note path `target` in the written one's style: its `./` or `../`, the parts
 * that did not change byte for byte, new parts escaped as it escaped its own,
 * and its `#place` as written.
 */
function restyledAddress(written: string, target: string, angled: boolean): string {
  const hash = written.indexOf('#');
  const path = hash === -1 ? written : written.slice(0, hash);
  const place = hash === -1 ? '' : written.slice(hash);
  const lead = /^(?:\.{1,2}\/)+/.exec(path)?.[0] ?? '';
  const oldParts = path.slice(lead.length).split('/');
  const escaped = /%[0-9A-Fa-f]{2}/.test(path);
  const style = { full: /%[89A-Fa-f][0-9A-Fa-f]/.test(path), angled: angled && !escaped };
  const parts = target.split('/').map((part, index) => {
    const old = oldParts[index];
    return old !== undefined && decoded(old).trim() === part ? old : encodePart(part, style);
  });
  return `${lead}${parts.join('/')}${place}`;
}

/**
 * Gives each Markdown link to a note in `body` the target `next(target)` returns
 * (its path decoded, `./` and `#place` left out, as `parseMarkdownNoteLinks`
 * reads it), keeping its text, title, angle brackets, `#place` and escaping
 * style; null leaves the link as it is. Links in code are not links and stay.
 */
export function rewriteMarkdownNoteLinks(
  body: string,
  next: (target: string) => string | null,
): { body: string; count: number } {
  let count = 0;
  let result = '';
  let cursor = 0;
  for (const span of noteLinkAddresses(body)) {
    const target = next(span.link.target);
    if (target === null || target === span.link.target) continue;
    result +=
      body.slice(cursor, span.from) + restyledAddress(body.slice(span.from, span.to), target, span.angled);
    cursor = span.to;
    count++;
  }
  return { body: count === 0 ? body : result + body.slice(cursor), count };
}

/**
 * `rewriteLinkTargets` for both kinds of links between notes: `[[wikilinks]]`
 * and Markdown links to `.md` notes, which open notes and count as backlinks
 * alike, so they follow a rename or a move alike.
 */
export function rewriteNoteLinkTargets(
  body: string,
  next: (target: string) => string | null,
): { body: string; count: number } {
  const wiki = rewriteLinkTargets(body, next);
  const markdown = rewriteMarkdownNoteLinks(wiki.body, next);
  return { body: markdown.body, count: wiki.count + markdown.count };
}
