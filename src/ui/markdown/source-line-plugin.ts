import type { MarkdownIt, StateCore } from 'markdown-it';

/** Attribute that maps a rendered block back to its 0-based start line in the note. */
export const SOURCE_LINE_ATTRIBUTE = 'data-source-line';

// Raw HTML is emitted verbatim (attributes cannot be added), inline tokens are not
// elements, and front matter renders nothing.
const SKIPPED_TYPES = new Set(['inline', 'html_block', 'front_matter']);

/**
 * Marks every block element that has a source map with `data-source-line`, so the
 * editor and search can scroll the preview to a block (and back).
 */
export function sourceLinePlugin(md: MarkdownIt): void {
  md.core.ruler.push('source_line', (state: StateCore) => {
    for (const token of state.tokens) {
      if (!token.block || !token.map || token.nesting === -1 || SKIPPED_TYPES.has(token.type)) continue;
      token.attrSet(SOURCE_LINE_ATTRIBUTE, String(token.map[0]));
    }
  });
}
