import {
  codeEndAt,
  linkSourceRanges,
  linkSyntaxHelpers,
  type SourceRange,
} from './markdown/link-source-ranges';
import { noteLinkTarget, type NoteLinkMeta } from './markdown/obsidian-syntax';
import { replaceSpans, type SpanReplacement } from './markdown/replace-spans';
import { rewriteLinkTargets } from './wikilinks';

export interface MarkdownNoteLink extends NoteLinkMeta {
  /** Where the link is in the source, for the line it is on: its `](`, or a reference definition's `[`. */
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

/** The offset past the spaces and tabs from `at`. */
function skipBlanks(body: string, at: number): number {
  let pos = at;
  while (body.charAt(pos) === ' ' || body.charAt(pos) === '\t') pos++;
  return pos;
}

/** The length of the line break at `at`, 0 when there is none. */
function lineBreakAt(body: string, at: number): number {
  if (body.startsWith('\r\n', at)) return 2;
  return body.charAt(at) === '\n' || body.charAt(at) === '\r' ? 1 : 0;
}

/**
 * The offset past the spaces, tabs and at most one line break from `at`: a blank line
 * ends the paragraph, and the link with it (an offset at the blank line's end then,
 * where no address or `)` is).
 */
function skipSpace(body: string, at: number): number {
  const pos = skipBlanks(body, at);
  const lineBreak = lineBreakAt(body, pos);
  return lineBreak === 0 ? pos : skipBlanks(body, pos + lineBreak);
}

/** The note link whose address starts at `at` and ends before `max`, `start` its `](` or `[`. */
function addressAt(body: string, at: number, max: number, start: number): AddressSpan | null {
  // CommonMark's reading, as the preview's: `<...>`, or bare with balanced parentheses.
  const address = linkSyntaxHelpers().parseLinkDestination(body, at, max);
  if (!address.ok) return null;
  // `<...>` takes spaces as they are; a bare address cannot hold one.
  const note = noteLinkTarget(address.str.replace(/ /g, '%20'));
  if (!note) return null;
  const angled = body.charCodeAt(at) === 0x3c;
  return {
    link: { ...note, start },
    from: angled ? at + 1 : at,
    to: angled ? address.pos - 1 : address.pos,
    angled,
  };
}

/**
 * `[text](address "title")` from its `](` at `at`: the address and the offset past the
 * closing `)`, or null when this is no such link.
 */
function inlineLinkAt(
  body: string,
  at: number,
  lineEnd: (from: number) => number,
): { span: AddressSpan; end: number } | null {
  const start = skipSpace(body, at + 2);
  const span = addressAt(body, start, lineEnd(start), at);
  if (!span) return null;
  const afterAddress = span.to + (span.angled ? 1 : 0);
  let pos = skipSpace(body, afterAddress);
  if (pos !== afterAddress && body.charAt(pos) !== ')') {
    // A title on one line: one left open would be looked for to the end of the note.
    const title = linkSyntaxHelpers().parseLinkTitle(body, pos, lineEnd(pos));
    if (!title.ok) return null;
    pos = skipSpace(body, title.pos);
  }
  return body.charAt(pos) === ')' ? { span, end: pos + 1 } : null;
}

/** `[label]: address "title"` in the definition's lines: the address, or null when it names no note. */
function definitionAt(body: string, lines: SourceRange): AddressSpan | null {
  // The label's `[` is the line's first: no container mark (`>`, `-`, `1.`) holds one.
  const open = body.indexOf('[', lines.from);
  if (open === -1 || open >= lines.to) return null;
  let pos = open + 1;
  while (pos < lines.to && body.charAt(pos) !== ']') pos += body.charAt(pos) === '\\' ? 2 : 1;
  if (body.charAt(pos + 1) !== ':') return null;
  let start = skipBlanks(body, pos + 2);
  const lineBreak = lineBreakAt(body, start);
  if (lineBreak > 0) {
    // The address on the next line, after the marks of the quotes the definition is in.
    start = skipBlanks(body, start + lineBreak);
    const quotes = body.slice(lines.from, open).split('>').length - 1;
    for (let quote = 0; quote < quotes && body.charAt(start) === '>'; quote++)
      start = skipBlanks(body, start + 1);
  }
  return addressAt(body, start, lines.to, open);
}

/**
 * Every note link's address in `body`, in source order: inline links and reference
 * definitions outside code. A `](` in code or in a definition's title is no link.
 */
function noteLinkAddresses(body: string): AddressSpan[] {
  if (!/\.md/i.test(body)) return [];
  const { code, definitions } = linkSourceRanges(body);
  const spans = definitions.flatMap((lines) => definitionAt(body, lines) ?? []);
  const skipped = [...code, ...definitions].sort((a, b) => a.from - b.from);
  const skipEnd = codeEndAt(skipped);
  // No line break in [known.from, known.to); known.to is one, or the end.
  let known = { from: 0, to: -1 };
  const lineEnd = (from: number) => {
    if (from < known.from || from > known.to) {
      const newline = body.indexOf('\n', from);
      known = { from, to: newline === -1 ? body.length : newline };
    }
    return known.to;
  };
  for (let at = body.indexOf(']('); at !== -1; at = body.indexOf('](', at + 2)) {
    const end = skipEnd(at);
    if (end !== -1) {
      at = end - 2;
      continue;
    }
    const link = inlineLinkAt(body, at, lineEnd);
    if (link) {
      spans.push(link.span);
      // A `](` in its title or angled address is no other link.
      at = link.end - 2;
    }
  }
  return spans.sort((a, b) => a.from - b.from);
}

/**
 * The Markdown links to notes in `body` (`[text](Folder/Note.md#Heading)`, see
 * `noteLinkTarget`; an address with balanced parentheses too), and the reference
 * definitions that name a note (`[ref]: <Folder/Note.md> "title"`), for the link index:
 * they are links between notes as `[[...]]` are. Like `parseWikilinks`, links in code
 * (see linkSourceRanges) are not links.
 */
export function parseMarkdownNoteLinks(body: string): MarkdownNoteLink[] {
  return noteLinkAddresses(body).map((span) => span.link);
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
const UNSAFE_BARE_PARENS = /[\s<>#?%\\"]/gu;
// Inside `<...>` spaces and parentheses are fine.
const UNSAFE_ANGLED = /[<>\n#?%\\"]/gu;
const percent = (char: string) =>
  [...new TextEncoder().encode(char)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');

/** How a link escapes its address's path parts, read from its own. */
interface EscapeStyle {
  /** Every character beyond ASCII as `%XX` (`%E7%AC%94`), as Obsidian writes links. */
  full: boolean;
  /** In `<...>` and written with no escapes: spaces and parentheses stay readable. */
  angled: boolean;
  /** Bare, with parentheses as they are (`Old%20(2).md`): balanced ones stay so. */
  parens: boolean;
}

/**
 * A path part written as the link wrote its own: Obsidian's links encode every
 * character beyond ASCII (`%E7%AC%94`) when the written one did, else only what
 * the address needs encoded (spaces in a bare one as `%20`); a part in `<...>`
 * written with no escapes stays readable.
 */
function encodePart(part: string, style: EscapeStyle): string {
  const parens = style.parens && balanced(part);
  if (style.full) return encodeURIComponent(part).replace(parens ? /[!'*]/g : /[()!'*]/g, percent);
  return part.replace(style.angled ? UNSAFE_ANGLED : parens ? UNSAFE_BARE_PARENS : UNSAFE_BARE, percent);
}

/** Whether every `)` closes a `(` before it and every `(` is closed: a bare address may hold them so. */
function balanced(text: string): boolean {
  let depth = 0;
  for (const char of text) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return false;
  }
  return depth === 0;
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
  const style: EscapeStyle = {
    full: /%[89A-Fa-f][0-9A-Fa-f]/.test(path),
    angled: angled && !escaped,
    parens: !angled && /[()]/.test(path),
  };
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
  const replacements: SpanReplacement[] = [];
  for (const span of noteLinkAddresses(body)) {
    const target = next(span.link.target);
    if (target === null || target === span.link.target) continue;
    const written = body.slice(span.from, span.to);
    replacements.push({ from: span.from, to: span.to, text: restyledAddress(written, target, span.angled) });
  }
  return {
    body: replacements.length === 0 ? body : replaceSpans(body, replacements),
    count: replacements.length,
  };
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
