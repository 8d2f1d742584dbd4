import { parseWikilinks } from '../core/wikilinks';

/**
 * A block's text as its full-text terms see it: each `[[Title#Heading|label]]`
 * stands for its label alone ('' without one). The title in a link is the
 * other note's name, which that note's own title field already holds; counted
 * as words of the linking block, a passing "Back to [[卷积 Convolution]]" in a
 * short block outranked the note called 卷积 (a body match beats a title match,
 * whose boost is below 1 and whose terms every block of the note shares).
 * A label is the writer's own words and stays. Links in code are not links.
 */
export function withoutLinkTargets(text: string): string {
  // Most blocks hold no link and are not parsed.
  if (!text.includes('[[')) return text;
  const links = parseWikilinks(text);
  if (links.length === 0) return text;
  let out = '';
  let at = 0;
  for (const link of links) {
    out += `${text.slice(at, link.start)} ${link.label ?? ''} `;
    at = link.end;
  }
  return out + text.slice(at);
}
