import type { ChatCitationDto } from '../../contracts/chat';
import { replaceCitationMarkers } from '../../core/citation-markers';

/**
 * Turns the answer's `[n]` markers into Markdown links to `#citation-n`, for
 * the numbers that are sources of the message; others stay text.
 */
export function linkCitations(content: string, citations: readonly ChatCitationDto[]): string {
  if (citations.length === 0) return content;
  const known = new Set(citations.map((citation) => citation.index));
  return replaceCitationMarkers(content, known, (index) => `[\\[${index}\\]](#citation-${index})`);
}
