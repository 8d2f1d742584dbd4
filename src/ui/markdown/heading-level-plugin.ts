import type { MarkdownIt, StateCore } from 'markdown-it';

/** The deepest level a heading can be announced at. */
const DEEPEST_LEVEL = 6;

/**
 * In the app a note sits under the page's own level-1 heading, so a note's `# Title` is spoken
 * as level 2, `##` as level 3, and so on (the deepest two share level 6). Only `aria-level`
 * changes: the element stays `<h1>`…`<h6>`, so every theme's heading styles look the same. Exports
 * render with their own pipeline, where the note is the whole document and `#` stays level 1.
 */
export function headingLevelPlugin(md: MarkdownIt): void {
  md.core.ruler.push('heading_level', (state: StateCore) => {
    for (const token of state.tokens) {
      if (token.type !== 'heading_open') continue;
      const level = Number(token.tag.slice(1));
      if (Number.isInteger(level)) token.attrSet('aria-level', String(Math.min(level + 1, DEEPEST_LEVEL)));
    }
  });
}
