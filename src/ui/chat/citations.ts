import type { ChatCitationDto } from '../../contracts/chat';
import { replaceCitationMarkers } from '../../core/citation-markers';

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Turns the answer's `[n]` markers into links to `#citation-n`, for the numbers
 * that are sources of the message; others stay text. With `name`, each link is
 * named after its source (a screen reader says "Source 1: Whale note", not "[1]"):
 * Markdown has no way to name a link, so those are written as HTML.
 */
export function linkCitations(
  content: string,
  citations: readonly ChatCitationDto[],
  name?: (citation: ChatCitationDto) => string,
): string {
  if (citations.length === 0) return content;
  const byIndex = new Map(citations.map((citation) => [citation.index, citation]));
  return replaceCitationMarkers(content, new Set(byIndex.keys()), (index) =>
    name
      ? `<a href="#citation-${index}" aria-label="${escapeAttribute(name(byIndex.get(index)!))}">\\[${index}\\]</a>`
      : `[\\[${index}\\]](#citation-${index})`,
  );
}
