// The grammars live in core so the exporters colour exactly what the preview does.
import { highlightHtml, isHighlightable } from '../../core/code-highlight';

export { isHighlightable };

/**
 * Highlighted HTML for `code`. Unknown languages come back escaped and unstyled:
 * auto-detection is slow on long notes and guesses wrong often enough to mislead.
 */
export function highlightCode(code: string, language: string): string {
  return highlightHtml(code, language);
}
