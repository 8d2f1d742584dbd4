/**
 * `[[Title]]` and `[[Title|label]]` links between notes, found in Markdown
 * source with their offsets so they can be indexed and rewritten in place.
 * The rules follow the preview's inline rule (one line, no brackets inside, a
 * non-empty target); links inside fenced code and code spans are not links.
 * As in Obsidian, `#` in a target starts a place in the note: `[[Title#Heading]]`
 * and `[[Title#^block]]` link to the note `Title`, and `[[#Heading]]` to a
 * heading of the note the link is in.
 */

import { linkKey } from './wikilinks-key';
import { linkPath, retitleTarget } from './wikilinks-paths';

export { linkKey };

export interface WikilinkRef {
  /** The linked note's title as written, trimmed; empty for `[[#Heading]]` (the same note). */
  target: string;
  /** What follows the first `#` (a heading, or `^id` for a block), trimmed; null without one. */
  fragment: string | null;
  /** The text after `|`, when given. */
  label: string | null;
  /** Offsets of the whole `[[...]]` in the source. */
  start: number;
  end: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

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

/** Every wikilink in `body`, in source order. */
export function parseWikilinks(body: string): WikilinkRef[] {
  const links: WikilinkRef[] = [];
  let fence: string | null = null;
  let offset = 0;
  for (const line of body.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null;
      }
    } else if (marker) {
      fence = marker;
    } else {
      scanLine(line, offset, links);
    }
    offset += line.length + 1;
  }
  return links;
}

function scanLine(line: string, offset: number, links: WikilinkRef[]): void {
  let index = 0;
  while (index < line.length) {
    const char = line[index];
    if (char === '`') {
      // A code span runs to the next run of the same number of backticks.
      let run = 1;
      while (line[index + run] === '`') run++;
      const ticks = '`'.repeat(run);
      const close = line.indexOf(ticks, index + run);
      index = close === -1 ? index + run : close + run;
      continue;
    }
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '[' && line[index + 1] === '[') {
      const close = line.indexOf(']]', index + 2);
      if (close === -1) return;
      const inner = line.slice(index + 2, close);
      if (!/[[\]]/.test(inner)) {
        const separator = inner.indexOf('|');
        const written = (separator === -1 ? inner : inner.slice(0, separator)).trim();
        const { title, fragment } = splitWikilinkTarget(written);
        if (title !== '' || fragment !== null) {
          const label = separator === -1 ? null : inner.slice(separator + 1).trim() || null;
          links.push({ target: title, fragment, label, start: offset + index, end: offset + close + 2 });
          index = close + 2;
          continue;
        }
      }
    }
    index++;
  }
}

/** The distinct link keys of a body (links within the note itself aside): what the link index stores per note. */
export function linkKeys(body: string): Set<string> {
  return new Set(
    parseWikilinks(body)
      .filter((link) => link.target !== '')
      .map((link) => linkKey(link.target)),
  );
}

/**
 * Points every link to `oldTitle` at `newTitle`, keeping headings and labels:
 * `[[Old]]` becomes `[[New]]`, `[[Old|see]]` becomes `[[New|see]]` and
 * `[[Old#Part|see]]` becomes `[[New#Part|see]]`. A link in Obsidian's path
 * form keeps its folders and `.md` (`[[folder/Old.md]]` becomes
 * `[[folder/New.md]]`). `follows(before, after)` says whether a link whose
 * target reads `before` now should read `after`; without it every link whose
 * title is `oldTitle` does, whatever folder it names.
 */
export function rewriteWikilinks(
  body: string,
  oldTitle: string,
  newTitle: string,
  follows: (before: string, after: string) => boolean = () => true,
): { body: string; count: number } {
  return rewriteLinkTargets(body, renamingTarget(oldTitle, newTitle, follows));
}

/**
 * What each link target written as `target` reads once the note `oldTitle`
 * is called `newTitle` (see rewriteWikilinks), null for one that stays: the
 * `next` of rewriteLinkTargets for a rename.
 */
export function renamingTarget(
  oldTitle: string,
  newTitle: string,
  follows: (before: string, after: string) => boolean = () => true,
): (target: string) => string | null {
  const oldKey = linkKey(oldTitle);
  // Asked once per target as written: `follows` may be a lookup in the link index.
  const decided = new Map<string, string | null>();
  return (written) => {
    if (decided.has(written)) return decided.get(written)!;
    const target = renamedTarget(written, oldKey, newTitle);
    const next = target !== null && follows(written, target) ? target : null;
    decided.set(written, next);
    return next;
  };
}

/**
 * Gives each `[[link]]` of `body` the target `next(target)` returns (target as
 * written, without its `#place` and `|label`), keeping its place and label;
 * null leaves the link as it is. Links in code are not links and stay.
 */
export function rewriteLinkTargets(
  body: string,
  next: (target: string) => string | null,
): { body: string; count: number } {
  let count = 0;
  let result = '';
  let cursor = 0;
  for (const link of parseWikilinks(body)) {
    if (link.target === '') continue;
    const target = next(link.target);
    if (target === null || target === link.target) continue;
    const fragment = link.fragment === null ? '' : `#${link.fragment}`;
    const label = link.label === null ? '' : `|${link.label}`;
    result += body.slice(cursor, link.start) + `[[${target}${fragment}${label}]]`;
    cursor = link.end;
    count++;
  }
  return { body: count === 0 ? body : result + body.slice(cursor), count };
}

/**
 * What a link target reads once the note of title key `oldKey` it names is
 * called `newTitle`, in the form it was written; null when it names another title.
 */
export function renamedTarget(target: string, oldKey: string, newTitle: string): string | null {
  // A title with a `/` in it, written whole, is replaced whole.
  if (linkKey(target) === oldKey) return newTitle.trim();
  return namesTitle(target, oldKey) ? retitleTarget(target, newTitle) : null;
}

/**
 * Whether a link target names a note of this title key: as a plain title, or
 * as the last part of a path (`folder/Title`, `Title.md`).
 */
export function namesTitle(target: string, titleKey: string): boolean {
  if (linkKey(target) === titleKey) return true;
  const path = linkPath(target);
  return path !== null && linkKey(path.title) === titleKey;
}

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
