/**
 * `[[Title]]` and `[[Title|label]]` links between notes, found in Markdown
 * source with their offsets so they can be indexed and rewritten in place.
 * The rules follow the preview's inline rule (one line, no brackets inside, a
 * non-empty target); links in code, as the preview's grammar finds it (fenced or
 * indented, in a quote, callout or list item too, and code spans), are not links.
 * As in Obsidian, `#` in a target starts a place in the note: `[[Title#Heading]]`
 * and `[[Title#^block]]` link to the note `Title`, and `[[#Heading]]` to a
 * heading of the note the link is in.
 */

import { codeEndAt, linkSourceRanges } from './markdown/link-source-ranges';
import { replaceSpans, type SpanReplacement } from './markdown/replace-spans';
import { linkKey } from './wikilinks-key';
import { linkPath, retitleTarget } from './wikilinks-paths';
import { wikilinkQueryAt } from './wikilinks-query';
import { splitWikilinkTarget } from './wikilinks-target';

export { linkKey, splitWikilinkTarget, wikilinkQueryAt };

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

/** Every wikilink in `body`, in source order. */
export function parseWikilinks(body: string): WikilinkRef[] {
  const links: WikilinkRef[] = [];
  if (!body.includes('[[')) return links;
  const codeEnd = codeEndAt(linkSourceRanges(body).code);
  let offset = 0;
  for (const line of body.split('\n')) {
    scanLine(line, offset, links, codeEnd);
    offset += line.length + 1;
  }
  return links;
}

function scanLine(
  line: string,
  offset: number,
  links: WikilinkRef[],
  codeEnd: (offset: number) => number,
): void {
  let index = 0;
  while (index < line.length) {
    const skip = codeEnd(offset + index);
    if (skip !== -1) {
      index = skip - offset;
      continue;
    }
    const char = line[index];
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
  const spans: SpanReplacement[] = [];
  for (const link of parseWikilinks(body)) {
    if (link.target === '') continue;
    const target = next(link.target);
    if (target === null || target === link.target) continue;
    const fragment = link.fragment === null ? '' : `#${link.fragment}`;
    const label = link.label === null ? '' : `|${link.label}`;
    spans.push({ from: link.start, to: link.end, text: `[[${target}${fragment}${label}]]` });
  }
  return { body: spans.length === 0 ? body : replaceSpans(body, spans), count: spans.length };
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
